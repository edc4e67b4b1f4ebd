import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileSchema } from "@/lib/account/forms";
import { sessionClient } from "@/lib/wix/client";
import { currentProfile, toProfile, updateProfile, type ProfileChanges } from "@/lib/wix/members";
import { LOCAL_CLIENT_ID } from "@/platform/config";
import { DEMO_MEMBER } from "@/platform/seed/seed";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

/** A member's postal addresses, street address and apartment included, from the account form to the platform and back. */

const address = {
  addressLine: "",
  addressLine2: "Rear entrance",
  streetNumber: "12",
  streetName: "Cedar Road",
  apt: "3B",
  city: "Keswick",
  subdivision: "",
  country: "GB",
  postalCode: "CA12 5AB",
};

describe("reading addresses", () => {
  it("takes the apartment from the street address, and gives empty text where a part is missing", () => {
    const profile = toProfile({ _id: "m", contact: { addresses: [{ streetAddress: { number: "1", name: "High St", apt: "Flat 2" }, city: "Ely" }] } });
    expect(profile.addresses).toEqual([
      { addressLine: "", addressLine2: "", streetNumber: "1", streetName: "High St", apt: "Flat 2", city: "Ely", subdivision: "", country: "", postalCode: "" },
    ]);
    expect(toProfile({ _id: "m", contact: { addresses: [{ streetAddress: { apt: 7 } }] } }).addresses[0].apt).toBe("");
  });

  it("the form takes an apartment, and at most 50 characters of it", () => {
    const form = (apt: string) => profileSchema.safeParse({ nickname: "Dana", addresses: [{ apt }] });
    expect(form("3B").data?.addresses).toEqual([{ ...Object.fromEntries(Object.keys(address).map((key) => [key, ""])), apt: "3B" }]);
    expect(form("x".repeat(51)).success).toBe(false);
  });
});

describe("on the local platform", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it("saves the apartment through @wix/members and reads it back, and an apartment alone makes a street address", async () => {
    const id = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    const client = sessionClient(platform.ctx.tokens.issuePair({ role: "member", subjectId: id, clientId: LOCAL_CLIENT_ID }).accessToken);
    const before = await currentProfile(client);
    const changes = (addresses: ProfileChanges["addresses"]): ProfileChanges => ({
      ...before,
      publicProfile: !before.isPrivate,
      firstName: before.firstName ?? "",
      lastName: before.lastName ?? "",
      photoUrl: before.photoUrl ?? "",
      customFields: [],
      addresses,
    });
    expect((await updateProfile(client, id, changes([address]))).addresses).toEqual([address]);
    expect((await currentProfile(client)).addresses).toEqual([address]);
    const aptOnly = { ...address, streetNumber: "", streetName: "" };
    expect((await updateProfile(client, id, changes([aptOnly]))).addresses).toEqual([aptOnly]);
  });
});
