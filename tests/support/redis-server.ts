import { spawn } from "node:child_process";
import net from "node:net";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "../../platform/child-platform";

export { freePort };

/** A real redis-server on a free port, in memory only; `stop()` ends it. */
export async function startRedisServer(): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => resolve(socket.end() && true)).on("error", () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error("redis-server did not start");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => redis.kill() };
}

/** A redis-server for the tests of one `describe`: started before them, stopped after; returns its URL's getter. */
export function useRedisServer(): () => string {
  let redis: Awaited<ReturnType<typeof startRedisServer>> | undefined;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis?.stop());
  return () => redis!.url;
}
