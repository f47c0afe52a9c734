// A terminal program under test in tmux: a detached session on a private server (its own socket), keys sent
// with send-keys, the screen read with capture-pane. The command's exit status shows on the screen after it.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Whether tmux can be run here. */
export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V']).status === 0;
}

let sessions = 0;

/** `text` quoted for the shell that runs a tmux session's command. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export class TmuxSession {
  private readonly socket = `svc-test-${process.pid}-${++sessions}`;

  /**
   * Starts `command` (program and arguments) in a `columns`×`rows` terminal with `env`. When it ends, the
   * screen shows `[exit N]` and stays until `kill()`.
   */
  constructor(command: readonly string[], columns: number, rows: number, env: NodeJS.ProcessEnv) {
    const line = `${command.map(shellQuote).join(' ')}; echo "[exit $?]"; sleep 600`;
    // The server takes its environment, and so the command's, from the client that starts it.
    this.tmux(['new-session', '-d', '-s', 'test', '-x', String(columns), '-y', String(rows), line], env);
  }

  private tmux(args: string[], env: NodeJS.ProcessEnv = process.env): string {
    const result = spawnSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', env });
    if (result.status !== 0) throw new Error(`tmux ${args[0]} failed: ${result.stderr}`);
    return result.stdout;
  }

  /** The visible screen, one string per line. */
  screen(): string {
    return this.tmux(['capture-pane', '-p', '-t', 'test']);
  }

  /** Polls the screen until `ready(screen)` holds; rejects with the last screen after `timeoutMs`. */
  async waitForScreen(ready: (screen: string) => boolean, what: string, timeoutMs = 60000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (ready(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Sends tmux key names (`q`, `Escape`, `C-c`). */
  sendKeys(...keys: string[]): void {
    this.tmux(['send-keys', '-t', 'test', ...keys]);
  }

  /** Sends `signal` to the command (the child of the session's shell). */
  signal(signal: NodeJS.Signals): void {
    const shell = this.tmux(['display-message', '-p', '-t', 'test', '#{pane_pid}']).trim();
    const [command] = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(' ');
    process.kill(Number(command), signal);
  }

  resize(columns: number, rows: number): void {
    this.tmux(['resize-window', '-t', 'test', '-x', String(columns), '-y', String(rows)]);
  }

  /** Ends the session and its server (and so the command, if still running). */
  kill(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server']);
  }
}
