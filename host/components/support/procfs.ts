// The machine's figures as Linux exposes them in procfs and sysfs, parsed as heim and sysinfo (the libraries
// behind Vector's host_metrics source) parse them, in Vector's units (bytes, seconds, counts). PROCFS_ROOT
// and SYSFS_ROOT move the roots (a host's /proc mounted into a container). Shared by the `host_metrics`
// source (one series per CPU, device, mount…) and the API's `hostMetrics` query (machine totals). A reader
// resolves to undefined when its file cannot be read.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface MachineRoots {
  procfs: string;
  sysfs: string;
}

export function machineRoots(env: NodeJS.ProcessEnv): MachineRoots {
  return { procfs: env.PROCFS_ROOT || '/proc', sysfs: env.SYSFS_ROOT || '/sys' };
}

/** /proc/stat counts CPU time in USER_HZ ticks, which Linux fixes at 100 per second for user space. */
export const USER_HZ = 100;
/** /proc/diskstats counts 512-byte sectors whatever the device's own sector size. */
const SECTOR_BYTES = 512;
/** Pages of /proc/vmstat's pswpin/pswpout and of a process's resident set: 4 KiB, as heim and psutil take them
 * (Node has no sysconf to ask). */
const PAGE_BYTES = 4096;

export async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');
const numbers = (text: string) => text.trim().split(/\s+/).map(Number);

/** `Name: value [kB]` lines (meminfo) or `name value` lines (vmstat), in bytes where a unit says kB. */
function keyedValues(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\S+?):?\s+(\d+)(\s+kB)?\s*$/.exec(line);
    if (match) values.set(match[1]!, Number(match[2]) * (match[3] ? 1024 : 1));
  }
  return values;
}

/** /proc/meminfo, in bytes, by field name. */
export async function memoryInfo(roots: MachineRoots): Promise<Map<string, number> | undefined> {
  const text = await readText(join(roots.procfs, 'meminfo'));
  return text === undefined ? undefined : keyedValues(text);
}

/** What heim counts as used memory, after procps: inside some containers the page cache exceeds what the
 * container's MemTotal leaves, and then only free memory is subtracted. */
export function usedMemory(total: number, free: number, buffers: number, cached: number): number {
  const used = total - free - buffers - cached;
  return used > 0 ? used : total - free;
}

/** Bytes swapped in and out since boot (/proc/vmstat's pswpin and pswpout pages). */
export async function swappedBytes(roots: MachineRoots): Promise<{ in?: number; out?: number }> {
  const vmstat = keyedValues((await readText(join(roots.procfs, 'vmstat'))) ?? '');
  const pages = (name: string) => {
    const count = vmstat.get(name);
    return count === undefined ? undefined : count * PAGE_BYTES;
  };
  return { in: pages('pswpin'), out: pages('pswpout') };
}

/** One line of /proc/stat's CPU times, in ticks (USER_HZ). */
export interface CpuTimes {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number;
  /** Every column summed (what the time of one tick on all CPUs is measured against). */
  all: number;
}

function cpuTimes(line: string): CpuTimes {
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, ...rest] = numbers(line)
    .slice(1)
    .map((ticks) => (Number.isFinite(ticks) ? ticks : 0));
  const all = [user, nice, system, idle, iowait, ...rest.slice(0, 3)].reduce((sum, value) => sum + value, 0);
  return { user, nice, system, idle, iowait, all };
}

/** /proc/stat: the times summed over the CPUs (`cpu`), each CPU's in order (`cpuN`), and the boot time. */
export async function procStat(
  roots: MachineRoots,
): Promise<{ total?: CpuTimes; cpus: CpuTimes[]; bootTime?: number } | undefined> {
  const text = await readText(join(roots.procfs, 'stat'));
  if (text === undefined) return undefined;
  const stat: { total?: CpuTimes; cpus: CpuTimes[]; bootTime?: number } = { cpus: [] };
  for (const line of lines(text)) {
    if (/^cpu\s/.test(line)) stat.total = cpuTimes(line);
    else if (/^cpu\d+\s/.test(line)) stat.cpus.push(cpuTimes(line));
    else if (line.startsWith('btime ')) stat.bootTime = Number(line.slice(6));
  }
  return stat;
}

/** A CPU list of sysfs (`0-3,6`), counted. */
function cpuListCount(list: string): number {
  let count = 0;
  for (const range of list.trim().split(',').filter(Boolean)) {
    const [from, to = from] = range.split('-').map(Number);
    count += to! - from! + 1;
  }
  return count;
}

/** The CPUs online (what sysconf answers, from sysfs), else /proc/cpuinfo's processors, else /proc/stat's
 * CPU lines: heim's order. */
export async function logicalCpuCount(roots: MachineRoots): Promise<number | undefined> {
  const online = await readText(join(roots.sysfs, 'devices/system/cpu/online'));
  if (online !== undefined && cpuListCount(online) > 0) return cpuListCount(online);
  const cpuinfo = await readText(join(roots.procfs, 'cpuinfo'));
  const processors = lines(cpuinfo ?? '').filter((line) => line.startsWith('processor')).length;
  if (processors > 0) return processors;
  const count = (await procStat(roots))?.cpus.length;
  return count ? count : undefined;
}

