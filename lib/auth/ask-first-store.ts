import { z } from "zod";
import { ASK_FIRST_WAYS, type AskFirstWay } from "./ask-first";
import { askFirstCookieName } from "./cookie-names";
import { type CookieReader, type CookieWriter, cookieOptions, seal, unseal } from "./cookie-sealing";
import { memberKey } from "./device-store";

// "Ask first for" (ask-first.ts): each member's choice on this browser, by a digest of their login
// e-mail, as the remembered devices are. Not secret, but sealed: a value the site did not write is ignored.

/** A year: a choice stays until changed; the browser caps a cookie's life near there anyway. */
const ASK_FIRST_TTL_SECONDS = 365 * 24 * 60 * 60;
/** Members with a choice on one browser at most; the oldest goes first. */
const MAX_MEMBERS = 5;

const choicesSchema = z.object({
  choices: z.array(z.object({ member: z.string().max(64), way: z.enum(ASK_FIRST_WAYS) })).max(MAX_MEMBERS),
});

const readChoices = async (cookies: CookieReader) =>
  (await unseal(cookies.get(askFirstCookieName())?.value, ASK_FIRST_TTL_SECONDS, choicesSchema))?.choices ?? [];

/** The way the member with this login e-mail asked, on this browser, to be asked for first; none for "whichever the login offers first". */
export async function askFirstChoice(cookies: CookieReader, email: string): Promise<AskFirstWay | undefined> {
  const key = memberKey(email);
  return (await readChoices(cookies)).find((choice) => choice.member === key)?.way;
}

/** Keeps the member's choice on this browser (none: forgets it), in place of any earlier one. */
export async function chooseAskFirst(reader: CookieReader, writer: CookieWriter, email: string, way: AskFirstWay | undefined): Promise<void> {
  const key = memberKey(email);
  const others = (await readChoices(reader)).filter((choice) => choice.member !== key);
  const choices = [...others, ...(way ? [{ member: key, way }] : [])].slice(-MAX_MEMBERS);
  writer.set(askFirstCookieName(), await seal({ choices }, ASK_FIRST_TTL_SECONDS), cookieOptions("/", ASK_FIRST_TTL_SECONDS));
}
