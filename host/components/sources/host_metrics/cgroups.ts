// host_metrics's `cgroups` collector: CPU and memory figures of each control group under `base`, down
// `levels` levels, from the cgroup filesystem under SYSFS_ROOT (or `base_dir`). As Vector does, it finds the
// layout from the files there: cgroups v2 (`cgroup.controllers` at the root), hybrid (v2 under `unified`,
// v1 beside it: both are scanned) or v1 (the `memory` and `cpu` hierarchies).

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { z } from 'zod';
import { readText, type MachineRoots } from '../../support/procfs.js';
import { filterOption, type FilterList } from './filter.js';
import type { MetricsBuffer } from './buffer.js';

export const cgroupsSchema = z
  .strictObject({
    levels: z.number().int().nonnegative().default(100),
    base: z.string().optional(),
    groups: filterOption,
    /** Hidden in Vector: the cgroup filesystem's root, instead of SYSFS_ROOT's `fs/cgroup`. */
    base_dir: z.string().optional(),
  })
  .default({ levels: 100, groups: { includes: ['*'] } });
type CgroupsOptions = z.infer<typeof cgroupsSchema>;

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;
const isDirectory = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/** A cgroup's name joined to a child's: the root's name is `/`, the others are relative. */
const joinName = (name: string, child: string) => (name === '/' ? child : `${name}/${child}`);
const joinPath = (base: string, name: string) => (name === '/' ? base : join(base, name));

/** `key value` lines (cpu.stat, memory.stat): the keys asked for, 0 when absent; undefined when the file is
 * missing; throws when a value is not a count. */
async function statFile<Key extends string>(
  path: string,
  keys: readonly Key[],
): Promise<Record<Key, number> | undefined> {
  const text = await readText(path);
  if (text === undefined) return undefined;
  const stat = Object.fromEntries(keys.map((key) => [key, 0])) as Record<Key, number>;
  for (const line of text.split('\n')) {
    const key = keys.find((name) => line.startsWith(`${name} `));
    if (key === undefined) continue;
    const value = line.slice(key.length + 1);
    if (!/^\d+$/.test(value)) throw new Error(`Could not parse cgroup data file "${path}".`);
    stat[key] = Number(value);
  }
  return stat;
}

const MICROSECONDS = 1e-6;

export async function cgroupMetrics(
  options: CgroupsOptions,
  groups: FilterList,
  roots: MachineRoots,
  buffer: MetricsBuffer,
  failed: (message: string, fields?: Record<string, string>) => void,
): Promise<void> {
  const base = options.base_dir ?? join(roots.sysfs, 'fs/cgroup');
  const root = options.base ?? '/';

  async function visit(path: string, name: string, level: number, cpu: boolean, memory: boolean): Promise<void> {
    const tags = { cgroup: name, collector: 'cgroups' };
    try {
      const stat = cpu ? await statFile(join(path, 'cpu.stat'), ['usage_usec', 'user_usec', 'system_usec']) : undefined;
      if (stat) {
        buffer.counter('cgroup_cpu_usage_seconds_total', stat.usage_usec * MICROSECONDS, tags);
        buffer.counter('cgroup_cpu_user_seconds_total', stat.user_usec * MICROSECONDS, tags);
        buffer.counter('cgroup_cpu_system_seconds_total', stat.system_usec * MICROSECONDS, tags);
      }
    } catch (error) {
      failed('Failed to load cgroups CPU statistics.', { error: (error as Error).message });
    }
    if (memory) {
      const current = await readText(join(path, 'memory.current'));
      if (current !== undefined && /^\d+$/.test(current.trim()))
        buffer.gauge('cgroup_memory_current_bytes', Number(current.trim()), tags);
      else if (current !== undefined) failed('Failed to load cgroups current memory.');
      try {
        const keys = ['anon', 'file', 'active_anon', 'inactive_anon', 'active_file', 'inactive_file'] as const;
        const stat = await statFile(join(path, 'memory.stat'), keys);
        if (stat) {
          buffer.gauge('cgroup_memory_anon_bytes', stat.anon, tags);
          buffer.gauge('cgroup_memory_file_bytes', stat.file, tags);
          buffer.gauge('cgroup_memory_anon_active_bytes', stat.active_anon, tags);
          buffer.gauge('cgroup_memory_anon_inactive_bytes', stat.inactive_anon, tags);
          buffer.gauge('cgroup_memory_file_active_bytes', stat.active_file, tags);
          buffer.gauge('cgroup_memory_file_inactive_bytes', stat.inactive_file, tags);
        }
      } catch (error) {
        failed('Failed to load cgroups memory statistics.', { error: (error as Error).message });
      }
    }
    if (level >= options.levels) return;
    let children: string[];
    try {
      const entries = await readdir(path, { withFileTypes: true });
      children = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch (error) {
      return failed('Failed to load cgroups children.', { error: (error as Error).message });
    }
    for (const child of children.sort()) {
      const childName = joinName(name, child);
      if (groups.contains(childName)) await visit(join(path, child), childName, level + 1, cpu, memory);
    }
  }

  const modern = (dir: string) => visit(joinPath(dir, root), root, 1, true, true);
  const legacy = async (dir: string) => {
    await visit(joinPath(join(dir, 'memory'), root), root, 1, false, true);
    await visit(joinPath(join(dir, 'cpu'), root), root, 1, true, false);
  };
  if (isFile(join(base, 'unified', 'cgroup.controllers'))) {
    await legacy(base);
    await modern(join(base, 'unified'));
  } else if (isFile(join(base, 'cgroup.controllers'))) {
    await modern(base);
  } else if (isDirectory(join(base, 'cpu'))) {
    await legacy(base);
  }
}