/** Distinct core ids of sysfs's CPU topology, else distinct (physical id, core id) pairs of /proc/cpuinfo:
 * heim's count of physical CPUs; undefined when neither tells. */
export async function physicalCpuCount(roots: MachineRoots): Promise<number | undefined> {
  const cpuDir = join(roots.sysfs, 'devices/system/cpu');
  const cpus = ((await readdir(cpuDir).catch(() => [])) as string[]).filter((name) => /^cpu\d+$/.test(name));
  const cores = new Set(
    (await Promise.all(cpus.map((cpu) => readText(join(cpuDir, cpu, 'topology/core_id')))))
      .filter((id) => id !== undefined)
      .map((id) => id.trim()),
  );
  if (cores.size > 0) return cores.size;
  const pairs = new Set<string>();
  let physicalId: string | undefined;
  for (const line of lines((await readText(join(roots.procfs, 'cpuinfo'))) ?? '')) {
    const value = line.split(':')[1]?.trim();
    if (line.startsWith('physical id')) physicalId = value;
    else if (line.startsWith('core id') && physicalId !== undefined) pairs.add(`${physicalId}:${value}`);
  }
  return pairs.size > 0 ? pairs.size : undefined;
}

export async function loadAverage(roots: MachineRoots): Promise<[number, number, number] | undefined> {
  const [load1, load5, load15] = numbers((await readText(join(roots.procfs, 'loadavg'))) ?? '');
  if (![load1, load5, load15].every((value) => Number.isFinite(value))) return undefined;
  return [load1!, load5!, load15!];
}

/** Seconds since boot (/proc/uptime). */
export async function uptime(roots: MachineRoots): Promise<number | undefined> {
  const [seconds] = numbers((await readText(join(roots.procfs, 'uptime'))) ?? '');
  return Number.isFinite(seconds) ? seconds : undefined;
}

/** An interface's counters of /proc/net/dev. */
export interface InterfaceCounters {
  device: string;
  receiveBytes: number;
  receivePackets: number;
  receiveErrs: number;
  transmitBytes: number;
  transmitPackets: number;
  transmitErrs: number;
  transmitDrop: number;
}

/** /proc/net/dev: after `iface:`, receive bytes packets errs drop fifo frame compressed multicast, then
 * transmit bytes packets errs drop …. */
export async function networkInterfaces(roots: MachineRoots): Promise<InterfaceCounters[] | undefined> {
  const text = await readText(join(roots.procfs, 'net', 'dev'));
  if (text === undefined) return undefined;
  const interfaces: InterfaceCounters[] = [];
  for (const line of lines(text)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const column = numbers(line.slice(colon + 1));
    const at = (index: number) => (Number.isFinite(column[index]) ? column[index]! : 0);
    interfaces.push({
      device: line.slice(0, colon).trim(),
      receiveBytes: at(0),
      receivePackets: at(1),
      receiveErrs: at(2),
      transmitBytes: at(8),
      transmitPackets: at(9),
      transmitErrs: at(10),
      transmitDrop: at(11),
    });
  }
  return interfaces;
}

/** A device's counters of /proc/diskstats. */
export interface DiskCounters {
  device: string;
  readsCompleted: number;
  readBytes: number;
  writesCompleted: number;
  writtenBytes: number;
}

/** Every device of /proc/diskstats (disks and partitions), as heim lists them. */
export async function diskDevices(roots: MachineRoots): Promise<DiskCounters[] | undefined> {
  const text = await readText(join(roots.procfs, 'diskstats'));
  if (text === undefined) return undefined;
  const devices: DiskCounters[] = [];
  for (const line of lines(text)) {
    // major minor name reads reads_merged sectors_read ms_reading writes writes_merged sectors_written …
    const [, , device, ...fields] = line.trim().split(/\s+/);
    const [reads, , sectorsRead, , writes, , sectorsWritten] = fields.map(Number);
    if (device === undefined || ![reads, sectorsRead, writes, sectorsWritten].every((value) => Number.isFinite(value)))
      continue;
    devices.push({
      device,
      readsCompleted: reads!,
      readBytes: sectorsRead! * SECTOR_BYTES,
      writesCompleted: writes!,
      writtenBytes: sectorsWritten! * SECTOR_BYTES,
    });
  }
  return devices;
}

/** Whole disks: the names under /sys/block (where a `/` of a device name is a `!`); undefined without sysfs. */
export async function wholeDisks(roots: MachineRoots): Promise<Set<string> | undefined> {
  return readdir(join(roots.sysfs, 'block')).then(
    (names) => new Set(names.map((name) => name.replaceAll('!', '/'))),
    () => undefined,
  );
}

/** A line of /proc/mounts; `device` is undefined for `none`, as heim has it. */
export interface Mount {
  device: string | undefined;
  mountPoint: string;
  fileSystem: string;
}

/** /proc/mounts escapes space, tab, newline and backslash in paths as octal. */
function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

