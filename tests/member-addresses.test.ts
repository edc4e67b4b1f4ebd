import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileSchema } from "@/lib/account/forms";
import { COUNTRY_CODES, countryName, countryOptions } from "@/lib/countries";
import { sessionClient } from "@/lib/wix/client";
import { currentProfile, toProfile, updateProfile, type PostalAddress, type ProfileChanges } from "@/lib/wix/members";
import { LOCAL_CLIENT_ID } from "@/platform/config";
import { DEMO_MEMBER } from "@/platform/seed/seed";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

/**
 * A member's postal addresses: one street line, the apartment, and a country chosen from a list,
 * from the account form to the platform and back; addresses saved the older way keep every part.
 */

const address: PostalAddress = {
  addressLine: "12 Cedar Road",
  apt: "Flat 3B",
  city: "Keswick",
  subdivision: "Cumbria",
  postalCode: "CA12 5AB",
  country: "GB",
};

const form = (addresses: unknown[]) => profileSchema.safeParse({ nickname: "Dana", addresses });

describe("reading addresses", () => {
  it("puts a street number and name on the street line, and an apartment kept with them on the second", () => {
    const profile = toProfile({
      _id: "m",
      contact: { addresses: [{ streetAddress: { number: "1", name: "High St", apt: "Flat 2" }, addressLine2: "Rear entrance", city: "Ely", country: "gb" }] },
    });
    expect(profile.addresses).toEqual([
      { addressLine: "1 High St", apt: "Flat 2, Rear entrance", city: "Ely", subdivision: "", postalCode: "", country: "GB" },
    ]);
  });

  it("keeps both a line and a street address the platform held together, and says a repeated part once", () => {
    const read = (raw: object) => toProfile({ _id: "m", contact: { addresses: [raw] } }).addresses[0];
    expect(read({ addressLine: "Old Mill House", streetAddress: { number: "4", name: "Mill Lane" } }).addressLine).toBe("Old Mill House, 4 Mill Lane");
    expect(read({ addressLine: "4 Mill Lane", streetAddress: { number: "4", name: "Mill Lane" } }).addressLine).toBe("4 Mill Lane");
    expect(read({ addressLine2: "Flat 2", streetAddress: { apt: "Flat 2" } }).apt).toBe("Flat 2");
    expect(read({ streetAddress: { apt: 7 } }).apt).toBe("");
  });
});

describe("the address form", () => {
  it("takes one street line, the apartment and a country code from the list", () => {
    expect(form([address]).data?.addresses).toEqual([address]);
    expect(form([{ apt: "3B", country: "NZ" }]).data?.addresses).toEqual([
      { addressLine: "", apt: "3B", city: "", subdivision: "", postalCode: "", country: "NZ" },
    ]);
    expect(form([{ ...address, apt: "x".repeat(201) }]).success).toBe(false);
  });

  it("asks for the country of an address with anything in it, refuses one not on the list, and drops blank rows", () => {
    const issues = (addresses: unknown[]) => form(addresses).error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues([{ city: "Ely" }])).toEqual([["addresses.0.country", "Choose the country of this address."]]);
    expect(issues([{}, { ...address, country: "UK" }])).toEqual([["addresses.1.country", "Choose the country from the list."]]);
    expect(issues([{ ...address, country: "gb" }])).toEqual([["addresses.0.country", "Choose the country from the list."]]);
    expect(form([{}, { addressLine: " ", country: "" }]).data?.addresses).toEqual([]);
  });

  it("offers every ISO country by its English name, in order of the names", () => {
    const options = countryOptions();
    expect(options).toHaveLength(COUNTRY_CODES.length);
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(options.find((option) => option.code === "GB")?.name).toBe("United Kingdom");
    const names = options.map((option) => option.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en-GB")));
    expect(names.every((name, index) => name !== options[index].code)).toBe(true);
    expect(countryName("de")).toBe("Germany");
  });
});

describe("on the local platform", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it("saves the form's address through @wix/members and reads it back the same; an address saved the older way loses nothing", async () => {
    const id = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    const client = sessionClient(platform.ctx.tokens.issuePair({ role: "member", subjectId: id, clientId: LOCAL_CLIENT_ID }).accessToken);
    const before = await currentProfile(client);
    // What the account page's form submits: the profile as it shows it, through the form's schema.
    const submitted = (addresses: unknown[]): ProfileChanges => profileSchema.parse({ nickname: before.nickname, publicProfile: !before.isPrivate, addresses });
    expect((await updateProfile(client, id, submitted([address]))).addresses).toEqual([address]);
    expect((await currentProfile(client)).addresses).toEqual([address]);

    // An address from before the form changed: number and name, apartment in the street address, a second line.
    await client.members.updateMember(id, {
      contact: {
        addresses: [
          {
            streetAddress: { number: "12", name: "Cedar Road", apt: "3B" } as { number: string; name: string },
            addressLine2: "Rear entrance",
            city: "Keswick",
            country: "GB",
            postalCode: "CA12 5AB",
          },
        ],
      },
    });
    const older = (await currentProfile(client)).addresses;
    expect(older).toEqual([
      { addressLine: "12 Cedar Road", apt: "3B, Rear entrance", city: "Keswick", subdivision: "", postalCode: "CA12 5AB", country: "GB" },
    ]);
    // Saved again unchanged from the form, it is stored as a line and a second line, and reads the same.
    expect((await updateProfile(client, id, submitted(older))).addresses).toEqual(older);
    const { member } = await client.members.getCurrentMember({ fieldsets: ["FULL"] });
    expect(member?.contact?.addresses?.[0]).toMatchObject({ addressLine: "12 Cedar Road", addressLine2: "3B, Rear entrance" });
    expect(member?.contact?.addresses?.[0]?.streetAddress).toBeUndefined();
  });
});
