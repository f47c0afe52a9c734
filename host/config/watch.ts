// The file watcher behind `svc --watch-config` (Vector's `-w`): reports changes of the configuration's
// files and directories, one call per burst of changes, so that the service reloads.
//
//   watchConfig({ paths, method, pollIntervalSecs, onChange, log, delayMs }): ConfigWatcher
//
// - `paths()`: the files and directories to watch (config files, --config-dir directories, files that
//   components read); asked again after each reported burst, since a reload may change the list.
// - `method: 'recommended'` watches events (node:fs `watch`). Editors and Kubernetes replace a file by
//   renaming another over it, which a watch on the file itself loses; so each path's directory is watched
//   and its events filtered by name, and a directory path is also watched itself: every entry created,
//   changed or deleted in it is a change. A symlink's target directory is watched too, and an event under
//   another name in a watched directory counts when the path's state (inode, size, mtime) changed: a
//   ConfigMap update swaps the `..data` symlink, never the file's own name. Events of siblings are ignored.
//   A path whose directory does not exist is not watched (a warning names it). When `fs.watch` fails
//   (EMFILE, the inotify limit ENOSPC), the paths of that directory are polled instead.
// - `method: 'poll'` stats each path (and each entry of a directory) every `pollIntervalSecs`; a change of
//   existence, inode, size, mtime or of a directory's entries is a change. No `fs.watch` at all (NFS).
// - `onChange(changed)` is called once per burst: the first change starts a `delayMs` timer (default 1 s,
//   Vector's CONFIG_WATCH_DELAY), changes meanwhile join it; `changed` lists the changed paths (entries
//   of a watched directory by their own path).
// - `refresh()` asks `paths()` again at once (after a reload, which may have changed the list).
// - `close()` stops every watcher and timer. Nothing here keeps the process alive on its own.

import { type Dirent, type FSWatcher, readdirSync, realpathSync, statSync, watch } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isDynamicPattern } from 'tinyglobby';
import type { Logger } from '../log.js';
import type { Graph } from '../topology/graph.js';
import type { ConfigLocations } from './load.js';

export interface ConfigWatchOptions {
  /** Files and directories to watch (config files, --config-dir dirs, files components read such as a remap
   *  transform's `file`); asked again after each change is reported, since a reload may change the list. */
  paths: () => string[];
  method: 'recommended' | 'poll';
  /** For `poll`: seconds between checks (--watch-config-poll-interval-seconds). */
  pollIntervalSecs: number;
  /** Called once per burst of changes, after they settled (debounce), with the paths that changed. */
  onChange(changed: string[]): void;
  log: Logger;
  /** Debounce in ms; Vector waits 1 s after the first event (its CONFIG_WATCH_DELAY). Tests pass a small one. */
  delayMs?: number;
}

export interface ConfigWatcher {
  /** Asks `paths()` again now (a reload was committed, which may read other files). */
  refresh(): void;
  close(): void;
}

const CONFIG_WATCH_DELAY_MS = 1000;

export function watchConfig(options: ConfigWatchOptions): ConfigWatcher {
  return new Watch(options);
}

/** A path's state: missing, or its inode, size and modification time (a directory: its inode only, its
 *  entries have states of their own). Follows symlinks, so a swapped link changes it. */
function stateOf(path: string): string {
  try {
    const stats = statSync(path, { bigint: true });
    return stats.isDirectory() ? `directory ${stats.ino}` : `${stats.ino} ${stats.size} ${stats.mtimeNs}`;
  } catch {
    return 'missing';
  }
}

/** The states of a listed path and, when it is a directory, of each of its entries. */
function snapshot(path: string): Map<string, string> {
  const states = new Map([[path, stateOf(path)]]);
  if (states.get(path)?.startsWith('directory'))
    for (const name of entriesOf(path)) states.set(join(path, name), stateOf(join(path, name)));
  return states;
}

function entriesOf(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return []; // removed since its stat: its state says so
  }
}

function inodeOf(path: string): bigint | undefined {
  try {
    return statSync(path, { bigint: true }).ino;
  } catch {
    return undefined;
  }
}

/** Compares the states of its paths every interval and reports the paths (or entries) that changed. */
class Poller {
  /** Listed path → the states of its snapshot. */
  private readonly states = new Map<string, Map<string, string>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly report: (path: string) => void,
  ) {}

  /** Polls `paths` from now on; a path polled already keeps its last states, so no change is lost. */
  setPaths(paths: string[]): void {
    for (const path of this.states.keys()) if (!paths.includes(path)) this.states.delete(path);
    for (const path of paths) if (!this.states.has(path)) this.states.set(path, snapshot(path));
    if (this.states.size === 0) this.stop();
    else if (this.timer === undefined) this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.poll();
      this.schedule();
    }, this.intervalMs).unref();
  }

  private poll(): void {
    for (const [path, before] of this.states) {
      const after = snapshot(path);
      for (const key of new Set([...before.keys(), ...after.keys()]))
        if (before.get(key) !== after.get(key)) this.report(key);
      this.states.set(path, after);
    }
  }
}

/** A watched path, for `recommended`. */
interface Target {
  /** Watched directory → the name in it that is this path: its own, and its real path's when a symlink. */
  names: Map<string, string>;
  /** A directory path: its own watcher reports each entry. */
  isDirectory: boolean;
  state: string;
}

