// The machine's metrics as the API's `hostMetrics` query serves them, read from procfs and sysfs as Vector's
// host_metrics source reads them (PROCFS_ROOT and SYSFS_ROOT move the roots, e.g. to a machine's /proc
// mounted into a container). Values are Vector's series in its units (bytes, seconds, counts). Where
// Vector has one series per CPU, interface, filesystem or disk, a field is their sum: the schema
// describes machine totals ("Total bytes received"), while Vector's resolver returned the first series only.
// A value that cannot be read is 0 in a non-null field (Vector's default) and null in a nullable one.

import { readdir, readFile, statfs } from 'node:fs/promises';
import { join } from 'node:path';

export interface MachineRoots {
  procfs: string;
  sysfs: string;
}

export function machineRoots(env: NodeJS.ProcessEnv): MachineRoots {
  return { procfs: env.PROCFS_ROOT || '/proc', sysfs: env.SYSFS_ROOT || '/sys' };
}

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

/** /proc/stat counts CPU time in USER_HZ ticks, which Linux fixes at 100 per second for user space. */
const USER_HZ = 100;
/** /proc/diskstats counts 512-byte sectors whatever the device's own sector size. */
const SECTOR_BYTES = 512;
/** /proc/vmstat's pswpin/pswpout count pages; Vector (like psutil) takes them as 4 KiB. */
const SWAP_PAGE_BYTES = 4096;

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** `Name: value [kB]` lines (meminfo) or `name value` lines (vmstat), in bytes where a unit says kB. */
function keyedValues(text: string | undefined): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text?.split('\n') ?? []) {
    const match = /^(\S+?):?\s+(\d+)(\s+kB)?\s*$/.exec(line);
    if (match) values.set(match[1]!, Number(match[2]) * (match[3] ? 1024 : 1));
  }
  return values;
}

async function memoryMetrics(roots: MachineRoots): Promise<MemoryMetrics> {
  const info = keyedValues(await readText(join(roots.procfs, 'meminfo')));
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

/** What heim (behind Vector's source) counts as used, after procps: inside some containers the page cache
 * exceeds what the container's MemTotal leaves, and then only free memory is subtracted. */
function usedMemory(total: number, free: number, buffers: number, cached: number): number {
  const used = total - free - buffers - cached;
  return used > 0 ? used : total - free;
}

async function swapMetrics(roots: MachineRoots): Promise<SwapMetrics> {
  const [info, vmstat] = await Promise.all([
    readText(join(roots.procfs, 'meminfo')).then(keyedValues),
    readText(join(roots.procfs, 'vmstat')).then(keyedValues),
  ]);
  const total = info.get('SwapTotal') ?? 0;
  const free = info.get('SwapFree') ?? 0;
  const pagesIn = vmstat.get('pswpin');
  const pagesOut = vmstat.get('pswpout');
  return {
    freeBytes: free,
    totalBytes: total,
    usedBytes: total - free,
    swappedInBytesTotal: pagesIn === undefined ? null : pagesIn * SWAP_PAGE_BYTES,
    swappedOutBytesTotal: pagesOut === undefined ? null : pagesOut * SWAP_PAGE_BYTES,
  };
}

/** Vector's `cpu_seconds_total` series are the idle, io_wait, nice, system and user times of each CPU; the
 * `cpu` line of /proc/stat holds each of them summed over the CPUs (user nice system idle iowait …). */
async function cpuMetrics(roots: MachineRoots): Promise<CpuMetrics> {
  const line = (await readText(join(roots.procfs, 'stat')))?.split('\n').find((text) => /^cpu\s/.test(text));
  const [user, nice, system, idle, iowait] = (line?.trim().split(/\s+/).slice(1, 6) ?? []).map(Number);
  const ticks = [user, nice, system, idle, iowait].reduce<number>(
    (sum, value) => sum + (Number.isFinite(value) ? value! : 0),
    0,
  );
  return { cpuSecondsTotal: ticks / USER_HZ };
}

async function loadAverageMetrics(roots: MachineRoots): Promise<LoadAverageMetrics | null> {
  const [load1, load5, load15] = ((await readText(join(roots.procfs, 'loadavg'))) ?? '')
    .trim()
    .split(/\s+/)
    .map(Number);
  if (![load1, load5, load15].every((value) => Number.isFinite(value))) return null;
  return { load1: load1!, load5: load5!, load15: load15! };
}

/** /proc/net/dev columns after `iface:`: receive bytes packets errs drop fifo frame compressed multicast,
 * then transmit bytes packets errs drop …. */
const NET_COLUMNS = {
  receiveBytes: 0,
  receivePackets: 1,
  receiveErrs: 2,
  transmitBytes: 8,
  transmitPackets: 9,
  transmitErrs: 10,
  transmitDrop: 11,
};

async function networkMetrics(roots: MachineRoots): Promise<NetworkMetrics> {
  const text = await readText(join(roots.procfs, 'net', 'dev'));
  const totals = Object.fromEntries(Object.keys(NET_COLUMNS).map((name) => [name, 0])) as Record<
    keyof typeof NET_COLUMNS,
    number
  >;
  for (const line of text?.split('\n') ?? []) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const columns = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    for (const [name, column] of Object.entries(NET_COLUMNS) as Array<[keyof typeof NET_COLUMNS, number]>) {
      totals[name] += Number.isFinite(columns[column]) ? columns[column]! : 0;
    }
  }
  const known = text !== undefined;
  return {
    receiveBytesTotal: totals.receiveBytes,
    receiveErrsTotal: totals.receiveErrs,
    receivePacketsTotal: totals.receivePackets,
    transmitBytesTotal: totals.transmitBytes,
    transmitErrsTotal: totals.transmitErrs,
    transmitPacketsDropTotal: known ? totals.transmitDrop : null,
    transmitPacketsTotal: known ? totals.transmitPackets : null,
  };
}

