// How a file is recognised across renames and restarts (Vector's fingerprinting). `checksum` hashes the first
// `lines` newline-terminated lines after `ignored_header_bytes`: two files that start with the same lines are
// the same file to it (only the most recently modified one is read), and a file with fewer lines is not read
// until it has them. `device_and_inode` identifies the file itself (inodes can be reused after a delete).

import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

export interface FingerprintOptions {
  strategy: 'checksum' | 'device_and_inode';
  lines: number;
  ignored_header_bytes: number;
}

const NEWLINE = 0x0a;
const READ_SIZE = 4096;

/** The file's fingerprint, or undefined when it does not have enough lines yet. `maxBytes` bounds the read:
 * a first line longer than that is fingerprinted by its first `maxBytes` bytes. */
export async function fingerprint(
  handle: FileHandle,
  stats: { dev: number; ino: number },
  options: FingerprintOptions,
  maxBytes: number,
): Promise<string | undefined> {
  if (options.strategy === 'device_and_inode') return `dev_inode:${stats.dev}:${stats.ino}`;
  const hash = createHash('sha256');
  let position = options.ignored_header_bytes;
  let linesLeft = options.lines;
  let hashed = 0;
  const buffer = Buffer.allocUnsafe(READ_SIZE);
  while (linesLeft > 0 && hashed < maxBytes) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(READ_SIZE, maxBytes - hashed), position);
    if (bytesRead === 0) return undefined;
    const read = buffer.subarray(0, bytesRead);
    let end = 0;
    while (end < bytesRead && linesLeft > 0) {
      const newline = read.indexOf(NEWLINE, end);
      if (newline === -1) {
        end = bytesRead;
        break;
      }
      end = newline + 1;
      linesLeft--;
    }
    hash.update(read.subarray(0, end));
    hashed += end;
    position += end;
  }
  return `checksum:${hash.digest('hex').slice(0, 32)}`;
}
