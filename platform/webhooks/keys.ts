import { createPublicKey, type KeyObject } from "node:crypto";
import { localWebhookKey, signWixEvent, type WixEventEnvelope } from "@ridgeline/platform-contract";

export { WEBHOOK_KEY_FILE } from "@ridgeline/platform-contract";

/**
 * The platform's webhook signing key: an RSA pair made once per data folder and kept there, so
 * the public key an app was given stays valid across restarts. Wix signs its webhooks with its own
 * key and apps check them with Wix's public key; here the platform plays Wix's part.
 */
export class WebhookKeys {
  private key: KeyObject | null = null;

  constructor(private readonly dataDir: string) {}

  private privateKey(): KeyObject {
    this.key ??= localWebhookKey(this.dataDir);
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

  /** One event's webhook body for an app, signed now. */
  signEvent(appId: string, event: WixEventEnvelope): string {
    return signWixEvent(this.privateKey(), appId, event);
  }
}