/** /proc/mounts escapes space, tab, newline and backslash in paths as octal. */
function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** Filesystems on block devices: the types /proc/filesystems does not mark `nodev` (psutil's test; heim
 * keeps a list of the same types). A device mounted twice (bind mounts) counts once. */
async function fileSystemMetrics(roots: MachineRoots): Promise<FileSystemMetrics> {
  const [types, mounts] = await Promise.all([
    readText(join(roots.procfs, 'filesystems')),
    readText(join(roots.procfs, 'mounts')),
  ]);
  const physical = new Set(
    (types ?? '')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('nodev'))
      .map((line) => line.trim()),
  );
  const mountPoints = new Map<string, string>();
  for (const line of mounts?.split('\n') ?? []) {
    const [device, mountPoint, type] = line.split(' ');
    if (
      device === undefined ||
      mountPoint === undefined ||
      type === undefined ||
      !physical.has(type) ||
      mountPoints.has(device)
    )
      continue;
    mountPoints.set(device, unescapeMountField(mountPoint));
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

/** Whole disks only: partitions (and devices of partitions) would count the same I/O twice. The kernel
 * lists whole disks under /sys/block (a `/` in a name is a `!` there); without sysfs every device counts. */
async function diskMetrics(roots: MachineRoots): Promise<DiskMetrics> {
  const [text, blockDevices] = await Promise.all([
    readText(join(roots.procfs, 'diskstats')),
    readdir(join(roots.sysfs, 'block')).then(
      (names) => new Set(names),
      () => undefined,
    ),
  ]);
  const totals: DiskMetrics = {
    readBytesTotal: 0,
    readsCompletedTotal: 0,
    writtenBytesTotal: 0,
    writesCompletedTotal: 0,
  };
  for (const line of text?.split('\n') ?? []) {
    // major minor name reads reads_merged sectors_read ms_reading writes writes_merged sectors_written …
    const [, , name, ...fields] = line.trim().split(/\s+/);
    const [reads, , sectorsRead, , writes, , sectorsWritten] = fields.map(Number);
    if (name === undefined || ![reads, sectorsRead, writes, sectorsWritten].every((value) => Number.isFinite(value)))
      continue;
    if (blockDevices !== undefined && !blockDevices.has(name.replaceAll('/', '!'))) continue;
    totals.readsCompletedTotal += reads!;
    totals.readBytesTotal += sectorsRead! * SECTOR_BYTES;
    totals.writesCompletedTotal += writes!;
    totals.writtenBytesTotal += sectorsWritten! * SECTOR_BYTES;
  }
  return totals;
}
