import { createHmac, timingSafeEqual } from "node:crypto";
import { generatedSecret } from "@ridgeline/platform-contract";
import type { PlatformConfig } from "../config";

/** Where this platform's files are downloaded and uploaded, each with a capability URL. */
export const FILES_PATH = "/_local/data-mover/files";

export type FilePurpose = "upload" | "download";

/** An upload URL works as long as its file waits for the upload; a download URL for a day. */
export const URL_TTL_MS: Record<FilePurpose, number> = { upload: 15 * 60 * 1000, download: 24 * 60 * 60 * 1000 };

/**
 * Upload and download URLs are capabilities, as on the hosted platform: the URL itself carries a
 * signed, expiring token for one file and one purpose, so a client PUTs or GETs it with no other
 * credential (docs/platform/data.md §17). The token is in the URL on purpose; it opens that one
 * file for that one use, for a while, and nothing else.
 */
export class FileUrls {
  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  private mac(fileId: string, purpose: FilePurpose, expires: number): string {
    return createHmac("sha256", this.secret).update(`${purpose}:${fileId}:${expires}`).digest("base64url");
  }

  url(origin: string, fileId: string, purpose: FilePurpose): string {
    const expires = Math.ceil((this.now() + URL_TTL_MS[purpose]) / 1000);
    return `${origin}${FILES_PATH}/${encodeURIComponent(fileId)}?${new URLSearchParams({ token: `${expires}.${this.mac(fileId, purpose, expires)}` })}`;
  }

  /** Whether a token opens this file for this purpose now; anything malformed does not. */
  allows(fileId: string, purpose: FilePurpose, token: unknown): boolean {
    const match = typeof token === "string" ? /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token) : null;
    if (!match) return false;
    const expires = Number(match[1]);
    if (expires * 1000 <= this.now()) return false;
    const expected = Buffer.from(this.mac(fileId, purpose, expires));
    const given = Buffer.from(match[2]);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** The file that holds the signing secret, generated once in the data folder (the CLI and the server share it). */
const SECRET_FILE = "file-url-secret";

export function fileUrlsFor(config: Pick<PlatformConfig, "dataDir">): FileUrls {
  return new FileUrls(generatedSecret(config.dataDir, SECRET_FILE));
}
