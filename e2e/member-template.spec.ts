import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { documentFlight } from "../server/page-cache/flight";
import { inlineScriptHashes } from "../server/page-cache/page";
import { accountMenuSummary, logOut, openMenu } from "./header-menus";
import { hydrated } from "./hydration";
import { ADMIN_KEY, demoMember, platformRequests, secondDemoMember } from "./platform";
import { watchPolicy } from "./policy-watch";
import { navigationRequest, resolvedFlight } from "./rsc";
import { MemberClient, type Member } from "./member-client";
import { logInWithForm } from "./site-pages";
import { e2e } from "../playwright.config";

/**
 * Members' views of shared pages answered from a template (docs/performance.md, "Members'
 * pages"): the same page Next.js renders for the member, their name filled in, under a policy
 * that lets it hydrate; personal pages still rendered by Next.js for each member.
 */

/** The pages whose content depends only on "a member is signed in". */
const SHARED_PAGES = ["/", "/trails", "/trails/summit-loop", "/journal", "/regions/high-desert", "/members", "/outings"];
const FROM_TEMPLATE = /^(HIT|MISS|STALE)$/;

/** A document as compared: its HTML without nonces and without the inline scripts' text (the stream splits the payload where it will)… */
const htmlOf = (body: string) => body.replace(/ nonce="[^"]*"/g, "").replace(/(<script\b(?![^>]*\bsrc=)[^>]*>)[\s\S]*?<\/script>/g, "$1</script>");
/** …and the tree the Flight payload those scripts carry stands for. */
const flightOf = (body: string) => resolvedFlight(documentFlight(body));

async function memberIds(): Promise<Record<string, string>> {
  const response = await fetch(`${e2e.platformUrl}/members/v1/members/query`, {
    method: "POST",
    headers: { authorization: ADMIN_KEY, "content-type": "application/json" },
    body: JSON.stringify({ fieldsets: ["FULL"], query: {} }),
  });
  const { members } = (await response.json()) as { members: Array<{ id: string; loginEmail?: string }> };
  return Object.fromEntries(members.map((member) => [member.loginEmail ?? "", member.id]));
}

async function profilePaths(): Promise<string[]> {
  const html = await (await fetch(`${e2e.siteUrl}/members`)).text();
  return [...new Set([...html.matchAll(/href="(\/members\/[a-z0-9-]+)"/g)].map(([, path]) => path))];
}

test.describe.configure({ timeout: 180_000 });

test("the filled template is each member's own render: HTML without nonces and the parsed payload, documents and RSC", async ({ browser }) => {
  const members = [await MemberClient.logIn(browser, demoMember, e2e.siteUrl), await MemberClient.logIn(browser, secondDemoMember, e2e.siteUrl)];
  const pages = [...SHARED_PAGES, ...(await profilePaths()).slice(0, 2)];
  for (const path of pages) {
    for (const client of members) {
      const template = await client.get(path);
      expect(template.cache, `${path} for ${client.member.name}`).toMatch(FROM_TEMPLATE);
      const own = await client.get(path, { viaNext: true });
      expect(own.cache, path).toBe("BYPASS");
      expect(htmlOf(template.body), `${path} for ${client.member.name}`).toBe(htmlOf(own.body));
      expect(flightOf(template.body), `${path} for ${client.member.name}`).toEqual(flightOf(own.body));
      expect(template.body).toContain(`data-testid="member-name"`);
      expect(template.headers.get("cache-control")).toBe("private, no-store");
      // Compressed as the client asks (fetch asks for gzip), like Next.js's own answer.
      expect(template.headers.get("content-encoding")).toBe("gzip");
      // Every inline script as filled in is allowed by the policy sent with it, the changed ones included.
      const policy = template.headers.get("content-security-policy")!;
      for (const hash of inlineScriptHashes(template.body)) expect(policy, path).toContain(`'sha256-${hash}'`);

      const rsc = await navigationRequest(path);
      const templateRsc = await client.get(rsc.url, { headers: rsc.headers });
      expect(templateRsc.cache, `RSC ${path}`).toMatch(FROM_TEMPLATE);
      expect(templateRsc.headers.get("content-type")).toContain("text/x-component");
      const ownRsc = await client.get(rsc.url, { headers: rsc.headers, viaNext: true });
      expect(resolvedFlight(Buffer.from(templateRsc.body)), `RSC ${path} for ${client.member.name}`).toEqual(resolvedFlight(Buffer.from(ownRsc.body)));
    }
  }
});

