import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { htmlEscapeJsonString } from "next/dist/shared/lib/htmlescape.js";
import { describe, expect, it } from "vitest";
import { documentFlight, flightRows } from "@/server/page-cache/flight";
import { fillTemplate, fillableName, makeTemplate, newPlaceholders, type MemberTemplate } from "@/server/page-cache/member-template";
import { inlineScriptHashes } from "@/server/page-cache/page";

const placeholders = newPlaceholders();
const secrets = ["template-id", "template-access", "template-refresh"];

/** The header as React writes it for this name and initial. */
const header = (name: string, initial: string) =>
  renderToStaticMarkup(
    createElement(
      Fragment,
      null,
      createElement("span", { "aria-hidden": true }, initial),
      createElement("span", { "data-testid": "member-name", title: name }, name),
    ),
  );

/** A Flight row holding the member menu's props, as React's Flight writes it (JSON). */
const row = (name: string, initial: string) => `1:["$","span",null,{"children":${JSON.stringify(initial)}}]\n2:{"name":${JSON.stringify(name)}}\n`;
/** A document as Next.js writes one: the HTML, then the payload in `self.__next_f.push` scripts, split where the stream was. */
const push = (chunk: string) => `<script>self.__next_f.push(${htmlEscapeJsonString(JSON.stringify([1, chunk]))})</script>`;
const document = (name: string, initial: string) =>
  "<!DOCTYPE html><html><head><title>Trails</title></head><body>" +
  header(name, initial) +
  "<script>(self.__next_f=self.__next_f||[]).push([0])</script>" +
  push('0:{"b":"build"}\n') +
  push(row(name, initial)) +
  "</body></html>";

const usable = (made: ReturnType<typeof makeTemplate>): MemberTemplate => {
  if ("unusable" in made) throw new Error(made.unusable);
  return made;
};
const page = (body: string, kind: "document" | "rsc" = "document", headers = {}) => ({ kind, body: Buffer.from(body, "utf8"), headers });

const NAMES = ["Dana", `Ro "wan" <b>&amp;</b> O'Neil \\ back`, "Zoë\u2028née\u2029 </script><script>alert(1)</script>", "😀 Smiley", "Ä"];

describe("a member template", () => {
  const template = usable(makeTemplate(page(document(placeholders.name, placeholders.initial)), placeholders, secrets));

  it("filled in is byte for byte the page rendered for the member, in HTML, attributes and the inlined payload, escaped twice there", () => {
    for (const name of NAMES) {
      const expected = document(name, name.slice(0, 1));
      const { body } = fillTemplate(template, name);
      // As bytes, as sent: a lone half of a surrogate pair (the initial of "😀") goes out as U+FFFD either way.
      expect(body.toString("utf8"), name).toBe(Buffer.from(expected, "utf8").toString("utf8"));
      expect(flightRows(documentFlight(body.toString("utf8"))).map((row) => JSON.parse(row.data))).toEqual([
        { b: "build" },
        ["$", "span", null, { children: name.slice(0, 1) }],
        { name },
      ]);
    }
  });

  it("comes with the hashes of every inline script as filled in, the changed ones recomputed", () => {
    for (const name of NAMES) {
      const { scriptHashes } = fillTemplate(template, name);
      expect(new Set(scriptHashes), name).toEqual(new Set(inlineScriptHashes(document(name, name.slice(0, 1)))));
    }
    // Only the script that holds the placeholders changed.
    expect(template.fixedHashes).toHaveLength(2);
  });

  it("fills a client-side navigation's payload (RSC) row by row", () => {
    const rsc = usable(makeTemplate(page(`0:{"b":"build"}\n${row(placeholders.name, placeholders.initial)}`, "rsc"), placeholders, secrets));
    for (const name of NAMES) {
      const expected = `0:{"b":"build"}\n${row(name, name.slice(0, 1))}`;
      expect(fillTemplate(rsc, name).body.toString("utf8")).toBe(expected);
      expect(flightRows(fillTemplate(rsc, name).body).map((row) => JSON.parse(row.data))).toEqual([
        { b: "build" },
        ["$", "span", null, { children: name.slice(0, 1) }],
        { name },
      ]);
    }
  });

  it("is unusable when a placeholder stands where it cannot be filled safely, or the template member's secrets show", () => {
    const { name, initial } = placeholders;
    const body = document(name, initial);
    const unusable = (made: ReturnType<typeof makeTemplate>) => ("unusable" in made ? made.unusable : "usable");
    const cases: Array<[string, ReturnType<typeof makeTemplate>, RegExp]> = [
      ["title", makeTemplate(page(body.replace("<title>Trails", `<title>${name}`)), placeholders, secrets), /<title>/],
      ["URL", makeTemplate(page(body.replace("<body>", `<body><a href="/members/${name}">me</a>`)), placeholders, secrets), /href/],
      ["script", makeTemplate(page(body.replace("</body>", `<script>var me="${name}"</script></body>`)), placeholders, secrets), /not Flight text/],
      [
        "text row",
        makeTemplate(page(body.replace(push('0:{"b":"build"}\n'), push(`0:T${(name.length + 2).toString(16)},a ${name}`))), placeholders, secrets),
        /length-prefixed/,
      ],
      [
        "split",
        makeTemplate(
          page(
            body.replace(
              push(row(name, initial)),
              push(row(name, initial).slice(0, row(name, initial).indexOf(name) + 5)) + push(row(name, initial).slice(row(name, initial).indexOf(name) + 5)),
            ),
          ),
          placeholders,
          secrets,
        ),
        /split/,
      ],
      [
        "binary",
        makeTemplate(
          page(
            body.replace(
              push(row(name, initial)),
              `<script>self.__next_f.push(${JSON.stringify([3, Buffer.from(row(name, initial)).toString("base64")])})</script>`,
            ),
          ),
          placeholders,
          secrets,
        ),
        /split|binary/,
      ],
      ["header", makeTemplate(page(body, "document", { "x-name": name }), placeholders, secrets), /header/],
      ["secret", makeTemplate(page(body.replace("<body>", "<body>template-id")), placeholders, secrets), /id or tokens/],
      ["rsc text row", makeTemplate(page(`0:T${(name.length + 2).toString(16)},a ${name}1:"x"\n`, "rsc"), placeholders, secrets), /length-prefixed/],
    ];
    for (const [label, made, reason] of cases) expect(unusable(made), label).toMatch(reason);
    // A page with no placeholder at all is a template too (the same for every member).
    expect(unusable(makeTemplate(page(document("Someone", "S")), placeholders, secrets))).toBe("usable");
  });

  it("takes placeholders nobody can guess, new in every process, and names that React's Flight writes as they are", () => {
    const other = newPlaceholders();
    expect(other.name).not.toBe(placeholders.name);
    expect(placeholders.name).toMatch(/^Member[a-zA-Z]{24}$/);
    expect(fillableName("Dana")).toBe(true);
    expect(fillableName("$money")).toBe(false);
    expect(fillableName("")).toBe(false);
  });
});
