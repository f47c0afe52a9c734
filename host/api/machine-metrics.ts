// The machine's metrics as the API's `hostMetrics` query serves them, read from procfs and sysfs as Vector's
// host_metrics source reads them (PROCFS_ROOT and SYSFS_ROOT move the roots, e.g. to a machine's /proc
// mounted into a container). Values are Vector's series in its units (bytes, seconds, counts). Where
// Vector has one series per CPU, interface, filesystem or disk, a field is their sum: the schema
// describes machine totals ("Total bytes received"), while Vector's resolver returned the first series only.
// A value that cannot be read is 0 in a non-null field (Vector's default) and null in a nullable one.

import { statfs } from 'node:fs/promises';
import {
  diskDevices,
  loadAverage,
  memoryInfo,
  mounts,
  networkInterfaces,
  physicalFileSystems,
  procStat,
  swappedBytes,
  USER_HZ,
  usedMemory,
  wholeDisks,
  type InterfaceCounters,
  type MachineRoots,
} from '../components/support/procfs.js';

export { machineRoots } from '../components/support/procfs.js';

interface MemoryMetrics {
  totalBytes: number;
  freeBytes: number;
  availableBytes: number;
  activeBytes: number | null;
  buffersBytes: number | null;
  cachedBytes: number | null;
  sharedBytes: number | null;
  usedBytes: number | null;
  /** macOS only in Vector: always null here. */
  inactiveBytes: null;
  wiredBytes: null;
}

interface SwapMetrics {
  freeBytes: number;
  totalBytes: number;
  usedBytes: number;
  swappedInBytesTotal: number | null;
  swappedOutBytesTotal: number | null;
}

interface CpuMetrics {
  cpuSecondsTotal: number;
}

interface LoadAverageMetrics {
  load1: number;
  load5: number;
  load15: number;
}

interface NetworkMetrics {
  receiveBytesTotal: number;
  receiveErrsTotal: number;
  receivePacketsTotal: number;
  transmitBytesTotal: number;
  transmitErrsTotal: number;
  transmitPacketsDropTotal: number | null;
  transmitPacketsTotal: number | null;
}

interface FileSystemMetrics {
  freeBytes: number;
  totalBytes: number;
  usedBytes: number;
}

interface DiskMetrics {
  readBytesTotal: number;
  readsCompletedTotal: number;
  writtenBytesTotal: number;
  writesCompletedTotal: number;
}

/** The `MachineMetrics` object: each group is read only when a query selects it. */
export interface MachineMetrics {
  memory(): Promise<MemoryMetrics>;
  swap(): Promise<SwapMetrics>;
  cpu(): Promise<CpuMetrics>;
  loadAverage(): Promise<LoadAverageMetrics | null>;
  network(): Promise<NetworkMetrics>;
  filesystem(): Promise<FileSystemMetrics>;
  disk(): Promise<DiskMetrics>;
}

export function machineMetrics(roots: MachineRoots): MachineMetrics {
  return {
    memory: () => memoryMetrics(roots),
    swap: () => swapMetrics(roots),
    cpu: () => cpuMetrics(roots),
    loadAverage: () => loadAverageMetrics(roots),
    network: () => networkMetrics(roots),
    filesystem: () => fileSystemMetrics(roots),
    disk: () => diskMetrics(roots),
  };
}

async function memoryMetrics(roots: MachineRoots): Promise<MemoryMetrics> {
  const info = (await memoryInfo(roots)) ?? new Map<string, number>();
  const total = info.get('MemTotal');
  const free = info.get('MemFree');
  const buffers = info.get('Buffers');
  const cached = info.get('Cached');
  return {
    totalBytes: total ?? 0,
    freeBytes: free ?? 0,
    availableBytes: info.get('MemAvailable') ?? 0,
    activeBytes: info.get('Active') ?? null,
    buffersBytes: buffers ?? null,
    cachedBytes: cached ?? null,
    sharedBytes: info.get('Shmem') ?? null,
    usedBytes:
      total === undefined || free === undefined || buffers === undefined || cached === undefined
        ? null
        : usedMemory(total, free, buffers, cached),
    inactiveBytes: null,
    wiredBytes: null,
  };
}

