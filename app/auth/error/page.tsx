import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { tooManyAttemptsMessage } from "@/lib/auth/forms";
import { safeReturnTo } from "@/lib/auth/return-to";
import { loginHref } from "@/lib/auth/routes";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "Sign-in problem" };

const messages = {
  missing: "The sign-in response was incomplete, so we could not finish signing you in.",
  state: "This sign-in link has expired or was already used. Sign-ins are valid for ten minutes and only once.",
  denied: "Signing in was cancelled or refused.",
  direct: "Your sign-in could not be completed: it may have taken too long. Please log in again.",
  exchange: "We could not complete your sign-in. The sign-in code may have expired.",
  unavailable: "The sign-in service is not reachable right now.",
  "too-many": tooManyAttemptsMessage(15 * 60),
} as const;

const params = z.object({
  reason: z.enum(Object.keys(messages) as [keyof typeof messages]).catch("missing"),
  returnTo: z.string().optional().catch(undefined),
  retryAfter: z.coerce.number().int().min(1).max(86_400).optional().catch(undefined),
});

export default async function SignInProblemPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { reason, returnTo, retryAfter } = params.parse(await searchParams);
  const target = safeReturnTo(returnTo, getConfig().siteUrl.origin);
  return (
    <section className="mx-auto max-w-lg py-20 text-center">
      <h1 className="font-serif text-3xl font-semibold text-pine-900">We couldn&apos;t sign you in</h1>
      <p className="mt-3 text-stone-600">{reason === "too-many" && retryAfter ? tooManyAttemptsMessage(retryAfter) : messages[reason]}</p>
      <div className="mt-8 flex justify-center gap-4">
        <a href={loginHref(target)} className="rounded-lg bg-pine-700 px-5 py-2.5 font-medium text-white hover:bg-pine-600">
          Try again
        </a>
        <Link href={target} className="rounded-lg border border-stone-300 px-5 py-2.5 font-medium text-stone-700 hover:bg-white">
          Continue as a visitor
        </Link>
      </div>
    </section>
  );
}
