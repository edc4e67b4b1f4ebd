import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { checkActionBody } from "@/lib/security/request-guard";

/**
 * The server refuses a server action's arguments that React could not decode (Next.js would
 * answer 500), and must never refuse what the browser really sends: so the well-formed cases
 * are encoded by the same React client the site's pages run (the copy inside Next.js).
 */
const { encodeReply } = createRequire(import.meta.url)("next/dist/compiled/react-server-dom-turbopack/client.browser.js") as {
  encodeReply: (value: unknown) => Promise<string | FormData>;
};

const ACTION = "40" + "1f".repeat(20);
const OTHER_BUILD_ACTION = "40" + "ab".repeat(20);
/** A form action: `useActionState` calls it with the previous state and the form's data. */
const FORM_ACTION = "60" + "2e".repeat(20);
const actions = { ids: new Set([ACTION, FORM_ACTION]), formActionIds: new Set([FORM_ACTION]) };

/** A script's call, as the browser sends it: a text body when the arguments need no other part, multipart otherwise. */
async function call(encoded: string | FormData, action = ACTION) {
  const body = new Response(encoded);
  const headers = new Headers({ "next-action": action, "content-type": body.headers.get("content-type")! });
  return checkActionBody(headers, Buffer.from(await body.arrayBuffer()), actions);
}

/** A stream of these chunks, as a page could pass one to an action. */
const streamOf = (chunks: unknown[]) =>
  new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

/** A multipart body with its parts in this order, as a client other than the browser could send it. */
function multipart(parts: [string, string][]) {
  const form = new FormData();
  for (const [name, value] of parts) form.append(name, value);
  return form;
}

describe("the arguments of a script's server-action call", () => {
  it("passes whatever the browser's encoder writes", async () => {
    const form = new FormData();
    form.set("email", "dana@example.com");
    form.set("$note", "$starts with a dollar");
    const shared = { a: 1 };
    const cases: unknown[][] = [
      [],
      [{ route: "trails", query: "difficulty=hard", page: 2 }],
      [{ status: "idle", errors: null }, form],
      [shared, shared, new Map([["k", shared]]), new Set([1, 2])],
      [new Date(0), 10n, -5n, "$dollar", undefined, Number.NaN, -Infinity, -0],
      [Promise.resolve({ again: shared }), new Uint8Array([1, 2, 3]), new Blob(["x"])],
      [{ deep: { deeper: { deepest: [[[["bottom"]]]] } } }],
      [
        streamOf(["a", { b: 1 }]),
        streamOf([new Uint8Array([1])]),
        (async function* () {
          yield 1;
          yield "two";
        })(),
      ],
      Array.from({ length: 1000 }, (_, index) => index),
    ];
    for (const args of cases)
      expect(
        await call(await encodeReply(args)),
        JSON.stringify(args, (_, value) => String(value)),
      ).toBe("pass");
  });

  it.each<[string, string | FormData]>([
    ["an empty body", ""],
    ["arguments that are not JSON", '["$K1",{"a":'],
    ["a root that is no list of arguments", '"hello"'],
    ["more arguments than Next.js takes (1,000)", JSON.stringify(Array(1001).fill(0))],
    ["nesting deeper than React's decoder survives", "[".repeat(5000) + "]".repeat(5000)],
    ["a reference to a part the body lacks", '["$1"]'],
    ["a Map made of a part the body lacks", '["$Q1"]'],
    ["a server function in a part the body lacks", '["$h1"]'],
    ["a BigInt that is no number", '["$nxyz"]'],
    ["a tag React does not know", '["$Z"]'],
    ["a Blob the body lacks", '["$B1"]'],
    ["a typed array the body lacks", '["$o1"]'],
    ["a multipart body without its root part", multipart([["1", "[]"]])],
    [
      "a part that is not JSON",
      multipart([
        ["1", "{"],
        ["0", '["$1"]'],
      ]),
    ],
    ["a stream that is the root", '["$R0"]'],
    ["one stream passed twice", '["$R1","$X1"]'],
    [
      "a stream whose part is named as a value too",
      multipart([
        ["1", "[]"],
        ["0", '["$1","$x1"]'],
      ]),
    ],
    [
      "a stream's chunks for a part that is no stream",
      multipart([
        ["1", "[]"],
        ["0", '["$1"]'],
        ["S1", "1"],
      ]),
    ],
    [
      "chunks for the root",
      multipart([
        ["0", '["$R1"]'],
        ["S0", "1"],
      ]),
    ],
    [
      "a part sent twice",
      multipart([
        ["1", "[]"],
        ["0", '["$1"]'],
        ["1", "[]"],
      ]),
    ],
    [
      "a part numbered with a leading zero",
      multipart([
        ["1", "[]"],
        ["0", '["$1"]'],
        ["01", "[]"],
      ]),
    ],
    [
      "a Map made of a list whose entries are not pairs",
      multipart([
        ["1", "[1,2]"],
        ["0", '["$Q1"]'],
      ]),
    ],
    [
      "a Map made of something other than a list",
      multipart([
        ["1", '{"a":1}'],
        ["0", '["$Q1"]'],
      ]),
    ],
    [
      "one list made into two Maps",
      multipart([
        ["1", "[]"],
        ["0", '["$Q1","$Q1"]'],
      ]),
    ],
    [
      "a path into a part that leads nowhere",
      multipart([
        ["1", '{"a":1}'],
        ["0", '["$1:b:c"]'],
      ]),
    ],
    [
      "a part named before the body carries it",
      multipart([
        ["0", '["$Q1"]'],
        ["1", "[]"],
      ]),
    ],
    [
      "a server function of another build",
      multipart([
        ["1", `{"id":"${OTHER_BUILD_ACTION}","bound":null}`],
        ["0", '["$h1"]'],
      ]),
    ],
  ])("refuses %s with 400", async (_, encoded) => {
    expect(await call(encoded)).toEqual({ status: 400, message: "Bad request." });
  });
});