async function swapMetrics(roots: MachineRoots): Promise<SwapMetrics> {
  const [info, swapped] = await Promise.all([memoryInfo(roots), swappedBytes(roots)]);
  const total = info?.get('SwapTotal') ?? 0;
  const free = info?.get('SwapFree') ?? 0;
  return {
    freeBytes: free,
    totalBytes: total,
    usedBytes: total - free,
    swappedInBytesTotal: swapped.in ?? null,
    swappedOutBytesTotal: swapped.out ?? null,
  };
}

/** Vector's `cpu_seconds_total` series are the idle, io_wait, nice, system and user times of each CPU; the
 * `cpu` line of /proc/stat holds each of them summed over the CPUs. */
async function cpuMetrics(roots: MachineRoots): Promise<CpuMetrics> {
  const total = (await procStat(roots))?.total;
  const ticks = total ? total.user + total.nice + total.system + total.idle + total.iowait : 0;
  return { cpuSecondsTotal: ticks / USER_HZ };
}

async function loadAverageMetrics(roots: MachineRoots): Promise<LoadAverageMetrics | null> {
  const load = await loadAverage(roots);
  return load ? { load1: load[0], load5: load[1], load15: load[2] } : null;
}

async function networkMetrics(roots: MachineRoots): Promise<NetworkMetrics> {
  const interfaces = await networkInterfaces(roots);
  const sum = (counter: (counters: InterfaceCounters) => number) =>
    (interfaces ?? []).reduce((total, counters) => total + counter(counters), 0);
  const known = interfaces !== undefined;
  return {
    receiveBytesTotal: sum((c) => c.receiveBytes),
    receiveErrsTotal: sum((c) => c.receiveErrs),
    receivePacketsTotal: sum((c) => c.receivePackets),
    transmitBytesTotal: sum((c) => c.transmitBytes),
    transmitErrsTotal: sum((c) => c.transmitErrs),
    transmitPacketsDropTotal: known ? sum((c) => c.transmitDrop) : null,
    transmitPacketsTotal: known ? sum((c) => c.transmitPackets) : null,
  };
}

/** Filesystems on block devices (psutil's test; heim keeps a list of the same types). A device mounted twice
 * (bind mounts) counts once. */
async function fileSystemMetrics(roots: MachineRoots): Promise<FileSystemMetrics> {
  const [physical, list] = await Promise.all([physicalFileSystems(roots), mounts(roots)]);
  const mountPoints = new Map<string, string>();
  for (const mount of list ?? []) {
    if (mount.device === undefined || !physical.has(mount.fileSystem) || mountPoints.has(mount.device)) continue;
    mountPoints.set(mount.device, mount.mountPoint);
  }
  const usages = await Promise.all([...mountPoints.values()].map((path) => statfs(path).catch(() => undefined)));
  const totals: FileSystemMetrics = { freeBytes: 0, totalBytes: 0, usedBytes: 0 };
  for (const usage of usages) {
    if (usage === undefined) continue;
    // heim: free is what unprivileged users may still use, used counts the blocks reserved for root too.
    totals.totalBytes += usage.blocks * usage.bsize;
    totals.freeBytes += usage.bavail * usage.bsize;
    totals.usedBytes += (usage.blocks - usage.bfree) * usage.bsize;
  }
  return totals;
}

/** Whole disks only: partitions (and devices of partitions) would count the same I/O twice. Without sysfs
 * every device counts. */
async function diskMetrics(roots: MachineRoots): Promise<DiskMetrics> {
  const [devices, disks] = await Promise.all([diskDevices(roots), wholeDisks(roots)]);
  const totals: DiskMetrics = {
    readBytesTotal: 0,
    readsCompletedTotal: 0,
    writtenBytesTotal: 0,
    writesCompletedTotal: 0,
  };
  for (const device of devices ?? []) {
    if (disks !== undefined && !disks.has(device.device)) continue;
    totals.readsCompletedTotal += device.readsCompleted;
    totals.readBytesTotal += device.readBytes;
    totals.writesCompletedTotal += device.writesCompleted;
    totals.writtenBytesTotal += device.writtenBytes;
  }
  return totals;
}
