// `host_metrics`: the machine's metrics, scraped every `scrape_interval_secs` (the first at start) from procfs
// and sysfs (support/procfs.ts; PROCFS_ROOT and SYSFS_ROOT move their roots), emitted as Vector's series: the
// same names, tags (`collector`, `host`, and per series `cpu`, `mode`, `device`…), kinds (absolute counters
// and gauges) and units. Each collector's devices, mounts, processes or cgroups are picked by glob patterns
// (`includes`, `excludes`) as Vector's are. What cannot be read is counted as a `reader_failed` error and
// the scrape goes on without it.

import { statfs } from 'node:fs/promises';
import { z } from 'zod';
import type { ComponentEnv, SourceDefinition } from '../component.js';
import { metricEvent, scrapeEvery, type Metric, type MetricTags } from '../support/metric.js';
import {
  diskDevices,
  loadAverage,
  logicalCpuCount,
  machineRoots,
  memoryInfo,
  mounts,
  networkInterfaces,
  physicalCpuCount,
  processes,
  procStat,
  swappedBytes,
  tcpSockets,
  uptime,
  usedMemory,
  USER_HZ,
  type MachineRoots,
} from '../support/procfs.js';
import { MetricsBuffer } from './host_metrics/buffer.js';
import { cgroupMetrics, cgroupsSchema } from './host_metrics/cgroups.js';
import { filterList, filterOption, type FilterList } from './host_metrics/filter.js';

const COLLECTORS = [
  'cgroups',
  'cpu',
  'disk',
  'filesystem',
  'host',
  'load',
  'memory',
  'network',
  'process',
  'tcp',
] as const;
type Collector = (typeof COLLECTORS)[number];

const options = z.strictObject({
  scrape_interval_secs: z.number().int().positive().default(15),
  collectors: z
    .array(z.enum(COLLECTORS))
    .default(['cpu', 'disk', 'filesystem', 'load', 'host', 'memory', 'network', 'process', 'cgroups', 'tcp']),
  namespace: z.string().default('host'),
  cgroups: cgroupsSchema,
  disk: z.strictObject({ devices: filterOption }).default({ devices: { includes: ['*'] } }),
  filesystem: z
    .strictObject({ devices: filterOption, filesystems: filterOption, mountpoints: filterOption })
    .default({ devices: { includes: ['*'] }, filesystems: { includes: ['*'] }, mountpoints: { includes: ['*'] } }),
  network: z.strictObject({ devices: filterOption }).default({ devices: { includes: ['*'] } }),
  process: z.strictObject({ processes: filterOption }).default({ processes: { includes: ['*'] } }),
});
type HostMetricsOptions = z.infer<typeof options>;

/** The figures of ratios and of CPU usage are single-precision floats in the libraries Vector reads them with. */
const single = Math.fround;

/** Reads the collectors' figures; keeps what the next scrape measures against (processes' CPU time). */
class HostMetricsScraper {
  private readonly filters: {
    disk: FilterList;
    filesystemDevices: FilterList;
    filesystems: FilterList;
    mountpoints: FilterList;
    network: FilterList;
    processes: FilterList;
  };
  /** CPU ticks of each process and of all CPUs at the last scrape. */
  private lastCpu: { all: number; processes: Map<number, number> } | undefined;

  constructor(
    private readonly options: HostMetricsOptions,
    private readonly env: ComponentEnv,
    private readonly roots: MachineRoots,
  ) {
    this.filters = {
      disk: filterList(options.disk.devices),
      filesystemDevices: filterList(options.filesystem.devices),
      filesystems: filterList(options.filesystem.filesystems),
      mountpoints: filterList(options.filesystem.mountpoints),
      network: filterList(options.network.devices),
      processes: filterList(options.process.processes),
    };
  }

  /** Every series of one scrape, collectors in Vector's order. */
  async scrape(): Promise<Metric[]> {
    const buffer = new MetricsBuffer(this.options.namespace || undefined, this.env.hostname);
    const has = (collector: Collector) => this.options.collectors.includes(collector);
    if (has('cgroups')) {
      buffer.collector = 'cgroups';
      await cgroupMetrics(
        this.options.cgroups,
        filterList(this.options.cgroups.groups),
        this.roots,
        buffer,
        this.failed,
      );
    }
    if (has('cpu')) await this.cpu(buffer);
    if (has('process')) await this.process(buffer);
    if (has('disk')) await this.disk(buffer);
    if (has('filesystem')) await this.filesystem(buffer);
    if (has('load')) await this.load(buffer);
    if (has('host')) await this.host(buffer);
    if (has('memory')) await this.memory(buffer);
    if (has('network')) await this.network(buffer);
    if (has('tcp')) await this.tcp(buffer);
    return buffer.metrics;
  }

  /** Vector's `HostMetricsScrapeDetailError`: logged and counted, the scrape goes on. */
  private readonly failed = (message: string, fields: Record<string, string> = {}) => {
    this.env.telemetry.error('reader_failed', 'receiving');
    this.env.log.error(message, {
      ...fields,
      error_type: 'reader_failed',
      stage: 'receiving',
      internal_log_rate_key: message,
    });
  };