export async function mounts(roots: MachineRoots): Promise<Mount[] | undefined> {
  const text = await readText(join(roots.procfs, 'mounts'));
  if (text === undefined) return undefined;
  const list: Mount[] = [];
  for (const line of lines(text)) {
    const [device, mountPoint, fileSystem, options] = line.split(' ');
    if (device === undefined || mountPoint === undefined || fileSystem === undefined || options === undefined) continue;
    list.push({
      device: device === 'none' ? undefined : unescapeMountField(device),
      mountPoint: unescapeMountField(mountPoint),
      fileSystem,
    });
  }
  return list;
}

/** Filesystem types on block devices: those /proc/filesystems does not mark `nodev` (and zfs). */
export async function physicalFileSystems(roots: MachineRoots): Promise<Set<string>> {
  const types = new Set<string>();
  for (const line of lines((await readText(join(roots.procfs, 'filesystems'))) ?? '')) {
    const [flag, type] = line.split('\t');
    if (type !== undefined && (flag !== 'nodev' || type.trim() === 'zfs')) types.add(type.trim());
  }
  return types;
}

/** A process of /proc/<pid>: what sysinfo reads of it. */
export interface ProcessFigures {
  pid: number;
  /** The command name (`comm`, at most 15 bytes). */
  name: string;
  /** The arguments of its command line. */
  command: string[];
  /** User and system CPU time, in ticks. */
  cpuTicks: number;
  residentBytes: number;
  virtualBytes: number;
  /** When it started, in ticks since boot. */
  startTicks: number;
}

async function processFigures(dir: string, pid: number): Promise<ProcessFigures | undefined> {
  const [stat, cmdline] = await Promise.all([readText(join(dir, 'stat')), readText(join(dir, 'cmdline'))]);
  // `pid (comm) state …`: comm may hold spaces and parentheses, so it ends at the last `)`.
  const open = stat?.indexOf('(') ?? -1;
  const close = stat?.lastIndexOf(')') ?? -1;
  if (stat === undefined || open < 0 || close < open) return undefined;
  // Fields from the state on (stat's third field): utime 14, stime 15, starttime 22, vsize 23, rss 24.
  const field = (number: number) => Number(stat.slice(close + 2).split(' ')[number - 3]);
  return {
    pid,
    name: stat.slice(open + 1, close),
    command: (cmdline ?? '').split('\0').filter((arg, index, args) => arg !== '' || index < args.length - 1),
    cpuTicks: field(14) + field(15),
    residentBytes: field(24) * PAGE_BYTES,
    virtualBytes: field(23),
    startTicks: field(22),
  };
}

const numbered = (names: string[]) => names.filter((name) => /^\d+$/.test(name));

/** Every process of procfs and, as sysinfo lists them by default on Linux, every other thread of each
 * (`/proc/<pid>/task/<tid>`, its id as pid). */
export async function processes(roots: MachineRoots): Promise<ProcessFigures[]> {
  const pids = numbered(await readdir(roots.procfs).catch(() => []));
  const figures = await Promise.all(
    pids.map(async (pid) => {
      const dir = join(roots.procfs, pid);
      const tids = numbered(await readdir(join(dir, 'task')).catch(() => [])).filter((tid) => tid !== pid);
      return Promise.all([
        processFigures(dir, Number(pid)),
        ...tids.map((tid) => processFigures(join(dir, 'task', tid), Number(tid))),
      ]);
    }),
  );
  return figures.flat().filter((process) => process !== undefined);
}

/** The kernel's TCP states, by the number /proc/net/tcp shows in hex (`st`). */
const TCP_STATES = [
  'established',
  'syn_sent',
  'syn_recv',
  'fin_wait1',
  'fin_wait2',
  'time_wait',
  'close',
  'close_wait',
  'last_ack',
  'listen',
  'closing',
];

/** TCP sockets over IPv4 and IPv6: how many in each state, and the bytes queued to send and to read. */
export async function tcpSockets(
  roots: MachineRoots,
): Promise<{ states: Map<string, number>; transmitQueued: number; receiveQueued: number } | undefined> {
  const tables = await Promise.all(['tcp', 'tcp6'].map((name) => readText(join(roots.procfs, 'net', name))));
  if (tables[0] === undefined) return undefined;
  const stats = { states: new Map<string, number>(), transmitQueued: 0, receiveQueued: 0 };
  for (const table of tables) {
    // sl local_address rem_address st tx_queue:rx_queue …, after a header line.
    for (const line of lines(table ?? '').slice(1)) {
      const [, , , st, queues] = line.trim().split(/\s+/);
      const state = TCP_STATES[parseInt(st ?? '', 16) - 1];
      if (state === undefined) continue;
      const [transmit, receive] = (queues ?? '').split(':').map((hex) => parseInt(hex, 16));
      stats.states.set(state, (stats.states.get(state) ?? 0) + 1);
      stats.transmitQueued += Number.isFinite(transmit) ? transmit! : 0;
      stats.receiveQueued += Number.isFinite(receive) ? receive! : 0;
    }
  }
  return stats;
}
