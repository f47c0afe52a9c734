// Where each file was read up to, by fingerprint, in `<data_dir>/<component id>/checkpoints.json`. A position
// is only recorded after the lines before it were handed on, so a restart neither loses nor repeats lines.
// Entries of files no longer watched are kept for a minute (a rotated file may be found again), as Vector does.

import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

const FILE_NAME = 'checkpoints.json';
const VERSION = '1';
/** How long the checkpoint of a file no longer watched is kept. */
const DEAD_RETENTION_MS = 60_000;

interface Entry {
  position: number;
  /** When the position last changed (ISO 8601), for people reading the file. */
  modified: string;
  /** When the file stopped being watched (ms since the epoch), undefined while watched. */
  dead?: number;
}

interface StoredFile {
  version: string;
  checkpoints: Array<{ fingerprint: string; position: number; modified: string }>;
}

export class Checkpoints {
  private readonly entries = new Map<string, Entry>();
  private dirty = false;

  private constructor(readonly directory: string) {}

  /** Opens (creating the directory) and loads the stored checkpoints unless `ignoreStored`. */
  static async open(directory: string, ignoreStored: boolean): Promise<Checkpoints> {
    await mkdir(directory, { recursive: true });
    const checkpoints = new Checkpoints(directory);
    if (!ignoreStored) await checkpoints.load();
    return checkpoints;
  }

  get(fingerprint: string): number | undefined {
    return this.entries.get(fingerprint)?.position;
  }

  set(fingerprint: string, position: number): void {
    const entry = this.entries.get(fingerprint);
    if (entry !== undefined && entry.position === position && entry.dead === undefined) return;
    this.entries.set(fingerprint, { position, modified: new Date().toISOString() });
    this.dirty = true;
  }

  /** The file of `fingerprint` is no longer watched: its entry expires after a while. */
  setDead(fingerprint: string, now = Date.now()): void {
    const entry = this.entries.get(fingerprint);
    if (entry !== undefined) entry.dead = now;
  }

  /** Writes the checkpoints when something changed, atomically: a temporary file, flushed to disk, renamed
   * over the old one, then the directory flushed so the rename survives a crash. */
  async save(now = Date.now()): Promise<void> {
    for (const [fingerprint, entry] of this.entries) {
      if (entry.dead !== undefined && now - entry.dead > DEAD_RETENTION_MS) {
        this.entries.delete(fingerprint);
        this.dirty = true;
      }
    }
    if (!this.dirty) return;
    this.dirty = false;
    const stored: StoredFile = {
      version: VERSION,
      checkpoints: [...this.entries].map(([fingerprint, { position, modified }]) => ({
        fingerprint,
        position,
        modified,
      })),
    };
    const path = join(this.directory, FILE_NAME);
    const temporary = `${path}.tmp`;
    try {
      const file = await open(temporary, 'w');
      try {
        await file.writeFile(JSON.stringify(stored));
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
      const directory = await open(this.directory, 'r');
      try {
        await directory.sync();
      } finally {
        await directory.close();
      }
    } catch (error) {
      this.dirty = true;
      throw error;
    }
  }

  private async load(): Promise<void> {
    const path = join(this.directory, FILE_NAME);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    let stored: StoredFile;
    try {
      stored = JSON.parse(text) as StoredFile;
    } catch (error) {
      throw new Error(`unreadable checkpoint file ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (stored.version !== VERSION || !Array.isArray(stored.checkpoints)) {
      throw new Error(`unreadable checkpoint file ${path}: expected version "${VERSION}" with a "checkpoints" list`);
    }
    for (const { fingerprint, position, modified } of stored.checkpoints) {
      if (typeof fingerprint === 'string' && Number.isSafeInteger(position))
        this.entries.set(fingerprint, { position, modified });
    }
  }
}