test("two members browsing the same pages in turn each see their own name and nobody else's id, name or e-mail", async ({ browser }) => {
  const ids = await memberIds();
  const members = [await MemberClient.logIn(browser, demoMember, e2e.siteUrl), await MemberClient.logIn(browser, secondDemoMember, e2e.siteUrl)];
  const visitorPages = new Map<string, string>();
  for (const path of SHARED_PAGES) visitorPages.set(path, await (await fetch(`${e2e.siteUrl}${path}`)).text());
  const before = await platformRequests();
  for (let round = 0; round < 2; round++) {
    for (const path of SHARED_PAGES) {
      for (const [index, client] of members.entries()) {
        const other = members[1 - index].member;
        const seen = await client.get(path);
        expect(seen.cache, path).toMatch(round === 0 ? FROM_TEMPLATE : /^(HIT|STALE)$/);
        expect(seen.body).toContain(
          `data-testid="member-name" class="sr-only max-w-28 truncate min-[360px]:not-sr-only min-[360px]:inline-block">${client.member.name}<`,
        );
        expect(seen.body).not.toContain(other.email);
        expect(seen.body).not.toContain(client.member.email);
        expect(seen.body).not.toMatch(/Member[a-zA-Z]{24}|Initial[a-zA-Z]{24}/);
        // A member's id or name shows only where the page shows it to everyone (the members' directory, their reports).
        for (const shown of [ids[other.email], ids[client.member.email], `>${other.name}<`]) {
          expect(seen.body.includes(shown) ? visitorPages.get(path)!.includes(shown) : true, `${path}: ${shown}`).toBe(true);
        }
      }
    }
  }
  // Warm: a member's page costs the platform nothing (the member's own session is not even asked for).
  const after = await platformRequests();
  expect(Object.entries(after).filter(([call, count]) => count !== (before[call] ?? 0) && !call.includes("oauth2/token"))).toEqual([]);
});

test("the author of a report gets the page with its controls from Next.js; another member the template, without them", async ({ browser }) => {
  const dana = await MemberClient.logIn(browser, demoMember, e2e.siteUrl);
  const rowan = await MemberClient.logIn(browser, secondDemoMember, e2e.siteUrl);
  // Dana wrote a report on Mirror Lakes (the seed).
  expect((await rowan.get("/trails/mirror-lakes")).cache).toMatch(FROM_TEMPLATE);
  const rowansView = await rowan.get("/trails/mirror-lakes");
  expect(rowansView.cache).toBe("HIT");
  expect(rowansView.body).not.toContain(">Edit<");
  const danasView = await dana.get("/trails/mirror-lakes");
  expect(danasView.cache).toBe("BYPASS");
  expect(danasView.body).toContain(">Edit<");
  expect(danasView.body).toContain(`>${demoMember.name}<`);
});

test("a member's own pages (an outing with their RSVP, the account) are kept for their cookies: their own render, shown to nobody else", async ({
  browser,
}) => {
  const dana = await MemberClient.logIn(browser, demoMember, e2e.siteUrl);
  const rowan = await MemberClient.logIn(browser, secondDemoMember, e2e.siteUrl);
  for (const path of ["/outings/family-creek-walk", "/account"]) {
    await dana.get(path);
    const kept = await dana.get(path);
    expect(kept.cache, path).toBe("HIT");
    expect(kept.headers.get("cache-control")).toBe("private, no-store");
    const own = await dana.get(path, { viaNext: true });
    expect(own.cache, path).toBe("BYPASS");
    expect(htmlOf(kept.body), path).toBe(htmlOf(own.body));
    expect(flightOf(kept.body), path).toEqual(flightOf(own.body));
    // Rowan's view of the same page is rendered for him, and holds nothing of Dana's own.
    const rowans = await rowan.get(path);
    expect(rowans.cache, path).toBe("MISS");
    expect(rowans.body).not.toContain(demoMember.email);
  }
  expect((await rowan.get("/account")).body).toContain(secondDemoMember.email);
  expect((await dana.get("/account")).body).toContain(demoMember.email);
  for (const path of ["/member-outings", "/account/profile"]) {
    for (let i = 0; i < 2; i++) expect((await dana.get(path)).cache, path).toBe("BYPASS");
  }
});

