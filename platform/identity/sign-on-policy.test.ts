import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk";
import { signOnPolicy } from "@wix/identity";
import { LOCAL_CLIENT_ID } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";

/** `signOnPolicy.getSignOnPolicy` and `updateSignOnPolicy` through the real client: the site owner's sign-up settings. */

let platform: TestPlatform;
const admin = () => createClient({ modules: { signOnPolicy }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });

beforeAll(async () => {
  platform = await startTestPlatform();
  platform.ctx.settings.update({ requireEmailVerification: false, requireOwnerApproval: false });
});
afterAll(() => platform.close());

describe("the sign-on policy", () => {
  it("answers the site's sign-up requirements", async () => {
    const { signOnPolicy: policy } = await admin().signOnPolicy.getSignOnPolicy();
    expect(policy).toMatchObject({ requireOwnerApproval: false, requireEmailVerification: false });
    expect(policy?._id).toBeTruthy();
    expect(policy?._updatedDate).toBeInstanceOf(Date);
  });

  it("changes only the requirements sent, for the platform's sign-up too", async () => {
    const before = (await admin().signOnPolicy.getSignOnPolicy()).signOnPolicy!;
    const updated = await admin().signOnPolicy.updateSignOnPolicy({ requireOwnerApproval: true });
    expect(updated).toMatchObject({ requireOwnerApproval: true, requireEmailVerification: false });
    expect(Number(updated.revision)).toBeGreaterThan(Number(before.revision));
    expect(platform.ctx.settings.get()).toMatchObject({ requireOwnerApproval: true, requireEmailVerification: false });
    // A change made elsewhere (the Studio, /_local/settings) shows in the policy.
    platform.ctx.settings.update({ requireEmailVerification: true });
    expect((await admin().signOnPolicy.getSignOnPolicy()).signOnPolicy).toMatchObject({ requireOwnerApproval: true, requireEmailVerification: true });
  });

  it("refuses a value that is not true or false as INVALID_ARGUMENT", async () => {
    const failure = await admin()
      .signOnPolicy.updateSignOnPolicy({ requireOwnerApproval: "yes" as never })
      .catch((error: unknown) => error as { details?: { validationError?: { fieldViolations?: { field?: string }[] } } });
    expect(failure).toMatchObject({ details: { validationError: { fieldViolations: [{ field: "signOnPolicy.requireOwnerApproval" }] } } });
  });

  it("refuses a visitor's token", async () => {
    const visitor = createClient({ modules: { signOnPolicy }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    await expect(visitor.signOnPolicy.getSignOnPolicy()).rejects.toMatchObject({ details: { applicationError: { code: "PERMISSION_DENIED" } } });
    await expect(visitor.signOnPolicy.updateSignOnPolicy({ requireOwnerApproval: false })).rejects.toMatchObject({
      details: { applicationError: { code: "PERMISSION_DENIED" } },
    });
    expect(platform.ctx.settings.get().requireOwnerApproval).toBe(true);
  });
});