/** A no-JavaScript form's post: multipart, naming its action in a field. */
async function formPost(fields: [string, string][]) {
  const body = new Response(multipart(fields));
  return checkActionBody(new Headers({ "content-type": body.headers.get("content-type")! }), Buffer.from(await body.arrayBuffer()), actions);
}

/** A form with the previous state bound, as React renders a `useActionState` form for a page without JavaScript. */
const boundForm = (bound: string | null, boundParts: [string, string][] = []): [string, string][] => [
  ["$ACTION_REF_1", ""],
  ["$ACTION_1:0", JSON.stringify({ id: FORM_ACTION, bound })],
  ...boundParts.map(([name, value]): [string, string] => [`$ACTION_1:${name}`, value]),
  ["$ACTION_KEY", "k1"],
  ["email", "dana@example.com"],
];

describe("a form action's arguments: the previous state, then the form's data", () => {
  it("passes a script's call as useActionState makes it, and a no-JavaScript form with the state bound", async () => {
    const form = new FormData();
    form.set("email", "dana@example.com");
    expect(await call(await encodeReply([{ status: "idle" }, form]), FORM_ACTION)).toBe("pass");
    expect(await formPost(boundForm("$@1", [["1", '[{"status":"idle"}]']]))).toBe("pass");
  });

  it.each<[string, string]>([
    ["no arguments", "[]"],
    ["the state alone", '[{"status":"idle"}]'],
    ["something other than the form's data", '["$undefined",5]'],
    ["two objects", "[{},{}]"],
    ["a third argument", '[{},"$K1",3]'],
  ])("refuses a script's call with %s (the action would throw: Next.js's 500)", async (_, encoded) => {
    expect(await call(encoded, FORM_ACTION)).toEqual({ status: 400, message: "Bad request." });
  });

  it.each<[string, [string, string][]]>([
    ["names it with no state bound", [[`$ACTION_ID_${FORM_ACTION}`, ""]]],
    ["binds nothing", boundForm("$@1", [["1", "[]"]])],
    ["binds no list", boundForm("$@1", [["1", '{"status":"idle"}']])],
    ["binds two arguments", boundForm("$@1", [["1", "[{},{}]"]])],
    ["binds null", boundForm(null)],
  ])("refuses a no-JavaScript form that %s", async (_, fields) => {
    expect(await formPost(fields)).toEqual({ status: 400, message: "Bad request." });
  });
});
