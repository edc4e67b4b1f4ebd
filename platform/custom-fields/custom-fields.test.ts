import { createClient } from "@wix/sdk";
import { authorization, badgesV2, badgeAssignments, customFieldApplications, customFields, customFieldSuggestions, memberRoleDefinition } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInThroughHostedPage, type SiteClient } from "../identity/test-browser";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { refusalWithData, siteOwnerClient, startTestPlatform, type TestPlatform } from "../testing";

// `@wix/members` customFields, customFieldApplications and customFieldSuggestions through the
// real client (docs/platform/custom-fields.md).

const modules = { customFields, customFieldApplications, customFieldSuggestions, memberRoleDefinition, authorization, badgesV2, badgeAssignments };
let platform: TestPlatform;
let admin: ReturnType<typeof adminClient>;
let dana: ReturnType<typeof asMember>;

const adminClient = (apiKey: string) => siteOwnerClient(apiKey, modules);
const asMember = (client: SiteClient) => createClient({ modules, auth: client.auth });

const listedNames = async () => ((await admin.customFields.listCustomFields()).fields ?? []).map((field) => field.name);

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = adminClient(platform.config.apiKey);
  dana = asMember((await signInThroughHostedPage(platform.callbackUrl)).client);
});
afterAll(() => platform.close());

describe("customFields", () => {
  it("creates fields with a key from the name, private text by default, social ones in their own section", async () => {
    const trail = await admin.customFields.createCustomField({ name: "Favourite trail" });
    expect(trail).toMatchObject({
      name: "Favourite trail",
      key: "custom.favourite-trail",
      fieldType: "TEXT",
      socialType: "UNKNOWN",
      defaultPrivacy: "PRIVATE",
      fieldOrigin: "CUSTOM",
      appliesTo: "ALL_MEMBERS",
      section: "GENERAL",
      revision: "1",
    });
    expect(trail._createdDate).toBeInstanceOf(Date);
    const insta = await admin.customFields.createCustomField({ name: "Instagram", fieldType: "SOCIAL", socialType: "INSTAGRAM", defaultPrivacy: "PUBLIC" });
    expect(insta).toMatchObject({ section: "SOCIAL", socialType: "INSTAGRAM", defaultPrivacy: "PUBLIC" });
    await admin.customFields.createCustomField({ name: "Hikes this year", fieldType: "NUMBER" });
    expect((await admin.customFields.createCustomField({ name: "Favourite trail" })).key).toBe("custom.favourite-trail-2");
    expect(await listedNames()).toEqual(["Favourite trail", "Hikes this year", "Favourite trail", "Instagram"]);
    const listed = await admin.customFields.listCustomFields({ paging: { limit: 2, offset: 1 } });
    expect(listed.metadata).toMatchObject({ count: 2, offset: 1, total: 4 });
  });

  it("refuses an UNKNOWN type or privacy and a social type that does not fit, with the typed data", async () => {
    expect(await refusalWithData(admin.customFields.createCustomField({ name: "X", fieldType: "UNKNOWN" }))).toMatchObject({
      status: 400,
      code: "INCORRECT_FIELD_TYPE",
      data: { incorrectType: "UNKNOWN", correctType: "TEXT" },
    });
    expect(await refusalWithData(admin.customFields.createCustomField({ name: "X", defaultPrivacy: "UNKNOWN" }))).toMatchObject({
      code: "INCORRECT_FIELD_PRIVACY",
    });
    expect(await refusalWithData(admin.customFields.createCustomField({ name: "X", fieldType: "SOCIAL" }))).toMatchObject({
      code: "INVALID_FIELD_SOCIAL_TYPE",
      data: { invalidSocialType: "UNKNOWN" },
    });
    expect(await refusalWithData(admin.customFields.createCustomField({ name: "X", socialType: "TIKTOK" }))).toMatchObject({
      code: "INVALID_FIELD_SOCIAL_TYPE",
    });
  });

  it("updates the name and privacy with the current revision; the type stays", async () => {
    const [trail] = (await admin.customFields.listCustomFields()).fields ?? [];
    const updated = await admin.customFields.updateCustomField(trail._id!, { name: "Favourite walk", defaultPrivacy: "PUBLIC", revision: "1" });
    expect(updated).toMatchObject({ name: "Favourite walk", defaultPrivacy: "PUBLIC", key: "custom.favourite-trail", revision: "2" });
    expect(await refusalWithData(admin.customFields.updateCustomField(trail._id!, { name: "Stale", revision: "1" }))).toMatchObject({
      status: 409,
      code: "INVALID_REVISION",
    });
    expect(await refusalWithData(admin.customFields.updateCustomField(trail._id!, { fieldType: "DATE", revision: "2" }))).toMatchObject({
      code: "INCORRECT_FIELD_TYPE",
      data: { incorrectType: "DATE", correctType: "TEXT" },
    });
  });

  it("reorders a section, hides and deletes fields with their revision", async () => {
    const general = ((await admin.customFields.listCustomFields()).fields ?? []).filter((field) => field.section === "GENERAL");
    const { fields: ordered, section } = await admin.customFields.updateCustomFieldsOrder([general[2]._id!], { section: "GENERAL" });
    expect(section).toBe("GENERAL");
    expect(ordered?.map((field) => field.key)).toEqual(["custom.favourite-trail-2", "custom.favourite-trail", "custom.hikes-this-year"]);
    await admin.customFields.hideCustomField(general[1]._id!, "1");
    expect(await listedNames()).toEqual(["Favourite trail", "Favourite walk", "Instagram"]);
    expect((await admin.customFields.getCustomField(general[1]._id!)).field?.name).toBe("Hikes this year");
    expect(await refusalWithData(admin.customFields.deleteCustomField(general[0]._id!, "1"))).toMatchObject({ status: 409, code: "INVALID_REVISION" });
    await admin.customFields.deleteCustomField(general[0]._id!, "2");
    expect(await refusalWithData(admin.customFields.getCustomField(general[0]._id!))).toMatchObject({ status: 404, code: "NOT_FOUND" });
  });

  it("is the site owner's alone", async () => {
    expect(await refusalWithData(dana.customFields.listCustomFields())).toMatchObject({ status: 403, code: "PERMISSION_DENIED" });
    expect(await refusalWithData(dana.customFields.createCustomField({ name: "Mine" }))).toMatchObject({ status: 403, code: "PERMISSION_DENIED" });
  });
});