  private async cpu(buffer: MetricsBuffer): Promise<void> {
    buffer.collector = 'cpu';
    const [stat, logical, physical] = await Promise.all([
      procStat(this.roots),
      logicalCpuCount(this.roots),
      physicalCpuCount(this.roots),
    ]);
    if (stat === undefined) this.failed('Failed to load CPU times.');
    for (const [index, times] of (stat?.cpus ?? []).entries()) {
      const tags = (mode: string) => ({ mode, cpu: String(index) });
      buffer.counter('cpu_seconds_total', times.idle / USER_HZ, tags('idle'));
      buffer.counter('cpu_seconds_total', times.iowait / USER_HZ, tags('io_wait'));
      buffer.counter('cpu_seconds_total', times.nice / USER_HZ, tags('nice'));
      buffer.counter('cpu_seconds_total', times.system / USER_HZ, tags('system'));
      buffer.counter('cpu_seconds_total', times.user / USER_HZ, tags('user'));
    }
    if (logical === undefined) this.failed('Failed to load logical CPU count.');
    else buffer.gauge('logical_cpus', logical);
    if (physical === undefined) this.failed('Unable to determine physical CPU count.');
    else buffer.gauge('physical_cpus', physical);
  }

  /** sysinfo's figures: CPU usage in percent of one CPU since the last scrape (0 at the first), resident and
   * virtual memory in bytes, and the whole seconds since the process started. */
  private async process(buffer: MetricsBuffer): Promise<void> {
    buffer.collector = 'process';
    const [list, stat] = await Promise.all([processes(this.roots), procStat(this.roots)]);
    const all = stat?.total?.all ?? 0;
    const cpuCount = Math.max(stat?.cpus.length ?? 1, 1);
    const last = this.lastCpu;
    const elapsedPerCpu = last === undefined ? 0 : (all - last.all) / cpuCount;
    const now = Math.floor(Date.now() / 1000);
    const bootTime = stat?.bootTime ?? 0;
    this.lastCpu = { all, processes: new Map(list.map((process) => [process.pid, process.cpuTicks])) };
    for (const process of list) {
      if (!this.filters.processes.contains(process.name)) continue;
      const tags = { pid: String(process.pid), name: process.name, command: process.command.join(' ') };
      const before = last?.processes.get(process.pid);
      const usage =
        before === undefined || elapsedPerCpu <= 0
          ? 0
          : Math.min(((process.cpuTicks - before) / elapsedPerCpu) * 100, cpuCount * 100);
      buffer.gauge('process_cpu_usage', single(usage), tags);
      buffer.gauge('process_memory_usage', process.residentBytes, tags);
      buffer.gauge('process_memory_virtual_usage', process.virtualBytes, tags);
      buffer.counter('process_runtime', Math.max(0, now - (bootTime + Math.floor(process.startTicks / USER_HZ))), tags);
    }
  }

  private async disk(buffer: MetricsBuffer): Promise<void> {
    buffer.collector = 'disk';
    const devices = await diskDevices(this.roots);
    if (devices === undefined) return this.failed('Failed to load disk I/O info.');
    for (const device of devices) {
      if (!this.filters.disk.contains(device.device)) continue;
      const tags = { device: device.device };
      buffer.counter('disk_read_bytes_total', device.readBytes, tags);
      buffer.counter('disk_reads_completed_total', device.readsCompleted, tags);
      buffer.counter('disk_written_bytes_total', device.writtenBytes, tags);
      buffer.counter('disk_writes_completed_total', device.writesCompleted, tags);
    }
  }

  /** Every mount (heim's `partitions`, not only block devices) the filters keep, with its usage as heim
   * reads it: free is what unprivileged users may still use, used counts the blocks reserved for root too. */
  private async filesystem(buffer: MetricsBuffer): Promise<void> {
    buffer.collector = 'filesystem';
    const list = await mounts(this.roots);
    if (list === undefined) return this.failed('Failed to load partitions info.');
    const kept = list.filter(
      (mount) =>
        this.filters.mountpoints.contains(mount.mountPoint) &&
        this.filters.filesystemDevices.contains(mount.device) &&
        this.filters.filesystems.contains(mount.fileSystem),
    );
    const usages = await Promise.all(kept.map((mount) => statfs(mount.mountPoint).catch((error: Error) => error)));
    for (const [index, mount] of kept.entries()) {
      const usage = usages[index]!;
      if (usage instanceof Error) {
        this.failed('Failed to load partitions info.', { mount_point: mount.mountPoint, error: usage.message });
        continue;
      }
      const tags: MetricTags = { filesystem: mount.fileSystem, mountpoint: mount.mountPoint };
      if (mount.device !== undefined) tags.device = mount.device;
      const total = usage.blocks * usage.bsize;
      const free = usage.bavail * usage.bsize;
      const used = (usage.blocks - usage.bfree) * usage.bsize;
      buffer.gauge('filesystem_free_bytes', free, tags);
      buffer.gauge('filesystem_total_bytes', total, tags);
      buffer.gauge('filesystem_used_bytes', used, tags);
      buffer.gauge('filesystem_used_ratio', used + free === 0 ? 0 : single(used / (used + free)), tags);
      const inodesUsed = Math.max(usage.files - usage.ffree, 0);
      buffer.gauge('filesystem_inodes_total', usage.files, tags);
      buffer.gauge('filesystem_inodes_free', usage.ffree, tags);
      buffer.gauge('filesystem_inodes_used', inodesUsed, tags);
      buffer.gauge('filesystem_inodes_used_ratio', usage.files > 0 ? inodesUsed / usage.files : 0, tags);
    }
  }

