import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { requireSiteOwner } from "../http/site-owner";
import { invalidPrivacySettings, invalidRevision, parseWith } from "../http/errors";
import { type DefaultPrivacy, MemberPrivacyStore, type PrivacySettings } from "./store";

/**
 * `@wix/members` `defaultPrivacy` (`/members/v1/default-privacy-status`) and
 * `memberPrivacySettings` (`/members/v1/privacy-settings`), docs/platform/member-privacy.md:
 * the site owner reads and sets them with a revision; anyone may read the privacy settings.
 */

// Revisions are int64, which the clients carry as strings.
const revisionSchema = z.union([z.string().regex(/^\d{1,15}$/, "a revision is a whole number"), z.number().int().nonnegative()]).transform(String);

const defaultPrivacyRequest = z.object({
  defaultPrivacy: z.object({ defaultPrivacy: z.enum(["PRIVATE", "PUBLIC"]).optional(), revision: revisionSchema }),
});

const settingsRequest = z.object({
  memberPrivacySettings: z.object({
    publicMemberVisibility: z.enum(["UNKNOWN", "VISIBLE_TO_MEMBERS_ONLY", "VISIBLE_TO_ALL"]).optional(),
    publicMemberCandidates: z.enum(["UNKNOWN", "NO_ONE", "ANYONE"]).optional(),
    revision: revisionSchema,
  }),
});

const defaultPrivacyWire = ({ id, defaultPrivacy, revision }: DefaultPrivacy) => ({ defaultPrivacy: { id, defaultPrivacy, revision: String(revision) } });

const settingsWire = ({ id, publicMemberVisibility, publicMemberCandidates, revision, updatedAt }: PrivacySettings) => ({
  memberPrivacySettings: {
    id,
    publicMemberVisibility,
    publicMemberCandidates,
    revision: String(revision),
    ...(updatedAt !== null && { updatedDate: new Date(updatedAt).toISOString() }),
  },
});

export function registerMemberPrivacyRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const privacy = new MemberPrivacyStore(ctx.db);
  const requireAdmin = (request: FastifyRequest, action: string) => requireSiteOwner(ctx.callerOf(request), action);

  // getDefaultPrivacyStatus() → {defaultPrivacy: {id, defaultPrivacy, revision}}
  app.get("/members/v1/default-privacy-status", async (request) => {
    requireAdmin(request, "getDefaultPrivacyStatus");
    return defaultPrivacyWire(privacy.defaultPrivacy());
  });

  // setDefaultPrivacyStatus({defaultPrivacy, revision}) → {defaultPrivacy}: the privacy new members start with.
  app.patch("/members/v1/default-privacy-status", async (request) => {
    requireAdmin(request, "setDefaultPrivacyStatus");
    const { defaultPrivacy, revision } = parseWith(defaultPrivacyRequest, request.body).defaultPrivacy;
    const result = privacy.setDefaultPrivacy(defaultPrivacy === undefined ? {} : { defaultPrivacy }, Number(revision));
    if (result === "stale") throw invalidRevision(revision);
    return defaultPrivacyWire(result);
  });

  // getMemberPrivacySettings() → {memberPrivacySettings}: for anyone, as the site reads it to know what to show.
  app.get("/members/v1/privacy-settings", async () => settingsWire(privacy.settings()));

  // setMemberPrivacySettings({publicMemberVisibility, publicMemberCandidates, revision}) → {memberPrivacySettings}
  app.post("/members/v1/privacy-settings", async (request) => {
    requireAdmin(request, "setMemberPrivacySettings");
    const { publicMemberVisibility, publicMemberCandidates, revision } = parseWith(settingsRequest, request.body).memberPrivacySettings;
    if (publicMemberVisibility === "UNKNOWN" || publicMemberCandidates === "UNKNOWN") {
      throw invalidPrivacySettings({ publicMemberVisibility, publicMemberCandidates });
    }
    const values = {
      ...(publicMemberVisibility && { publicMemberVisibility }),
      ...(publicMemberCandidates && { publicMemberCandidates }),
    };
    const result = privacy.setSettings(values, Number(revision));
    if (result === "stale") throw invalidRevision(revision);
    return settingsWire(result);
  });
}
