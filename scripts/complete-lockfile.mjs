// The npm registry reachable here serves only the platform packages this kind of machine
// installs (linux x64/arm64), so `npm install` leaves the other platforms' optional binaries
// out of package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds
// those entries back with their os/cpu/libc, which npm ci checks before fetching anything,
// so it skips them. Run after any `npm install` that changes the lock; give another lock's path
// for a project outside the workspaces (the Astro example: platform/examples/astro-app/package-lock.json).
import fs from "node:fs";
import path from "node:path";

const file = process.argv[2] ? path.resolve(process.argv[2]) : new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const packages = lock.packages;

const CPUS = ["arm64", "x64", "ia32", "arm", "loong64", "ppc64", "riscv64", "s390x", "wasm32"];
const OSES = ["android", "darwin", "freebsd", "linux", "win32", "openharmony", "netbsd", "openbsd", "sunos", "aix"];

/** os, cpu and libc of a platform binary package, from its name (e.g. `@next/swc-linux-arm64-musl`). */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OSES.includes(p));
  const cpu = parts.find((p) => CPUS.includes(p));
  if (!cpu || (!os && cpu !== "wasm32")) return null;
  const libc = os === "linux" ? (parts.some((p) => p.startsWith("musl")) ? "musl" : parts.some((p) => p.startsWith("gnu")) ? "glibc" : undefined) : undefined;
  return { ...(os && { os: [os] }), cpu: [cpu], ...(libc && { libc: [libc] }) };
}

let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const nested = `${path ? `${path}/` : ""}node_modules/${name}`;
    if (packages[key] || packages[nested]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(range)) continue;
    packages[key] = { version: range, ...platform, optional: true };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(`complete-lockfile: added ${added} optional platform entries`);
