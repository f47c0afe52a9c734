// The hostMetrics query on a live instance: a fake procfs/sysfs tree (PROCFS_ROOT, SYSFS_ROOT) gives exact
// values, an empty one gives Vector's zeros and nulls, the real /proc gives plausible ones.

import { mkdirSync, statfsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IDLE_PIPELINE, query, startApiInstance } from './support.js';
import { tempDir, writeTree } from '../support/svc.js';

const HOST_METRICS = `{
  hostMetrics {
    memory { totalBytes freeBytes availableBytes activeBytes buffersBytes cachedBytes sharedBytes usedBytes inactiveBytes wiredBytes }
    swap { freeBytes totalBytes usedBytes swappedInBytesTotal swappedOutBytesTotal }
    cpu { cpuSecondsTotal }
    loadAverage { load1 load5 load15 }
    network { receiveBytesTotal receiveErrsTotal receivePacketsTotal transmitBytesTotal transmitErrsTotal transmitPacketsDropTotal transmitPacketsTotal }
    filesystem { freeBytes totalBytes usedBytes }
    disk { readBytesTotal readsCompletedTotal writtenBytesTotal writesCompletedTotal }
  }
}`;

async function hostMetricsWith(env: NodeJS.ProcessEnv): Promise<any> {
  const api = await startApiInstance(IDLE_PIPELINE, '', env);
  try {
    const { body } = await query(api.base, HOST_METRICS);
    assert.is(body.errors, undefined, JSON.stringify(body.errors));
    return body.data.hostMetrics;
  } finally {
    await api.stop();
  }
}

test('a fake procfs and sysfs give exact values', async () => {
  const dir = tempDir();
  const procfs = join(dir, 'proc');
  const sysfs = join(dir, 'sys');
  // A mount point with a space, which /proc/mounts writes as \040.
  const disk = join(dir, 'data disk');
  mkdirSync(disk);
  writeTree(procfs, {
    meminfo: [
      'MemTotal: 1000 kB',
      'MemFree: 200 kB',
      'MemAvailable: 600 kB',
      'Buffers: 50 kB',
      'Cached: 300 kB',
      'Active: 400 kB',
      'Inactive: 100 kB',
      'Shmem: 10 kB',
      'SwapTotal: 2000 kB',
      'SwapFree: 1500 kB',
      '',
    ].join('\n'),
    vmstat: 'nr_free_pages 50\npswpin 3\npswpout 5\n',
    stat: 'cpu  100 20 30 400 50 6 7 8 0 0\ncpu0 50 10 15 200 25 3 3 4 0 0\ncpu1 50 10 15 200 25 3 4 4 0 0\nintr 1 2 3\n',
    loadavg: '0.50 1.25 2.00 3/456 7890\n',
    'net/dev': [
      'Inter-|   Receive                                                |  Transmit',
      ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
      '    lo:     100      10    1    0    0     0          0         0      100      10    0    0    0     0       0          0',
      '  eth0:    5000      50    2    3    0     0          0         0     7000      70    4    5    0     0       0          0',
      '',
    ].join('\n'),
    filesystems: 'nodev\tsysfs\nnodev\tproc\nnodev\ttmpfs\n\text4\n\txfs\n',
    mounts: [
      'proc /proc proc rw 0 0',
      'tmpfs /run tmpfs rw 0 0',
      `/dev/sdz1 ${disk.replaceAll(' ', '\\040')} ext4 rw 0 0`,
      `/dev/sdz1 ${dir} ext4 rw 0 0`,
      '/dev/sdy1 /no/such/mount xfs rw 0 0',
      '',
    ].join('\n'),
    diskstats: [
      '   8       0 sda 10 0 100 0 20 0 200 0 0 0 0 0 0 0 0 0 0',
      '   8       1 sda1 10 0 100 0 20 0 200 0 0 0 0 0 0 0 0 0 0',
      ' 104       0 cciss/c0d0 1 0 8 0 2 0 16 0 0 0 0 0 0 0 0 0 0',
      '',
    ].join('\n'),
  });
  mkdirSync(join(sysfs, 'block', 'sda'), { recursive: true });
  mkdirSync(join(sysfs, 'block', 'cciss!c0d0'), { recursive: true });
  const metrics = await hostMetricsWith({ PROCFS_ROOT: procfs, SYSFS_ROOT: sysfs });
  const KiB = 1024;
  assert.equal(metrics.memory, {
    totalBytes: 1000 * KiB,
    freeBytes: 200 * KiB,
    availableBytes: 600 * KiB,
    activeBytes: 400 * KiB,
    buffersBytes: 50 * KiB,
    cachedBytes: 300 * KiB,
    sharedBytes: 10 * KiB,
    usedBytes: (1000 - 200 - 50 - 300) * KiB,
    inactiveBytes: null,
    wiredBytes: null,
  });
  assert.equal(metrics.swap, {
    freeBytes: 1500 * KiB,
    totalBytes: 2000 * KiB,
    usedBytes: 500 * KiB,
    swappedInBytesTotal: 3 * 4096,
    swappedOutBytesTotal: 5 * 4096,
  });
  // user + nice + system + idle + iowait of the `cpu` line, in USER_HZ (100) ticks.
  assert.equal(metrics.cpu, { cpuSecondsTotal: 6 });
  assert.equal(metrics.loadAverage, { load1: 0.5, load5: 1.25, load15: 2 });
  assert.equal(metrics.network, {
    receiveBytesTotal: 5100,
    receiveErrsTotal: 3,
    receivePacketsTotal: 60,
    transmitBytesTotal: 7100,
    transmitErrsTotal: 4,
    transmitPacketsDropTotal: 5,
    transmitPacketsTotal: 80,
  });
  // Whole disks only (sda1 is a partition), sectors of 512 bytes.
  assert.equal(metrics.disk, {
    readBytesTotal: 108 * 512,
    readsCompletedTotal: 11,
    writtenBytesTotal: 216 * 512,
    writesCompletedTotal: 22,
  });
  // One ext4 device mounted twice counts once; tmpfs and proc are not block devices; a missing mount
  // point is skipped. The disk is shared with other processes, so only its size is exact.
  const usage = statfsSync(disk);
  assert.is(metrics.filesystem.totalBytes, usage.blocks * usage.bsize);
  assert.ok(metrics.filesystem.freeBytes > 0 && metrics.filesystem.freeBytes <= metrics.filesystem.totalBytes);
  assert.ok(metrics.filesystem.usedBytes > 0 && metrics.filesystem.usedBytes <= metrics.filesystem.totalBytes);
});

