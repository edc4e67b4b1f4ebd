import { describe, expect, it } from "vitest";
import { originMayUseRpId, relyingParty } from "./webauthn-challenge";

describe("relying party: which origins may answer a passkey ceremony", () => {
  it("lets the RP id's own host and its subdomains use it, on https or a localhost name, any port", () => {
    expect(originMayUseRpId("https://ridgeline.example", "ridgeline.example")).toBe(true);
    expect(originMayUseRpId("https://login.ridgeline.example:8443", "ridgeline.example")).toBe(true);
    expect(originMayUseRpId("http://localhost:3311", "localhost")).toBe(true);
    expect(originMayUseRpId("http://auth.localhost:3311", "localhost")).toBe(true);
  });

  it("refuses another host, a look-alike suffix, an IP address for a host name, and plain http away from localhost", () => {
    expect(originMayUseRpId("https://platform.example", "ridgeline.example")).toBe(false);
    expect(originMayUseRpId("https://evilridgeline.example", "ridgeline.example")).toBe(false);
    expect(originMayUseRpId("http://127.0.0.1:3311", "localhost")).toBe(false);
    expect(originMayUseRpId("http://login.ridgeline.example", "ridgeline.example")).toBe(false);
  });

  it("expects the site's origin, and the platform's only when its pages may use the site's RP id", () => {
    const site = { siteUrl: "http://localhost:3000" };
    expect(relyingParty(site, "http://localhost:3311")).toEqual({ rpID: "localhost", origins: ["http://localhost:3000", "http://localhost:3311"] });
    expect(relyingParty(site, "http://127.0.0.1:3311")).toEqual({ rpID: "localhost", origins: ["http://localhost:3000"] });
    expect(relyingParty(site, "http://localhost:3000")).toEqual({ rpID: "localhost", origins: ["http://localhost:3000"] });
    const hosted = { siteUrl: "https://ridgeline.example/" };
    expect(relyingParty(hosted, "https://accounts.ridgeline.example")).toEqual({
      rpID: "ridgeline.example",
      origins: ["https://ridgeline.example", "https://accounts.ridgeline.example"],
    });
    expect(relyingParty(hosted, "https://ridgeline-platform.example")).toEqual({ rpID: "ridgeline.example", origins: ["https://ridgeline.example"] });
  });
});
