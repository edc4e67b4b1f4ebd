import { parseWithZod } from "@conform-to/zod/v4";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { changePasswordSchema, deleteAccountSchema, profileSchema, slugSchema } from "@/lib/account/forms";
import { loadSession } from "@/lib/auth/session-store";
import { forgotPasswordSchema, loginSchema, registerSchema, verifySchema } from "@/lib/auth/forms";
import { withSession } from "@/lib/auth/middleware";
import { filterParam, listHref, parseListState, parsePageParam, type SearchParams } from "@/lib/search-params";
import { memberOutings, siteCollections, type CollectionConfig } from "@/lib/site-config";
import { aMemberSession, jarWithSession } from "./support/cookie-jar";

/**
 * Property-based tests: whatever arrives from a URL, a form or a cookie, the parsers answer
 * with a valid value or a message, and never throw. Bounded runs (docs/operations.md has the
 * figures); a failure prints the seed and the smallest input that fails.
 */
const RUNS = 300;

/** Text as hostile clients send it: any code points, escapes, separators, very long values. */
const anyText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "%",
    "%E0%A4%A",
    "-0",
    "1e308",
    "NaN",
    "Infinity",
    "2024-02-30",
    "2024-02-29",
    "__proto__",
    "constructor",
    "yes",
    "no",
    "[]",
    "{}",
    "\u0000",
  ),
  fc.integer({ min: -1_000_000, max: 2_000_000 }).map(String),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  fc.string({ maxLength: 5000, minLength: 200 }),
);

function parameterNames(collection: CollectionConfig): string[] {
  return [
    "page",
    "q",
    "sort",
    "size",
    ...collection.filters.flatMap((filter) => [filterParam.values(filter.field), filterParam.from(filter.field), filterParam.to(filter.field)]),
  ];
}

function searchParamsFor(collection: CollectionConfig) {
  const known = parameterNames(collection);
  const optionValues = collection.filters.flatMap((filter) => ("options" in filter ? [...filter.options] : []));
  const sortIds = collection.sorts.map((sort) => sort.id);
  const value = fc.oneof(anyText, fc.constantFrom(...optionValues, ...sortIds, ...collection.pageSizes.map(String), "1", "2"));
  return fc.dictionary(
    fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 12 })),
    fc.oneof(value, fc.array(value, { maxLength: 4 }), fc.constant(undefined)),
    { maxKeys: 12 },
  );
}

/** What Next.js hands a page for a query string. */
function paramsOf(href: string): SearchParams {
  const params: SearchParams = {};
  for (const [name, value] of new URL(href, "http://site").searchParams) {
    const existing = params[name];
    params[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return params;
}

describe("list pages' search parameters", () => {
  for (const collection of [...siteCollections, memberOutings]) {
    it(`/${collection.route}: never throw, always a valid state (or 404 for a bad page), and the state's URL reads back as the same state`, () => {
      fc.assert(
        fc.property(searchParamsFor(collection), (params) => {
          const state = parseListState(collection, params);
          if (state === null) {
            expect(parsePageParam(params.page)).toBeNull();
            return;
          }
          expect(Number.isInteger(state.page) && state.page >= 1).toBe(true);
          expect(state.query.length).toBeLessThanOrEqual(100);
          expect(state.query).toBe(state.query.trim());
          expect(collection.sorts).toContain(state.sort);
          expect(collection.pageSizes).toContain(state.pageSize);
          for (const filter of state.filters) {
            const config = collection.filters.find((candidate) => candidate.field === filter.field)!;
            expect(config).toBeDefined();
            if (filter.kind === "values") for (const value of filter.values) expect("options" in config && config.options).toContain(value);
            if (filter.kind === "range") {
              expect(filter.from !== undefined || filter.to !== undefined).toBe(true);
              for (const bound of [filter.from, filter.to]) if (typeof bound === "number") expect(Number.isFinite(bound)).toBe(true);
            }
          }
          expect(parseListState(collection, paramsOf(listHref(collection, state)))).toEqual(state);
        }),
        { numRuns: RUNS },
      );
    });
  }
});

/** Form field names as the forms send them, list rows included, and stray ones. */
const fieldNames = (names: string[]) => fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 10 }));
function formDataFrom(names: string[]) {
  const value = fc.oneof(anyText, fc.constant("on"));
  return fc.array(fc.tuple(fieldNames(names), value), { maxLength: 20 }).map((entries) => {
    const data = new FormData();
    for (const [name, text] of entries) data.append(name, text);
    return data;
  });
}

