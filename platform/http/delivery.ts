/**
 * Calls the platform makes to someone else's server (the site's revalidation webhook, apps'
 * webhooks): one POST per attempt, tried again on silence or a 5xx after the given waits.
 */

export type DeliveryTiming = {
  /** Waits between attempts when the receiver does not answer 2xx; then the call is given up. */
  retryDelaysMs: number[];
  /** Each attempt's time limit. */
  timeoutMs: number;
};

export type Delivery = { ok: true } | { ok: false; failure: string };

type Attempt = { ok: true } | { ok: false; retry: boolean; failure: string };

/** One attempt. A refusal (4xx: a wrong signature, a receiver switched off) is final; no answer or a 5xx is worth another try. */
async function post(url: string, request: { body: string; headers: Record<string, string> }, timeoutMs: number): Promise<Attempt> {
  try {
    const response = await fetch(url, { method: "POST", ...request, signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    if (response.ok) return { ok: true };
    return { ok: false, retry: response.status >= 500, failure: `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, retry: true, failure: error instanceof Error ? error.message : String(error) };
  }
}

/** Posts until the receiver takes it or the retries run out; `request` is called per attempt, so each can be signed afresh. */
export async function deliver(url: string, request: () => { body: string; headers: Record<string, string> }, timing: DeliveryTiming): Promise<Delivery> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await post(url, request(), timing.timeoutMs);
    if (outcome.ok) return outcome;
    if (!outcome.retry || attempt >= timing.retryDelaysMs.length) return { ok: false, failure: outcome.failure };
    await new Promise((resolve) => setTimeout(resolve, timing.retryDelaysMs[attempt]));
  }
}
