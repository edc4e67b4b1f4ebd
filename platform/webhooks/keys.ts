import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** The file in the data folder that keeps the key webhooks are signed with (docs/platform/webhooks.md §2). */
export const WEBHOOK_KEY_FILE = "webhook-signing-key.pem";

const base64url = (text: string) => Buffer.from(text).toString("base64url");

/**
 * The platform's webhook signing key: an RSA pair made once per data folder and kept there, so
 * the public key an app was given stays valid across restarts. Wix signs its webhooks with its own
 * key and apps check them with Wix's public key; here the platform plays Wix's part.
 */
export class WebhookKeys {
  private key: KeyObject | null = null;

  constructor(private readonly dataDir: string) {}

  private privateKey(): KeyObject {
    if (this.key) return this.key;
    const file = path.join(this.dataDir, WEBHOOK_KEY_FILE);
    if (!fs.existsSync(file)) {
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      fs.mkdirSync(this.dataDir, { recursive: true });
      try {
        // `wx`: when two processes on one folder race, the first key written is the one both keep.
        fs.writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }), { flag: "wx", mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
    this.key = createPrivateKey(fs.readFileSync(file, "utf8"));
    return this.key;
  }

  /** The public key as PEM (SPKI), what `AppStrategy({ publicKey })` takes. */
  publicKeyPem(): string {
    return createPublicKey(this.privateKey()).export({ type: "spki", format: "pem" }).toString();
  }

  /** The same key on one line (base64 of the PEM), fit for `WIX_CLIENT_PUBLIC_KEY`; the SDK decodes either form. */
  publicKeyBase64(): string {
    return Buffer.from(this.publicKeyPem()).toString("base64");
  }

  /** A compact JWS signed with RS256, the form Wix's webhook bodies take. */
  signJwt(claims: Record<string, unknown>): string {
    const input = `${base64url(JSON.stringify({ alg: "RS256", typ: "JWT" }))}.${base64url(JSON.stringify(claims))}`;
    return `${input}.${sign("sha256", Buffer.from(input), this.privateKey()).toString("base64url")}`;
  }
}
