import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, runNode } from "./child-platform";
import type { LoggedRequest } from "./http/request-entry";
import { DEMO_MEMBER } from "./seed/seed";

/**
 * Any Wix headless app on the local platform (platform/README.md, "Your own app"): the package's
 * bin started as a developer would, and an app that knows only the public @wix/* packages run
 * through the one-line register module.
 */

const BIN = path.resolve(import.meta.dirname, "bin/local-platform.mjs");
const APP = path.resolve(import.meta.dirname, "examples/plain-app.mjs");

let dataDir: string;
let platform: ReturnType<typeof spawn>;
let studioUrl: string;
let mailboxUrl: string | undefined;
let platformUrl: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-bin-"));
  platform = spawn(process.execPath, [BIN, "--port", String(await freePort()), "--data", dataDir], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  studioUrl = await new Promise<string>((resolve, reject) => {
    platform.stdout!.on("data", (chunk) => {
      output += chunk;
      const studio = /^Studio: (http:\/\/\S+)$/m.exec(output);
      mailboxUrl = /^Mailbox \(e-mails and text messages sent\): (http:\/\/\S+)$/m.exec(output)?.[1];
      if (studio && mailboxUrl) resolve(studio[1]);
    });
    platform.stderr!.on("data", (chunk) => (output += chunk));
    platform.on("exit", () => reject(new Error(`The platform stopped:\n${output}`)));
  });
  platformUrl = new URL(studioUrl).origin;
}, 60_000);

afterAll(async () => {
  if (platform.exitCode !== null) return;
  const exited = new Promise((resolve) => platform.once("exit", resolve));
  platform.kill("SIGTERM");
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The plain app, with the one register line in front of it. */
function runApp(env: Record<string, string>) {
  return runNode(["--import", "@ridgeline/local-platform/register", APP], { env, cwd: import.meta.dirname });
}

describe("npx local-wix-platform and the register line", () => {
  it("starts on the port and data folder given as flags and prints the Studio's and the mailbox's addresses", async () => {
    expect(studioUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_local\/studio$/);
    expect(mailboxUrl).toBe(`${studioUrl}/mailbox`);
    expect(fs.existsSync(path.join(dataDir, "platform.db"))).toBe(true);
    expect((await fetch(`${platformUrl}/_local/health`)).status).toBe(200);
  });

  it("runs a plain @wix/sdk app against it: a visitor's query, then the demo member's login", async () => {
    const { code, stdout, stderr } = await runApp({ LOCAL_PLATFORM_URL: platformUrl });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const steps = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(steps).toEqual([
      { step: "visitor query", titles: ["Arch Spur", "Cedar Creek Path", "Falls Overlook"] },
      { step: "login", loginState: "SUCCESS" },
      { step: "member", loggedIn: true, loginEmail: DEMO_MEMBER.email, nickname: DEMO_MEMBER.nickname },
    ]);
    // The platform answered those calls itself: its request log has them, with the callers' roles.
    const { requests } = (await (await fetch(`${studioUrl}/api/requests`)).json()) as { requests: LoggedRequest[] };
    expect(requests.find((entry) => entry.path === "/wix-data/v2/items/query")?.caller).toBe("visitor");
    expect(requests.find((entry) => entry.path === "/members/v1/members/my")?.caller).toBe("member");
  });

  it("refuses a platform address that is not one", async () => {
    const { code, stderr } = await runApp({ LOCAL_PLATFORM_URL: "ftp://nowhere" });
    expect(code).not.toBe(0);
    expect(stderr).toContain("LOCAL_PLATFORM_URL must be the local platform's http(s) address");
  });
});
