/**
 * Why the platform does not answer a function of the installed clients, one entry per function
 * the walk finds unanswered (client-coverage.test.ts fails on a function with neither an answer
 * nor an entry, and on an entry for a function that is answered or no longer installed).
 *
 * - `offline`: needs something that exists only on Wix (its dashboard, other sites, Wix accounts).
 * - `business`: part of a Wix business solution (Stores, Bookings, Events, Pricing Plans).
 * - `superseded`: an older API whose acts the platform answers through the newer one named.
 * - `missing`: belongs with a member site or a headless app on data and members, and is not
 *   answered yet: work to do, said as such.
 */
export type ReasonKind = "offline" | "business" | "superseded" | "missing";
export type Reason = { kind: ReasonKind; why: string };

const catalogPlugin: Reason = {
  kind: "business",
  why: "The Catalog plugin ties a collection to Wix Stores' catalog.",
};
const externalDatabase: Reason = {
  kind: "offline",
  why: "An external database is reached through an adapter that Wix's servers call; the local platform keeps every collection in its own database.",
};
const sharing: Reason = {
  kind: "offline",
  why: "Sharing a collection between the sites of one Wix account needs those other sites.",
};
const legacyAuthentication = (instead: string): Reason => ({
  kind: "superseded",
  why: `The older Members Authentication API (wix-sm); answered through ${instead}.`,
});
const appInstallFlow: Reason = {
  kind: "offline",
  why: "The legacy app-install flow: the code and the refresh token come from Wix's installer page on wix.com.",
};

export const REASONS: Record<string, Reason> = {
  "@wix/data collections.addCatalogPlugin": catalogPlugin,
  "@wix/data collections.deleteCatalogPlugin": catalogPlugin,
  "@wix/data externalDatabaseConnections.createExternalDatabaseConnection": externalDatabase,
  "@wix/data externalDatabaseConnections.deleteExternalDatabaseConnection": externalDatabase,
  "@wix/data externalDatabaseConnections.getExternalDatabaseConnection": externalDatabase,
  "@wix/data externalDatabaseConnections.listExternalDatabaseConnections": externalDatabase,
  "@wix/data externalDatabaseConnections.updateExternalDatabaseConnection": externalDatabase,
  "@wix/data sharing.bulkGetSharedCollectionStats": sharing,
  "@wix/data sharing.connectToSharedCollection": sharing,
  "@wix/data sharing.createDataSharingPolicy": sharing,
  "@wix/data sharing.deleteDataSharingPolicy": sharing,
  "@wix/data sharing.disconnectFromSharedCollection": sharing,
  "@wix/data sharing.getDataSharingPolicy": sharing,
  "@wix/data sharing.listDataSharingPolicies": sharing,
  "@wix/data sharing.listSharedDataCollections": sharing,
  "@wix/data sharing.updateDataSharingPolicy": sharing,
  // Webhook events not sent (webhooks/events.ts sends the rest): shared collections cannot exist offline.
  "@wix/data sharing.onDataSharingPolicyCreated": sharing,
  "@wix/data sharing.onDataSharingPolicyDeleted": sharing,
  "@wix/data sharing.onDataSharingPolicySharedCollectionConnected": sharing,
  "@wix/data sharing.onDataSharingPolicySharedCollectionDisconnected": sharing,
  "@wix/data sharing.onDataSharingPolicyUpdated": sharing,

  "@wix/members authentication.approve": legacyAuthentication("members.approveMember"),
  "@wix/members authentication.block": legacyAuthentication("members.blockMember"),
  "@wix/members authentication.changeLoginEmail": legacyAuthentication("members.updateMember (loginEmail)"),
  "@wix/members authentication.login": legacyAuthentication("@wix/identity authentication.loginV2 and OAuthStrategy.login"),
  "@wix/members authentication.register": legacyAuthentication("@wix/identity authentication.registerV2 and OAuthStrategy.register"),
  "@wix/members authentication.sendSetPasswordEmail": legacyAuthentication("@wix/identity recovery.sendRecoveryEmail"),
  "@wix/members userMember.queryUserMembers": {
    kind: "offline",
    why: "Pairs members with the Wix users (accounts on wix.com) who manage the site; there are no Wix accounts offline.",
  },

  "@wix/sdk AppStrategy({instanceId}).handleOAuthCallback": appInstallFlow,
  "@wix/sdk AppStrategy({accessToken}).handleOAuthCallback": appInstallFlow,
  "@wix/sdk AppStrategy({refreshToken}).handleOAuthCallback": appInstallFlow,
  "@wix/sdk AppStrategy({refreshToken}).getAuthHeaders": appInstallFlow,
  "@wix/sdk AppStrategy({accessToken}).getAuthHeaders": {
    kind: "offline",
    why: "The strip_bound_session grant unbinds a token that Wix's dashboard hands to an app's extension; that dashboard does not exist offline.",
  },
};
