// host_metrics against a fake procfs and sysfs (PROCFS_ROOT, SYSFS_ROOT) built here: Vector's exact series,
// tags and values; the filters; a collector that cannot read counted as an error; and one scrape of the real
// /proc with the series present.

import { mkdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import hostMetrics from '../../../../host/components/sources/host_metrics.js';
import { readMetric, type Metric } from '../../../../host/components/support/metric.js';
import { buildSource, runSource, testEnv } from '../../support/sources.js';
import { tempDir, writeTree } from '../../support/svc.js';
import { waitFor } from '../../../support/wait-for.js';

/** One scrape with these options and roots: its metrics, and the env (errors, logs). */
async function scrape(options: object, roots: { PROCFS_ROOT?: string; SYSFS_ROOT?: string } = {}) {
  const saved = { PROCFS_ROOT: process.env.PROCFS_ROOT, SYSFS_ROOT: process.env.SYSFS_ROOT };
  Object.assign(process.env, roots);
  const env = testEnv('host_metrics');
  try {
    const run = runSource(await buildSource(hostMetrics, { scrape_interval_secs: 3600, ...options }, env));
    // The first scrape sent its metrics, or failed: the run ends once that scrape is done.
    await waitFor(
      () => run.events.length > 0 || env.metrics.total('component_errors_total') > 0,
      () => 'a scrape',
    );
    run.shutdown.abort();
    await run.done;
    return { metrics: run.events.map((event) => readMetric(event as never)), env };
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** `name{tag=value,…} value` per series, tags sorted, without `host` (always the hostname). */
function series(metrics: Metric[]): string[] {
  return metrics.map((metric) => {
    const tags = Object.entries(metric.tags ?? {})
      .filter(([key]) => key !== 'host')
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, value]) => `${key}=${value}`)
      .join(',');
    const value = metric.value.type === 'counter' || metric.value.type === 'gauge' ? metric.value.value : NaN;
    return `${metric.value.type} ${metric.name}{${tags}} ${value}`;
  });
}

function fakeRoots() {
  const dir = tempDir();
  const procfs = join(dir, 'proc');
  const sysfs = join(dir, 'sys');
  const data = join(dir, 'data disk');
  mkdirSync(data);
  writeTree(procfs, {
    meminfo: [
      'MemTotal: 1000 kB',
      'MemFree: 200 kB',
      'MemAvailable: 600 kB',
      'Buffers: 50 kB',
      'Cached: 300 kB',
      'Active: 400 kB',
      'Shmem: 10 kB',
      'SwapTotal: 2000 kB',
      'SwapFree: 1500 kB',
      '',
    ].join('\n'),
    vmstat: 'pswpin 3\npswpout 5\n',
    stat: 'cpu  300 20 30 400 50 6 7 8 0 0\ncpu0 250 10 15 200 25 3 3 4 0 0\ncpu1 50 10 15 200 25 3 4 4 0 0\nbtime 1700000000\n',
    uptime: '12345.67 20000.00\n',
    loadavg: '0.13 1.25 2.00 3/456 7890\n',
    'net/dev': [
      'Inter-|   Receive                                                |  Transmit',
      ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
      '    lo:     100      10    1    0    0     0          0         0      100      10    0    0    0     0       0          0',
      '  eth0:    5000      50    2    3    0     0          0         0     7000      70    4    5    0     0       0          0',
      '',
    ].join('\n'),
    mounts: [
      'proc /proc proc rw 0 0',
      'none /none tmpfs rw 0 0',
      `/dev/sdz1 ${data.replaceAll(' ', '\\040')} ext4 rw 0 0`,
      '',
    ].join('\n'),
    diskstats: '   8       0 sda 10 0 100 0 20 0 200 0 0 0 0\n 253       0 dm-0 1 0 8 0 2 0 16 0 0 0 0\n',
    'net/tcp': [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1',
      '   1: 0100007F:0CEA 0100007F:D3C2 01 00000010:00000020 00:00000000 00000000     0        0 2',
      '',
    ].join('\n'),
    'net/tcp6': [
      '  sl  local_address remote_address st tx_queue rx_queue',
      '   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000003',
      '',
    ].join('\n'),
    '42/stat':
      '42 (my (odd) app) S 1 42 42 0 -1 4194560 100 0 0 0 150 50 0 0 20 0 1 0 500 123456789 300 18446744073709551615',
    '42/cmdline': 'my-app\0--flag\0value\0',
    // Its main thread (skipped: the process itself) and another thread, listed as a process of its own.
    '42/task/42/stat': '42 (my (odd) app) S 1 42 42 0 -1 4194560 100 0 0 0 150 50 0 0 20 0 1 0 500 1 1 0',
    '42/task/44/stat': '44 (my (odd) app) S 1 42 42 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 1 0 600 123456789 300 0',
    '42/task/44/cmdline': 'my-app\0--flag\0value\0',
    '43/stat': '43 (sshd) S 1 43 43 0 -1 4194560 100 0 0 0 1 1 0 0 20 0 1 0 100 1000 2 18446744073709551615',
    '43/cmdline': 'sshd\0',
  });
  writeTree(sysfs, {
    'devices/system/cpu/online': '0-1\n',
    'devices/system/cpu/cpu0/topology/core_id': '0\n',
    'devices/system/cpu/cpu1/topology/core_id': '0\n',
    'fs/cgroup/cgroup.controllers': 'cpu memory\n',
    'fs/cgroup/cpu.stat': 'usage_usec 2000000\nuser_usec 1500000\nsystem_usec 500000\n',
    'fs/cgroup/system.slice/memory.current': '4096\n',
    'fs/cgroup/system.slice/memory.stat':
      'anon 1\nfile 2\nkernel 9\nactive_anon 3\ninactive_anon 4\nactive_file 5\ninactive_file 6\n',
    'fs/cgroup/system.slice/ssh.service/memory.current': '8192\n',
    'fs/cgroup/user.slice/memory.current': '16384\n',
  });
  return { dir, data, roots: { PROCFS_ROOT: procfs, SYSFS_ROOT: sysfs } };
}