describe("customFieldSuggestions", () => {
  it("suggests the hidden fields, to bring back", async () => {
    const { suggestions, metadata } = await admin.customFieldSuggestions.listCustomFieldSuggestions();
    expect(suggestions).toEqual([
      expect.objectContaining({ name: "Hikes this year", fieldType: "NUMBER", fieldOrigin: "CUSTOM", customFieldId: expect.any(String) }),
    ]);
    expect(metadata).toMatchObject({ total: 1 });
    expect((await admin.customFieldSuggestions.queryCustomFieldSuggestions().eq("fieldType", "TEXT").find()).items).toEqual([]);
    const numbers = await admin.customFieldSuggestions.queryCustomFieldSuggestions().eq("fieldType", "NUMBER").find();
    expect(numbers.items.map((suggestion) => suggestion.name)).toEqual(["Hikes this year"]);
    expect(await refusalWithData(dana.customFieldSuggestions.listCustomFieldSuggestions())).toMatchObject({ status: 403 });
  });
});

describe("customFieldApplications", () => {
  it("narrows a field to members with a role or badge, or named, less exclusions; deleting it widens it again", async () => {
    const danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    const rowanId = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
    const { role } = await admin.memberRoleDefinition.createMemberRoleDefinition("GUIDE", { roleTitle: "Guide" });
    await admin.authorization.assignRole(danaId, "GUIDE");
    const badge = await admin.badgesV2.createBadge({ title: "Founder", backgroundColor: "#000000", textColor: "#FFFFFF" });
    await admin.badgeAssignments.createBadgeAssignment({ badgeId: badge._id!, memberId: rowanId });
    const [walk] = ((await admin.customFields.listCustomFields()).fields ?? []).filter((field) => field.key === "custom.favourite-trail-2");

    const created = await admin.customFieldApplications.createCustomFieldApplication({
      customFieldId: walk._id!,
      applications: { items: [{ applicationType: "ROLE", entityId: role!._id! }] },
    });
    expect(created).toMatchObject({ customFieldId: walk._id, customFieldKey: "custom.favourite-trail-2", revision: "1" });
    expect((await admin.customFields.getCustomField(walk._id!)).field?.appliesTo).toBe("SELECTED_MEMBERS");

    const appliesTo = async () =>
      ((await admin.customFieldApplications.getMembersCustomFieldApplications([danaId, rowanId])).results ?? []).map((result) => [
        result.memberId,
        result.applications?.find((application) => application.customFieldKey === "custom.favourite-trail-2")?.applies,
      ]);
    expect(await appliesTo()).toEqual([
      [danaId, true],
      [rowanId, false],
    ]);
    await admin.customFieldApplications.updateCustomFieldApplication(walk._id!, {
      applications: {
        items: [
          { applicationType: "BADGE", entityId: badge._id! },
          { applicationType: "MEMBER", entityId: danaId },
        ],
      },
      exclusions: { items: [{ exclusionType: "MEMBER", entityId: danaId }] },
      revision: "1",
    });
    expect(await appliesTo()).toEqual([
      [danaId, false],
      [rowanId, true],
    ]);
    const byRole = await admin.customFieldApplications.getRolesCustomFieldApplications([role!._id!]);
    expect(byRole.results?.[0].applications?.find((a) => a.customFieldKey === "custom.favourite-trail-2")?.applies).toBe(false);
    expect((await admin.customFieldApplications.getCustomFieldApplications([walk._id!])).applications).toHaveLength(1);
    expect(
      await refusalWithData(admin.customFieldApplications.updateCustomFieldApplication(walk._id!, { applications: { items: [] }, revision: "1" })),
    ).toMatchObject({
      status: 409,
      code: "INVALID_REVISION",
    });

    await admin.customFieldApplications.deleteCustomFieldApplication(walk._id!);
    expect(await refusalWithData(admin.customFieldApplications.getCustomFieldApplication(walk._id!))).toMatchObject({ status: 404 });
    expect(await appliesTo()).toEqual([
      [danaId, true],
      [rowanId, true],
    ]);
    expect(await refusalWithData(dana.customFieldApplications.getCustomFieldApplications([walk._id!]))).toMatchObject({ status: 403 });
  });
});
