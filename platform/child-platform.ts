import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

/**
 * Test support: the platform as a developer starts it, `platform/cli.ts` in its own process,
 * so tests can kill it outright or run its commands.
 */

const CLI = path.resolve(import.meta.dirname, "cli.ts");

/** A port nothing listens on just now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type CommandResult = { code: number | null; stdout: string; stderr: string };

/** `npm run platform -- <args>` on a data folder, to completion. */
export function runCli(args: string[], env: Record<string, string>): Promise<CommandResult> {
  return runNode(["--import", "tsx", CLI, ...args], { env });
}

/** Node with these arguments and variables, to completion: its exit code and output. */
export function runNode(args: string[], options: { env: Record<string, string>; cwd?: string }): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

export type ChildPlatform = { url: string; process: ChildProcess; output: () => string; exited: Promise<void> };

/** `platform/cli.ts serve` on a data folder and port, once its health check answers. */
export async function startChildPlatform(env: Record<string, string> & { LOCAL_PLATFORM_PORT: string }): Promise<ChildPlatform> {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, "serve"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const url = `http://127.0.0.1:${env.LOCAL_PLATFORM_PORT}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const healthy = await fetch(`${url}/_local/health`).then(
      (reply) => reply.ok,
      () => false,
    );
    if (healthy) return { url, process: child, output: () => output, exited };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`The platform did not start:\n${output}`);
}