  private async load(buffer: MetricsBuffer): Promise<void> {
    buffer.collector = 'load';
    const load = await loadAverage(this.roots);
    if (load === undefined) return this.failed('Failed to load average info');
    buffer.gauge('load1', single(load[0]));
    buffer.gauge('load5', single(load[1]));
    buffer.gauge('load15', single(load[2]));
  }

  private async host(buffer: MetricsBuffer): Promise<void> {
    buffer.collector = 'host';
    const [seconds, stat] = await Promise.all([uptime(this.roots), procStat(this.roots)]);
    if (seconds === undefined) this.failed('Failed to load host uptime info');
    else buffer.gauge('uptime', seconds);
    if (stat?.bootTime === undefined) this.failed('Failed to load host boot time info');
    else buffer.gauge('boot_time', stat.bootTime);
  }

  private async memory(buffer: MetricsBuffer): Promise<void> {
    buffer.collector = 'memory';
    const [info, swapped] = await Promise.all([memoryInfo(this.roots), swappedBytes(this.roots)]);
    if (info === undefined) {
      this.failed('Failed to load memory info.');
      this.failed('Failed to load swap info.');
      return;
    }
    const field = (name: string) => info.get(name) ?? 0;
    buffer.gauge('memory_total_bytes', field('MemTotal'));
    buffer.gauge('memory_free_bytes', field('MemFree'));
    buffer.gauge('memory_available_bytes', field('MemAvailable'));
    buffer.gauge('memory_active_bytes', field('Active'));
    buffer.gauge('memory_buffers_bytes', field('Buffers'));
    buffer.gauge('memory_cached_bytes', field('Cached'));
    buffer.gauge('memory_shared_bytes', field('Shmem'));
    buffer.gauge(
      'memory_used_bytes',
      usedMemory(field('MemTotal'), field('MemFree'), field('Buffers'), field('Cached')),
    );
    buffer.gauge('memory_swap_free_bytes', field('SwapFree'));
    buffer.gauge('memory_swap_total_bytes', field('SwapTotal'));
    buffer.gauge('memory_swap_used_bytes', field('SwapTotal') - field('SwapFree'));
    buffer.counter('memory_swapped_in_bytes_total', swapped.in ?? 0);
    buffer.counter('memory_swapped_out_bytes_total', swapped.out ?? 0);
  }

  private async network(buffer: MetricsBuffer): Promise<void> {
    buffer.collector = 'network';
    const interfaces = await networkInterfaces(this.roots);
    if (interfaces === undefined) return this.failed('Failed to load network I/O counters.');
    for (const counters of interfaces) {
      if (!this.filters.network.contains(counters.device)) continue;
      const tags = { device: counters.device };
      buffer.counter('network_receive_bytes_total', counters.receiveBytes, tags);
      buffer.counter('network_receive_errs_total', counters.receiveErrs, tags);
      buffer.counter('network_receive_packets_total', counters.receivePackets, tags);
      buffer.counter('network_transmit_bytes_total', counters.transmitBytes, tags);
      buffer.counter('network_transmit_packets_drop_total', counters.transmitDrop, tags);
      buffer.counter('network_transmit_packets_total', counters.transmitPackets, tags);
      buffer.counter('network_transmit_errs_total', counters.transmitErrs, tags);
    }
  }

  private async tcp(buffer: MetricsBuffer): Promise<void> {
    buffer.collector = 'tcp';
    const sockets = await tcpSockets(this.roots);
    if (sockets === undefined) return this.failed('Failed to load tcp connection info.');
    for (const [state, count] of sockets.states) buffer.gauge('tcp_connections_total', count, { state });
    buffer.gauge('tcp_tx_queued_bytes_total', sockets.transmitQueued);
    buffer.gauge('tcp_rx_queued_bytes_total', sockets.receiveQueued);
  }
}

const definition: SourceDefinition<HostMetricsOptions> = {
  kind: 'source',
  type: 'host_metrics',
  description: 'Collect metric data from the local system.',
  options,
  outputs: () => [{ name: undefined, kinds: ['metric'] }],
  async build(options, env) {
    const scraper = new HostMetricsScraper(options, env, machineRoots(process.env));
    return {
      run: (context) =>
        scrapeEvery(options.scrape_interval_secs, context, env.chunkSize, async () => {
          env.telemetry.receivedRaw(0);
          return (await scraper.scrape()).map((metric) => metricEvent(metric));
        }),
    };
  },
};

export default definition;
