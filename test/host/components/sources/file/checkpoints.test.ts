import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Checkpoints } from '../../../../../host/components/sources/file/checkpoints.js';

test('positions survive a save and a reopen; the file is replaced atomically', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-checkpoints-'));
  try {
    const checkpoints = await Checkpoints.open(join(dir, 'in'), false);
    checkpoints.set('checksum:a', 10);
    checkpoints.set('checksum:b', 20);
    await checkpoints.save();
    assert.equal(await readdir(join(dir, 'in')), ['checkpoints.json']);
    const stored = JSON.parse(await readFile(join(dir, 'in', 'checkpoints.json'), 'utf8'));
    assert.is(stored.version, '1');
    assert.equal(
      stored.checkpoints.map((c: { fingerprint: string; position: number }) => [c.fingerprint, c.position]),
      [
        ['checksum:a', 10],
        ['checksum:b', 20],
      ],
    );
    const reopened = await Checkpoints.open(join(dir, 'in'), false);
    assert.is(reopened.get('checksum:a'), 10);
    assert.is(reopened.get('checksum:b'), 20);
    assert.is((await Checkpoints.open(join(dir, 'in'), true)).get('checksum:a'), undefined, 'ignore_checkpoints');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('entries of files no longer watched expire after a minute', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-checkpoints-'));
  try {
    const checkpoints = await Checkpoints.open(dir, false);
    checkpoints.set('checksum:a', 10);
    checkpoints.setDead('checksum:a', 1_000);
    await checkpoints.save(30_000);
    assert.is((await Checkpoints.open(dir, false)).get('checksum:a'), 10);
    await checkpoints.save(62_000);
    assert.is((await Checkpoints.open(dir, false)).get('checksum:a'), undefined);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a write cut short by a crash (a torn temporary file) leaves the last saved checkpoints readable', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-checkpoints-'));
  try {
    const checkpoints = await Checkpoints.open(dir, false);
    checkpoints.set('checksum:a', 10);
    await checkpoints.save();
    await writeFile(join(dir, 'checkpoints.json.tmp'), '{"version":"1","checkpoints":[{"finger');
    assert.is((await Checkpoints.open(dir, false)).get('checksum:a'), 10);
    checkpoints.set('checksum:a', 20);
    await checkpoints.save();
    assert.equal(await readdir(dir), ['checkpoints.json']);
    assert.is((await Checkpoints.open(dir, false)).get('checksum:a'), 20);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a corrupt checkpoint file is an error naming it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-checkpoints-'));
  try {
    await writeFile(join(dir, 'checkpoints.json'), '{not json');
    try {
      await Checkpoints.open(dir, false);
      assert.unreachable();
    } catch (error) {
      assert.match((error as Error).message, `unreadable checkpoint file ${join(dir, 'checkpoints.json')}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