test("a change shows on a member's kept pages at their next view: their own from another browser, and another member's", async ({ browser, page }) => {
  const path = "/outings/winter-solstice-lantern-walk";
  const dana = await MemberClient.logIn(browser, demoMember, e2e.siteUrl);
  await dana.get(path);
  expect((await dana.get(path)).cache).toBe("HIT");
  expect((await dana.get("/account")).body).not.toContain("Winter Solstice Lantern Walk");
  expect((await dana.get("/account")).cache).toBe("HIT");

  // Dana joins in another browser of hers: what this one keeps of hers goes.
  await logInWithForm(page, `${e2e.siteUrl}/login`, demoMember);
  await page.goto(path);
  const rsvp = page.getByRole("region", { name: /Join this outing|You're going/ });
  await rsvp.getByRole("button", { name: "Join this outing" }).click();
  await expect(rsvp.getByRole("status")).toHaveText("You're going. See you there!");
  const joined = await dana.get(path);
  expect(joined.cache).toBe("MISS");
  expect(joined.body).toContain("Cancel my place");
  expect((await dana.get("/account")).body).toContain("Winter Solstice Lantern Walk");

  // Rowan joins: the places left on Dana's kept page go down at her next view.
  const placesOf = (body: string) => /(\d+) of \d+ places left/.exec(body)?.[1];
  const before = placesOf((await dana.get(path)).body);
  const rowanPage = await (await browser.newContext()).newPage();
  await logInWithForm(rowanPage, `${e2e.siteUrl}/login`, secondDemoMember);
  await rowanPage.goto(path);
  await rowanPage
    .getByRole("region", { name: /Join this outing|You're going/ })
    .getByRole("button", { name: "Join this outing" })
    .click();
  await expect(rowanPage.getByRole("status")).toHaveText("You're going. See you there!");
  expect(placesOf((await dana.get(path)).body)).toBe(String(Number(before) - 1));

  // Both leave again, for the tests after this one.
  for (const browserPage of [page, rowanPage]) {
    await browserPage.goto(path);
    await browserPage.getByRole("button", { name: "Cancel my place" }).click();
    await expect(browserPage.getByRole("button", { name: "Join this outing" })).toBeVisible();
  }
  expect(placesOf((await dana.get(path)).body)).toBe(String(Number(before) + 1));
});

async function browse(page: Page, member: Member) {
  await expect(page.getByTestId("member-name")).toHaveText(member.name);
}

test("in the browser: the template pages hydrate under their policy, with the member's name and menu; navigation and logout work", async ({ page }) => {
  const violations = await watchPolicy(page);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await logInWithForm(page, undefined, secondDemoMember);
  for (const path of ["/trails", "/journal", "/"]) {
    // The first view may renew the short-lived session (Next.js); the next comes from the template.
    await page.goto(path);
    const response = await page.goto(path);
    expect(response?.headers()["x-cache"], path).toMatch(FROM_TEMPLATE);
    await browse(page, secondDemoMember);
  }
  const menu = await openMenu(await hydrated(accountMenuSummary(page)));
  await expect(menu.getByRole("link", { name: "Account" })).toBeVisible();
  await expect(accountMenuSummary(page)).toContainText("R");
  // A client-side navigation (RSC) keeps the member's header.
  await page.keyboard.press("Escape");
  await page.getByRole("link", { name: "Trails" }).first().click();
  await expect(page).toHaveURL(/\/trails$/);
  await browse(page, secondDemoMember);
  await page.getByTestId("item-card").first().getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await browse(page, secondDemoMember);
  expect(violations()).toEqual([]);
  expect(errors.filter((error) => /hydrat|Content Security Policy/i.test(error))).toEqual([]);
  await logOut(page);
  await expect(page.getByTestId("member-name")).toHaveCount(0);
  const after = await page.goto("/trails");
  expect(after?.headers()["x-cache"]).toMatch(/HIT|MISS/);
  await expect(page.getByTestId("member-name")).toHaveCount(0);
});