test('missing files give zeros in non-null fields and nulls in nullable ones, not an error', async () => {
  const dir = tempDir();
  const metrics = await hostMetricsWith({ PROCFS_ROOT: join(dir, 'proc'), SYSFS_ROOT: join(dir, 'sys') });
  assert.equal(metrics, {
    memory: {
      totalBytes: 0,
      freeBytes: 0,
      availableBytes: 0,
      activeBytes: null,
      buffersBytes: null,
      cachedBytes: null,
      sharedBytes: null,
      usedBytes: null,
      inactiveBytes: null,
      wiredBytes: null,
    },
    swap: { freeBytes: 0, totalBytes: 0, usedBytes: 0, swappedInBytesTotal: null, swappedOutBytesTotal: null },
    cpu: { cpuSecondsTotal: 0 },
    loadAverage: null,
    network: {
      receiveBytesTotal: 0,
      receiveErrsTotal: 0,
      receivePacketsTotal: 0,
      transmitBytesTotal: 0,
      transmitErrsTotal: 0,
      transmitPacketsDropTotal: null,
      transmitPacketsTotal: null,
    },
    filesystem: { freeBytes: 0, totalBytes: 0, usedBytes: 0 },
    disk: { readBytesTotal: 0, readsCompletedTotal: 0, writtenBytesTotal: 0, writesCompletedTotal: 0 },
  });
});

test('the real /proc and /sys give plausible values', async () => {
  const metrics = await hostMetricsWith({ PROCFS_ROOT: '', SYSFS_ROOT: '' });
  const { memory, swap, cpu, loadAverage, network, filesystem, disk } = metrics;
  assert.is(memory.totalBytes, totalmem());
  assert.ok(memory.availableBytes > 0 && memory.availableBytes <= memory.totalBytes);
  assert.ok(memory.usedBytes > 0 && memory.usedBytes < memory.totalBytes);
  assert.is(swap.usedBytes, swap.totalBytes - swap.freeBytes);
  assert.ok(cpu.cpuSecondsTotal > 0);
  assert.ok([loadAverage.load1, loadAverage.load5, loadAverage.load15].every((load) => load >= 0));
  // Loopback carries this very query.
  assert.ok(network.receiveBytesTotal > 0 && network.transmitBytesTotal > 0);
  assert.ok(filesystem.usedBytes <= filesystem.totalBytes && filesystem.freeBytes <= filesystem.totalBytes);
  assert.ok(disk.readBytesTotal >= 0 && disk.readsCompletedTotal >= 0);
});

test.run();