test("fake procfs and sysfs: Vector's series, tags and values", async () => {
  const { roots } = fakeRoots();
  const { metrics, env } = await scrape(
    { collectors: ['cgroups', 'cpu', 'disk', 'load', 'host', 'memory', 'network', 'tcp'] },
    roots,
  );
  assert.ok(metrics.every((metric) => metric.namespace === 'host' && metric.kind === 'absolute'));
  assert.ok(metrics.every((metric) => metric.tags?.host === 'test-host' && metric.timestamp === metrics[0]!.timestamp));
  const KiB = 1024;
  assert.equal(series(metrics), [
    'counter cgroup_cpu_usage_seconds_total{cgroup=/,collector=cgroups} 2',
    'counter cgroup_cpu_user_seconds_total{cgroup=/,collector=cgroups} 1.5',
    'counter cgroup_cpu_system_seconds_total{cgroup=/,collector=cgroups} 0.5',
    'gauge cgroup_memory_current_bytes{cgroup=system.slice,collector=cgroups} 4096',
    'gauge cgroup_memory_anon_bytes{cgroup=system.slice,collector=cgroups} 1',
    'gauge cgroup_memory_file_bytes{cgroup=system.slice,collector=cgroups} 2',
    'gauge cgroup_memory_anon_active_bytes{cgroup=system.slice,collector=cgroups} 3',
    'gauge cgroup_memory_anon_inactive_bytes{cgroup=system.slice,collector=cgroups} 4',
    'gauge cgroup_memory_file_active_bytes{cgroup=system.slice,collector=cgroups} 5',
    'gauge cgroup_memory_file_inactive_bytes{cgroup=system.slice,collector=cgroups} 6',
    'gauge cgroup_memory_current_bytes{cgroup=system.slice/ssh.service,collector=cgroups} 8192',
    'gauge cgroup_memory_current_bytes{cgroup=user.slice,collector=cgroups} 16384',
    'counter cpu_seconds_total{collector=cpu,cpu=0,mode=idle} 2',
    'counter cpu_seconds_total{collector=cpu,cpu=0,mode=io_wait} 0.25',
    'counter cpu_seconds_total{collector=cpu,cpu=0,mode=nice} 0.1',
    'counter cpu_seconds_total{collector=cpu,cpu=0,mode=system} 0.15',
    'counter cpu_seconds_total{collector=cpu,cpu=0,mode=user} 2.5',
    'counter cpu_seconds_total{collector=cpu,cpu=1,mode=idle} 2',
    'counter cpu_seconds_total{collector=cpu,cpu=1,mode=io_wait} 0.25',
    'counter cpu_seconds_total{collector=cpu,cpu=1,mode=nice} 0.1',
    'counter cpu_seconds_total{collector=cpu,cpu=1,mode=system} 0.15',
    'counter cpu_seconds_total{collector=cpu,cpu=1,mode=user} 0.5',
    'gauge logical_cpus{collector=cpu} 2',
    'gauge physical_cpus{collector=cpu} 1',
    'counter disk_read_bytes_total{collector=disk,device=sda} 51200',
    'counter disk_reads_completed_total{collector=disk,device=sda} 10',
    'counter disk_written_bytes_total{collector=disk,device=sda} 102400',
    'counter disk_writes_completed_total{collector=disk,device=sda} 20',
    'counter disk_read_bytes_total{collector=disk,device=dm-0} 4096',
    'counter disk_reads_completed_total{collector=disk,device=dm-0} 1',
    'counter disk_written_bytes_total{collector=disk,device=dm-0} 8192',
    'counter disk_writes_completed_total{collector=disk,device=dm-0} 2',
    // Single precision, as heim reads load averages.
    `gauge load1{collector=load} ${Math.fround(0.13)}`,
    'gauge load5{collector=load} 1.25',
    'gauge load15{collector=load} 2',
    'gauge uptime{collector=host} 12345.67',
    'gauge boot_time{collector=host} 1700000000',
    `gauge memory_total_bytes{collector=memory} ${1000 * KiB}`,
    `gauge memory_free_bytes{collector=memory} ${200 * KiB}`,
    `gauge memory_available_bytes{collector=memory} ${600 * KiB}`,
    `gauge memory_active_bytes{collector=memory} ${400 * KiB}`,
    `gauge memory_buffers_bytes{collector=memory} ${50 * KiB}`,
    `gauge memory_cached_bytes{collector=memory} ${300 * KiB}`,
    `gauge memory_shared_bytes{collector=memory} ${10 * KiB}`,
    `gauge memory_used_bytes{collector=memory} ${450 * KiB}`,
    `gauge memory_swap_free_bytes{collector=memory} ${1500 * KiB}`,
    `gauge memory_swap_total_bytes{collector=memory} ${2000 * KiB}`,
    `gauge memory_swap_used_bytes{collector=memory} ${500 * KiB}`,
    'counter memory_swapped_in_bytes_total{collector=memory} 12288',
    'counter memory_swapped_out_bytes_total{collector=memory} 20480',
    'counter network_receive_bytes_total{collector=network,device=lo} 100',
    'counter network_receive_errs_total{collector=network,device=lo} 1',
    'counter network_receive_packets_total{collector=network,device=lo} 10',
    'counter network_transmit_bytes_total{collector=network,device=lo} 100',
    'counter network_transmit_packets_drop_total{collector=network,device=lo} 0',
    'counter network_transmit_packets_total{collector=network,device=lo} 10',
    'counter network_transmit_errs_total{collector=network,device=lo} 0',
    'counter network_receive_bytes_total{collector=network,device=eth0} 5000',
    'counter network_receive_errs_total{collector=network,device=eth0} 2',
    'counter network_receive_packets_total{collector=network,device=eth0} 50',
    'counter network_transmit_bytes_total{collector=network,device=eth0} 7000',
    'counter network_transmit_packets_drop_total{collector=network,device=eth0} 5',
    'counter network_transmit_packets_total{collector=network,device=eth0} 70',
    'counter network_transmit_errs_total{collector=network,device=eth0} 4',
    'gauge tcp_connections_total{collector=tcp,state=listen} 2',
    'gauge tcp_connections_total{collector=tcp,state=established} 1',
    'gauge tcp_tx_queued_bytes_total{collector=tcp} 16',
    'gauge tcp_rx_queued_bytes_total{collector=tcp} 35',
  ]);
  assert.is(env.metrics.total('component_errors_total'), 0);
});