class Watch implements ConfigWatcher {
  private readonly delayMs: number;
  private readonly poller: Poller;
  private targets = new Map<string, Target>();
  /** Watched directory → its watcher and the inode it watches (a directory replaced is watched again). */
  private readonly watchers = new Map<string, { watcher: FSWatcher; inode: bigint | undefined }>();
  /** Directories `fs.watch` failed on: the paths needing them are polled. */
  private readonly failed = new Set<string>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: ConfigWatchOptions) {
    this.delayMs = options.delayMs ?? CONFIG_WATCH_DELAY_MS;
    this.poller = new Poller(options.pollIntervalSecs * 1000, (path) => this.changed(path));
    const paths = this.sync();
    options.log.info('Watching configuration files.', { paths: paths.join(', ') });
  }

  refresh(): void {
    if (!this.closed) this.sync();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.poller.stop();
    for (const { watcher } of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Asks for the paths and watches them (again: a replaced directory or symlink target moved); returns them. */
  private sync(): string[] {
    const paths = [...new Set(this.options.paths().map((path) => resolve(path)))];
    if (this.options.method === 'poll') {
      this.poller.setPaths(paths);
      return paths;
    }
    const targets = new Map<string, Target>();
    for (const path of paths) {
      if (inodeOf(dirname(path)) === undefined) {
        this.options.log.warn(`Configuration path ${path} is not watched: its directory does not exist.`);
        continue;
      }
      const names = new Map([[dirname(path), basename(path)]]);
      const real = realPathOf(path);
      if (real !== undefined && real !== path) names.set(dirname(real), basename(real));
      const state = stateOf(path);
      // A path watched already keeps the state its events last saw, so a change since is not lost.
      targets.set(path, {
        names,
        isDirectory: state.startsWith('directory'),
        state: this.targets.get(path)?.state ?? state,
      });
    }
    this.targets = targets;
    const directories = new Set<string>();
    for (const [path, target] of targets) {
      for (const directory of target.names.keys()) directories.add(directory);
      if (target.isDirectory) directories.add(path);
    }
    for (const [directory, { watcher, inode }] of this.watchers)
      if (!directories.has(directory) || inodeOf(directory) !== inode) {
        watcher.close();
        this.watchers.delete(directory);
      }
    for (const directory of directories)
      if (!this.watchers.has(directory) && !this.failed.has(directory)) this.watchDirectory(directory);
    this.pollFailed();
    return paths;
  }

  private watchDirectory(directory: string): void {
    try {
      const watcher = watch(directory, { persistent: false }, (_event, name) => this.event(directory, name));
      watcher.on('error', (error) => {
        this.fail(directory, error);
        this.pollFailed();
      });
      this.watchers.set(directory, { watcher, inode: inodeOf(directory) });
    } catch (error) {
      this.fail(directory, error);
    }
  }

  private fail(directory: string, error: unknown): void {
    this.watchers.get(directory)?.watcher.close();
    this.watchers.delete(directory);
    this.failed.add(directory);
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    this.options.log.warn(
      `Failed to watch ${directory} (${code}): polling its configuration paths every ${this.options.pollIntervalSecs} s instead.`,
    );
  }

  /** Polls the paths whose directories could not be watched. */
  private pollFailed(): void {
    const polled = [...this.targets]
      .filter(([path, target]) =>
        [...target.names.keys(), ...(target.isDirectory ? [path] : [])].some((d) => this.failed.has(d)),
      )
      .map(([path]) => path);
    this.poller.setPaths(polled);
  }

  private event(directory: string, name: string | null): void {
    if (this.closed) return;
    for (const [path, target] of this.targets) {
      // The directory's own watcher names the directory itself when it is deleted or moved away.
      if (target.isDirectory && path === directory)
        this.changed(
          name === null || (name === basename(path) && inodeOf(path) !== this.watchers.get(path)?.inode)
            ? path
            : join(path, name),
        );
      const own = target.names.get(directory);
      if (own === undefined) continue;
      const state = stateOf(path);
      if (name === null || name === own || state !== target.state) this.changed(path);
      target.state = state;
    }
  }

  private changed(path: string): void {
    if (this.closed) return;
    this.pending.add(path);
    if (this.timer === undefined) this.timer = setTimeout(() => this.settle(), this.delayMs).unref();
  }

  private settle(): void {
    this.timer = undefined;
    const changed = [...this.pending];
    this.pending.clear();
    this.options.log.info('Configuration file changed.', { paths: changed.join(', '), internal_log_rate_limit: false });
    this.options.onChange(changed);
    if (!this.closed) this.sync();
  }
}

function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** What `--watch-config` watches: the configuration files (the directory of a glob), the --config-dir
 * directories with their component subdirectories, and the files components read (a remap `file`) and
 * those of the enrichment tables (`tableFiles`). */
export function watchedPaths(locations: ConfigLocations, graph: Graph, tableFiles: readonly string[] = []): string[] {
  const files = locations.files.map((file) => (isDynamicPattern(file.path) ? staticBase(file.path) : file.path));
  const dirs = locations.dirs.flatMap((dir) => withSubdirectories(dir, 2));
  const read = [...graph.components.values()].flatMap((spec) => spec.definition.files?.(spec.options) ?? []);
  return [...new Set([...files, ...dirs, ...read, ...tableFiles])];
}

/** `dir` and the directories under it, `depth` levels down (a --config-dir's `transforms/` and a transform's
 * parts `transforms/<id>/`). */
function withSubdirectories(dir: string, depth: number): string[] {
  if (depth === 0) return [dir];
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [dir];
  }
  const below = entries.filter((entry) => entry.isDirectory());
  return [dir, ...below.flatMap((entry) => withSubdirectories(join(dir, entry.name), depth - 1))];
}

/** The directory a glob's matches are under: its path up to the first segment with a pattern. */
function staticBase(pattern: string): string {
  const segments = pattern.split('/');
  const first = segments.findIndex((segment) => isDynamicPattern(segment));
  return segments.slice(0, first).join('/') || '.';
}
