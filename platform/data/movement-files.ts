import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Db, Migration } from "../types";
import { DocumentTable } from "./documents";
import { badRequest, fileTooLarge, recordNotFound } from "./errors";
import { URL_TTL_MS } from "./file-urls";

/** A file held for data movement: awaiting its upload, being written by an export, or ready. */
export type MovementFile = {
  id: string;
  fileName: string | null;
  status: "AWAITING_UPLOAD" | "WRITING" | "READY";
  expiresAt: string | null;
  sizeInBytes: number | null;
  createdDate: string;
};

/** The largest file the platform takes. */
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

/** Files of data-movement jobs live in the platform's data folder. */
export function movementFolder(dataDir: string): string {
  return path.join(dataDir, "movement");
}

export const migrateMovementFiles: Migration = (db) => db.exec(DocumentTable.schema("data_movement_files"));

/** The files of data-movement jobs: their records, and the files themselves in the folder. */
export class MovementFiles {
  private readonly table: DocumentTable<MovementFile>;

  constructor(
    db: Db,
    private readonly folder: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.table = new DocumentTable(db, "data_movement_files");
  }

  find(fileId: string): MovementFile | undefined {
    return this.table.find(fileId);
  }

  pathOf(fileId: string): string {
    return path.join(this.folder, fileId);
  }

  save(file: MovementFile): MovementFile {
    return this.table.save(file, file.createdDate);
  }

  /** A file awaiting its upload, for 15 minutes. */
  createUpload(fileName: string | null | undefined): MovementFile {
    return this.save({
      id: randomUUID(),
      fileName: fileName ?? null,
      status: "AWAITING_UPLOAD",
      expiresAt: new Date(this.now().getTime() + URL_TTL_MS.upload).toISOString(),
      sizeInBytes: null,
      createdDate: this.now().toISOString(),
    });
  }

  /** Stores an upload's body (at most MAX_UPLOAD_BYTES) as the file; the file can then be imported. */
  async receiveUpload(fileId: string, body: Readable): Promise<MovementFile> {
    const file = this.find(fileId);
    if (!file) throw recordNotFound("File", fileId);
    if (file.status !== "AWAITING_UPLOAD") throw badRequest(`File [${fileId}] has been uploaded already.`, { fileId });
    if (file.expiresAt && Date.parse(file.expiresAt) < this.now().getTime())
      throw badRequest(`The upload URL of file [${fileId}] has expired; ask for a new one.`, { fileId });
    fs.mkdirSync(this.folder, { recursive: true });
    const partial = `${this.pathOf(fileId)}.part`;
    let size = 0;
    try {
      await pipeline(
        body,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length;
            if (size > MAX_UPLOAD_BYTES) throw fileTooLarge(MAX_UPLOAD_BYTES);
            yield chunk;
          }
        },
        fs.createWriteStream(partial),
      );
    } catch (error) {
      fs.rmSync(partial, { force: true });
      throw error;
    }
    fs.renameSync(partial, this.pathOf(fileId));
    return this.save({ ...file, status: "READY", expiresAt: null, sizeInBytes: size });
  }

  /** A ready file to download: its record and where it is. */
  download(fileId: string): { file: MovementFile; path: string } {
    const file = this.find(fileId);
    if (!file || file.status !== "READY") throw recordNotFound("File", fileId);
    return { file, path: this.pathOf(fileId) };
  }
}