test('filesystem: the mounts with a device, its usage and inodes as statfs gives them; filters by glob', async () => {
  const { data, roots } = fakeRoots();
  const { metrics } = await scrape(
    { collectors: ['filesystem'], filesystem: { filesystems: { excludes: ['p*'] } } },
    roots,
  );
  const usage = statfsSync(data);
  const tags = `collector=filesystem,device=/dev/sdz1,filesystem=ext4,mountpoint=${data}`;
  const lines = series(metrics);
  // `proc` is excluded by its filesystem; `none` has no device, which the default `devices` filter excludes.
  assert.equal(
    lines.map((line) => line.replace(/ [^ ]+$/, '')),
    [
      'free_bytes',
      'total_bytes',
      'used_bytes',
      'used_ratio',
      'inodes_total',
      'inodes_free',
      'inodes_used',
      'inodes_used_ratio',
    ].map((name) => `gauge filesystem_${name}{${tags}}`),
  );
  assert.ok(lines[1]!.endsWith(` ${usage.blocks * usage.bsize}`));
  assert.ok(lines[4]!.endsWith(` ${usage.files}`));
});

test('filters: devices, interfaces and processes by glob; a mount without device fails an includes list', async () => {
  const { roots } = fakeRoots();
  const { metrics } = await scrape(
    {
      collectors: ['disk', 'network', 'process', 'filesystem'],
      disk: { devices: { includes: ['dm-*', 's?a'], excludes: ['dm-0'] } },
      network: { devices: { excludes: ['l[!x]'] } },
      process: { processes: { includes: ['my*'] } },
      filesystem: { mountpoints: { includes: ['/no*'] } },
    },
    roots,
  );
  const names = (collector: string) => [
    ...new Set(
      metrics.filter((m) => m.tags?.collector === collector).map((m) => String(m.tags?.device ?? m.tags?.name)),
    ),
  ];
  assert.equal(names('disk'), ['sda']);
  assert.equal(names('network'), ['eth0']);
  assert.equal(names('process'), ['my (odd) app']);
  assert.equal(names('filesystem'), []);
  assert.equal(
    [...new Set(metrics.filter((m) => m.tags?.collector === 'process').map((m) => m.tags?.pid))],
    ['42', '44'],
  );
  const process = metrics.filter((m) => m.tags?.collector === 'process' && m.tags?.pid === '42');
  assert.equal(
    process.map((m) => [m.name, m.value.type, m.tags?.pid, m.tags?.command]),
    [
      ['process_cpu_usage', 'gauge', '42', 'my-app --flag value'],
      ['process_memory_usage', 'gauge', '42', 'my-app --flag value'],
      ['process_memory_virtual_usage', 'gauge', '42', 'my-app --flag value'],
      ['process_runtime', 'counter', '42', 'my-app --flag value'],
    ],
  );
  const value = (name: string) => (process.find((m) => m.name === name)!.value as { value: number }).value;
  assert.is(value('process_cpu_usage'), 0);
  assert.is(value('process_memory_usage'), 300 * 4096);
  assert.is(value('process_memory_virtual_usage'), 123456789);
  // Started 5 s after boot (500 ticks), boot at 1700000000.
  const runtime = value('process_runtime');
  assert.ok(Math.abs(runtime - (Math.floor(Date.now() / 1000) - 1700000005)) <= 1, String(runtime));
});

