import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../testing";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
  const send = (to: string, subject: string) => platform.ctx.outbox.send({ to, subject, text: subject, kind: "verification" });
  send("robin.alder@ridgeline.example", "To Robin");
  send("Rowan@Ridgeline.example", "To Rowan");
  send("dana@elsewhere.example", "To Dana");
  send("+447700900123", "A text");
});
afterAll(() => platform.close());

const subjects = async (to?: string) => {
  const query = to === undefined ? "" : `?to=${encodeURIComponent(to)}`;
  const answer = await platform.app.inject({ url: `/_local/studio/api/mailbox${query}` });
  return (answer.json() as { messages: { subject: string }[] }).messages.map((message) => message.subject);
};

describe("the Studio's mailbox filter", () => {
  it("finds the messages to every address or number with the words anywhere in it, in any case", async () => {
    expect(await subjects()).toEqual(["A text", "To Dana", "To Rowan", "To Robin"]);
    expect(await subjects("robin.alder@ridgeline.example")).toEqual(["To Robin"]);
    expect(await subjects("ridgeline")).toEqual(["To Rowan", "To Robin"]);
    expect(await subjects(" RO")).toEqual(["To Rowan", "To Robin"]);
    expect(await subjects("7700")).toEqual(["A text"]);
    expect(await subjects("nobody")).toEqual([]);
  });

  it("leaves the platform's own look-up of one address exact", () => {
    expect(platform.ctx.outbox.list("ridgeline").map((mail) => mail.subject)).toEqual([]);
    expect(platform.ctx.outbox.list("rowan@ridgeline.example").map((mail) => mail.subject)).toEqual(["To Rowan"]);
  });
});
