import { describe, expect, it } from "vitest";
import { plainText } from "@/lib/wix/reshape";

describe("plainText", () => {
  it("keeps words apart at block tags and together across inline ones", () => {
    expect(plainText("<p>Start <strong>early</strong>.</p><p>Carry&nbsp;water &amp; a map.</p>")).toBe("Start early. Carry water & a map.");
  });

  it("reads a list as one sentence: items separated by commas, a full stop after the last", () => {
    const html = "<p>Updated for <strong>offline maps</strong>.</p><ul><li>Navigation</li><li>Headlamp</li>\n<li>Sun protection</li></ul><p>Then go.</p>";
    expect(plainText(html)).toBe("Updated for offline maps. Navigation, Headlamp, Sun protection. Then go.");
  });
});