test("process_cpu_usage: the process's CPU ticks since the last scrape, in percent of one CPU's", async () => {
  const { roots } = fakeRoots();
  const procfs = roots.PROCFS_ROOT;
  const saved = process.env.PROCFS_ROOT;
  process.env.PROCFS_ROOT = procfs;
  let usage: unknown[];
  try {
    const run = runSource(
      await buildSource(
        hostMetrics,
        { scrape_interval_secs: 1, collectors: ['process'], process: { processes: { includes: ['sshd'] } } },
        testEnv('host_metrics'),
      ),
    );
    await run.waitFor(4);
    // 400 ticks on 2 CPUs pass (200 per CPU); sshd used 50 of them (48 user, 2 system).
    writeTree(procfs, {
      stat: 'cpu  400 20 30 700 50 6 7 8 0 0\ncpu0 250 10 15 200 25 3 3 4 0 0\ncpu1 50 10 15 200 25 3 4 4 0 0\nbtime 1700000000\n',
      '43/stat': '43 (sshd) S 1 43 43 0 -1 4194560 100 0 0 0 49 3 0 0 20 0 1 0 100 1000 2 18446744073709551615',
    });
    await run.waitFor(8);
    run.shutdown.abort();
    await run.done;
    usage = run.events.map((event) => readMetric(event as never)).filter((m) => m.name === 'process_cpu_usage');
  } finally {
    if (saved === undefined) delete process.env.PROCFS_ROOT;
    else process.env.PROCFS_ROOT = saved;
  }
  // 0 at the first scrape (nothing to measure against), as sysinfo gives.
  assert.equal(
    usage.map((metric) => (metric as Metric).value),
    [
      { type: 'gauge', value: 0 },
      { type: 'gauge', value: 25 },
    ],
  );
});

test('a collector that cannot read is counted as a reader_failed error; the others go on', async () => {
  const dir = tempDir();
  const { metrics, env } = await scrape(
    { collectors: ['memory', 'load'], namespace: '' },
    { PROCFS_ROOT: join(dir, 'proc'), SYSFS_ROOT: join(dir, 'sys') },
  );
  assert.equal(metrics, []);
  assert.is(env.metrics.total('component_errors_total', { error_type: 'reader_failed', stage: 'receiving' }), 3);
});

test('the real /proc: every collector of the default set gives its series', async () => {
  const { metrics } = await scrape({});
  const names = new Set(metrics.map((metric) => metric.name));
  for (const name of [
    'cpu_seconds_total',
    'logical_cpus',
    'process_cpu_usage',
    'process_runtime',
    'disk_read_bytes_total',
    'filesystem_total_bytes',
    'load1',
    'uptime',
    'boot_time',
    'memory_total_bytes',
    'memory_swap_total_bytes',
    'network_receive_bytes_total',
    'tcp_tx_queued_bytes_total',
  ])
    assert.ok(names.has(name), name);
  const pid = String(process.pid);
  assert.ok(metrics.some((metric) => metric.name === 'process_memory_usage' && metric.tags?.pid === pid));
});

test.run();
