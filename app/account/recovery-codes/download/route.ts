import { cookies } from "next/headers";
import { NextResponse } from "next/server";
import { keptRecoveryCodes } from "@/lib/account/recovery-codes-store";
import { RECOVERY_CODES_PATH } from "@/lib/auth/cookie-names";
import { getSession } from "@/lib/auth/request-session";
import { getConfig } from "@/lib/config";
import { siteName } from "@/lib/site-config";

/**
 * The recovery codes on their page, as a text file: works without script. A POST from that page,
 * which reads the codes from their sealed cookie (sent only to this path), so they never appear in
 * an address; the answer is never stored. Without codes to give, back to the page, which says why.
 */
export async function POST() {
  const session = await getSession();
  const kept = await keptRecoveryCodes(await cookies(), session?.member?.id);
  if (!kept) return NextResponse.redirect(new URL(RECOVERY_CODES_PATH, getConfig().siteUrl), 303);
  const text = [
    `${siteName}: your recovery codes (${getConfig().siteUrl.host})`,
    "Each one logs you in once, in place of your second step.",
    "",
    ...kept.codes,
    "",
  ].join("\n");
  return new NextResponse(text, {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": 'attachment; filename="recovery-codes.txt"',
      "cache-control": "no-store",
    },
  });
}