/** Every error is a non-empty message on a field the form has (or on the form as a whole). */
function expectFieldMessages(schema: z.ZodType, names: string[], data: FormData) {
  const submission = parseWithZod(data, { schema });
  if (submission.status === "success") return;
  const fieldRoots = new Set(names.map((name) => name.replace(/[[.].*$/, "")));
  for (const [path, messages] of Object.entries(submission.error ?? {})) {
    expect(path === "" || fieldRoots.has(path.replace(/[[.].*$/, "")), `error on ${path}`).toBe(true);
    for (const message of messages ?? []) expect(message.trim().length).toBeGreaterThan(0);
  }
  // The reply the action sends back never throws either, and never echoes a hidden password.
  const reply = submission.reply({ hideFields: ["password", "currentPassword", "newPassword", "confirmPassword"] });
  expect(JSON.stringify(reply.initialValue ?? {})).not.toMatch(/"(password|currentPassword|newPassword|confirmPassword)"/);
}

const forms: Array<[string, z.ZodType, string[]]> = [
  ["login", loginSchema, ["email", "password", "returnTo", "captchaToken"]],
  ["register", registerSchema, ["email", "password", "firstName", "lastName", "nickname", "publicProfile", "returnTo", "captchaToken"]],
  ["verify", verifySchema, ["code"]],
  ["forgot password", forgotPasswordSchema, ["email"]],
  [
    "profile",
    profileSchema,
    [
      "nickname",
      "publicProfile",
      "title",
      "firstName",
      "lastName",
      "photoUrl",
      "emails[0]",
      "emails[1]",
      "phones[0]",
      "phones[7]",
      "addresses[0].city",
      "addresses[0].country",
      "addresses[2].postalCode",
      "customFields[0].key",
      "customFields[0].value",
      "emails",
      "addresses",
    ],
  ],
  ["profile address", slugSchema, ["slug"]],
  ["password change", changePasswordSchema, ["currentPassword", "newPassword", "confirmPassword"]],
  ["account deletion", deleteAccountSchema, ["confirm"]],
];

describe("auth and account form parsers", () => {
  for (const [name, schema, names] of forms) {
    it(`${name}: any form data gives a value or field messages, never an exception`, () => {
      fc.assert(
        fc.property(formDataFrom(names), (data) => expectFieldMessages(schema, names, data)),
        { numRuns: RUNS },
      );
    });
  }
});

describe("the session cookie", () => {
  const session = aMemberSession();
  const reader = (value: string) => ({
    get: (name: string) => (name === "wms_session" ? { value } : undefined),
    getAll: () => [{ name: "wms_session", value }],
  });

  it("unseals any value without throwing: anything but the site's own seal is a visitor", async () => {
    const sealed = (await jarWithSession(session)).get("wms_session")!;
    // Within the sealed part: iron-session's `~2` version suffix after it is outside the seal's
    // signature, and iron-session 9 ignores it (`~`, `~2 ` still open the intact seal), which forges nothing.
    const sealEnd = sealed.lastIndexOf("~");
    const mutated = fc
      .tuple(fc.nat({ max: sealEnd - 1 }), fc.string({ minLength: 1, maxLength: 3 }))
      .map(([at, text]) => sealed.slice(0, at) + text + sealed.slice(at + 1))
      .filter((value) => value !== sealed);
    const lookalike = fc.string({ maxLength: 200 }).map((tail) => `Fe26.2*${tail}`);
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyText, mutated, lookalike, fc.constant(sealed.slice(0, sealEnd - 1))), async (value) => {
        const { session: read } = await loadSession(reader(value));
        expect(read).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });

  it("middleware answers any cookie value with the page, never an error", async () => {
    const cookieSafe = fc.string({ unit: fc.constantFrom(..."abcXYZ019*~-_.!+/=%"), maxLength: 300 });
    await fc.assert(
      fc.asyncProperty(cookieSafe, async (value) => {
        const response = await withSession(new NextRequest("http://localhost:3000/trails", { headers: { cookie: `wms_session=${value}` } }));
        expect(response.status).toBe(200);
      }),
      { numRuns: RUNS },
    );
  });
});
