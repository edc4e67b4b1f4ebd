"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { PREWARM_STORAGE_KEY, prewarmDue } from "@/lib/auth/prewarm-schedule";
import { AUTH_ROUTES } from "@/lib/auth/routes";

/**
 * Asks the site for the pre-warm URL and loads it in a hidden frame; resolves when the frame has
 * loaded, with false when there was no session to pre-warm: a 401 says the platform had ended it
 * and the site has now ended it too.
 */
async function prewarm(): Promise<boolean> {
  const response = await fetch(AUTH_ROUTES.prewarm, { method: "POST" });
  if (response.status === 401) return false;
  const { url } = (await response.json().catch(() => ({}))) as { url?: string | null };
  if (!url) throw new Error("No redirect URL found");
  const frame = document.createElement("iframe");
  frame.hidden = true;
  frame.title = "Session pre-warm";
  frame.src = url;
  await new Promise((resolve) => {
    frame.onload = resolve;
    document.body.append(frame);
  });
  frame.remove();
  return true;
}

/**
 * Signs a member's browser in on the platform's own pages too, so pages hosted there share the
 * session (the SDK's `sessions.syncToWixPages`): at most once per 7 days, remembered in this
 * browser; a failure is only logged, as the SDK does, and tried again on a later page. A session
 * found ended is not one: the page is rendered again, so the header stops naming the member at once.
 */
export function SessionPrewarm() {
  const router = useRouter();
  useEffect(() => {
    if (!prewarmDue(localStorage.getItem(PREWARM_STORAGE_KEY), Date.now())) return;
    localStorage.removeItem(PREWARM_STORAGE_KEY);
    prewarm()
      .then((prewarmed) => (prewarmed ? localStorage.setItem(PREWARM_STORAGE_KEY, String(Date.now())) : router.refresh()))
      .catch((error: unknown) => console.error("Error during redirect session pre-warm:", error));
  }, [router]);
  return null;
}
