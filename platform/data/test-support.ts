import { createClient, OAuthStrategy } from "@wix/sdk";
import { items, collections, permissions } from "@wix/data";
import { LOCAL_CLIENT_ID } from "../config";
import type { TestPlatform } from "../testing";

/** Test support for the data contract suites: fixture collections and member clients. */

export type Role = "ADMIN" | "CMS_EDITOR" | "SITE_MEMBER_AUTHOR" | "SITE_MEMBER" | "ANYONE";

export function memberClient(platform: TestPlatform, memberId: string) {
  const tokens = platform.ctx.tokens.issuePair({ role: "member", subjectId: memberId, clientId: LOCAL_CLIENT_ID });
  return createClient({
    modules: { items, collections, permissions },
    auth: OAuthStrategy({
      clientId: LOCAL_CLIENT_ID,
      tokens: {
        accessToken: { value: tokens.accessToken, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
        refreshToken: { value: tokens.refreshToken, role: "member" as never },
      },
    }),
  });
}

export async function createCollection(
  platform: TestPlatform,
  id: string,
  fields: { key: string; type: string; typeMetadata?: Record<string, unknown> }[],
  permissions: { read: Role; insert: Role; update: Role; remove: Role },
) {
  return platform.adminClient().collections.createDataCollection({
    _id: id,
    displayName: id,
    fields: fields.map((f) => ({ ...f, displayName: f.key })) as never,
    permissions: permissions as never,
  });
}

/** Ids of the items a call returned, sorted, for order-independent comparisons. */
export const idsOf = (list: { _id?: string }[]) => list.map((item) => item._id as string).sort();

type Failure = { message: string; status?: number; code?: string; details?: { applicationError?: { code?: string } } };

/** The error a call was rejected with; fails the test when it resolved. */
export async function failureOf(promise: Promise<unknown>): Promise<Failure> {
  try {
    await promise;
  } catch (error) {
    return error as Failure;
  }
  throw new Error("expected the call to be rejected");
}

/** The WDE code of a rejected data call (a 413 surfaces as a WixDataError with `code` and no details). */
export async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const failure = await failureOf(promise);
  return failure.details?.applicationError?.code ?? failure.code;
}

/** Collection calls the installed module exports but leaves out of its public typings: the plugins' own calls and restore. */
export type UntypedCollectionCall =
  | "addPublishPlugin"
  | "deletePublishPlugin"
  | "addDraftItemsPlugin"
  | "deleteDraftItemsPlugin"
  | "addUrlizedPlugin"
  | "deleteUrlizedPlugin"
  | "addMultilingualPlugin"
  | "deleteMultilingualPlugin"
  | "addCmsPlugin"
  | "deleteCmsPlugin"
  | "restoreDataCollection";
export const untypedCollectionCalls = (client: { collections: object }) =>
  client.collections as unknown as Record<UntypedCollectionCall, (...args: unknown[]) => Promise<{ dataCollection?: { _id?: string; plugins?: unknown } }>>;
