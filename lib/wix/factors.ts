import "server-only";
import { z } from "zod";
import { SECOND_FACTOR_TYPES, type SecondFactorType } from "./identity";
import { platformCall } from "./platform-fetch";

/**
 * A member's second factors (two-step sign-in), on the platform's factors endpoint: the
 * installed SDK has no call for enrolling one, so these are plain calls with the member's token.
 */
export type SecondFactor = { id: string; type: SecondFactorType; phone: string | null };

const factorShape = z.object({ factorId: z.string(), type: z.string(), phone: z.string().optional() });

function toSecondFactor(factor: z.infer<typeof factorShape>): SecondFactor | null {
  const type = SECOND_FACTOR_TYPES.find((known) => known === factor.type);
  return type ? { id: factor.factorId, type, phone: factor.phone ?? null } : null;
}

const FACTORS_PATH = "/_api/iam/factors/v1/factors";

/** The member's second factors; any the site does not know (an authenticator app set up elsewhere) are left out. */
export async function mySecondFactors(accessToken: string): Promise<SecondFactor[]> {
  const reply = z.object({ factors: z.array(factorShape) }).parse(await platformCall(FACTORS_PATH, { method: "GET", accessToken }));
  return reply.factors.map(toSecondFactor).filter((factor): factor is SecondFactor => factor !== null);
}

/** Turns a second factor on: codes by e-mail to the login address, or by text message to `phone`. */
export async function turnOnSecondFactor(accessToken: string, factor: { type: "EMAIL" } | { type: "SMS"; phone: string }): Promise<void> {
  await platformCall(FACTORS_PATH, { accessToken, body: { factor } });
}

export async function turnOffSecondFactor(accessToken: string, factorId: string): Promise<void> {
  await platformCall(`${FACTORS_PATH}/${encodeURIComponent(factorId)}`, { method: "DELETE", accessToken });
}
