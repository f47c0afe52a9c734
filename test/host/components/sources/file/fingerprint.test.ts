import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fingerprint, type FingerprintOptions } from '../../../../../host/components/sources/file/fingerprint.js';

const CHECKSUM: FingerprintOptions = { strategy: 'checksum', lines: 1, ignored_header_bytes: 0 };

async function fingerprintOf(path: string, options: FingerprintOptions): Promise<string | undefined> {
  const handle = await open(path);
  try {
    const stats = await handle.stat();
    return await fingerprint(handle, stats, options, 1024);
  } finally {
    await handle.close();
  }
}

test('checksum: files with the same first lines share a fingerprint; more lines or skipped header bytes tell them apart', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-fingerprint-'));
  try {
    const a = join(dir, 'a.log');
    const b = join(dir, 'b.log');
    await writeFile(a, 'header\nalpha\n');
    await writeFile(b, 'header\nbeta\n');
    assert.is(await fingerprintOf(a, CHECKSUM), await fingerprintOf(b, CHECKSUM));
    assert.is.not(await fingerprintOf(a, { ...CHECKSUM, lines: 2 }), await fingerprintOf(b, { ...CHECKSUM, lines: 2 }));
    assert.is.not(
      await fingerprintOf(a, { ...CHECKSUM, ignored_header_bytes: 7 }),
      await fingerprintOf(b, { ...CHECKSUM, ignored_header_bytes: 7 }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('checksum: a file without enough complete lines has no fingerprint yet', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-fingerprint-'));
  try {
    const path = join(dir, 'a.log');
    await writeFile(path, 'no newline yet');
    assert.is(await fingerprintOf(path, CHECKSUM), undefined);
    await writeFile(path, 'one\n');
    assert.ok(await fingerprintOf(path, CHECKSUM));
    assert.is(await fingerprintOf(path, { ...CHECKSUM, lines: 2 }), undefined);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('device_and_inode: the file itself, whatever it holds', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-fingerprint-'));
  try {
    const path = join(dir, 'a.log');
    await writeFile(path, '');
    const options: FingerprintOptions = { strategy: 'device_and_inode', lines: 1, ignored_header_bytes: 0 };
    assert.match((await fingerprintOf(path, options))!, /^dev_inode:\d+:\d+$/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
