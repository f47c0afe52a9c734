// svc top's screen, drawn with ink: a header with the API's URL, the sampling interval and the connection's
// state, then the components table filling the terminal (redrawn to its new size when it is resized).
// q, Esc and Ctrl-C quit.

import { createElement as h, useEffect, useRef, useState, useSyncExternalStore, type ReactElement } from 'react';
import { Box, render, Text, useApp, useInput, useStdout } from 'ink';
import { startFeed, type ConnectionLost, type FeedOptions } from './connection.js';
import { applyEvent, connectionText, INITIAL_STATE, type TopEvent, type TopState } from './state.js';
import { COLUMNS, fitColumns, tableLine, tableRows } from './table.js';
import { thousands } from './format.js';

/** The dashboard's state, changed by the feed's events, watched by the screen. */
class Store {
  private state = INITIAL_STATE;
  private readonly listeners = new Set<() => void>();

  readonly getState = (): TopState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly dispatch = (event: TopEvent): void => {
    this.state = applyEvent(this.state, event);
    for (const listener of this.listeners) listener();
  };
}

interface DashboardProps {
  store: Store;
  url: string;
  intervalMs: number;
  human: boolean;
}

/** The terminal's size, updated when it is resized. */
function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const [size, setSize] = useState({ columns: stdout.columns, rows: stdout.rows });
  useEffect(() => {
    const resized = () => setSize({ columns: stdout.columns, rows: stdout.rows });
    stdout.on('resize', resized);
    return () => {
      stdout.off('resize', resized);
    };
  }, [stdout]);
  return size;
}

const CONNECTION_COLORS = { connecting: 'yellow', connected: 'green', disconnected: 'red' } as const;

/** The widest cell of each column so far: columns widen as their numbers grow, and do not jitter back. */
function useColumnWidths(lines: readonly string[][]): number[] {
  const widest = useRef(COLUMNS.map((title) => title.length));
  widest.current = widest.current.map((width, column) => Math.max(width, ...lines.map((line) => line[column]!.length)));
  return widest.current;
}

function Dashboard({ store, url, intervalMs, human }: DashboardProps): ReactElement {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { columns, rows } = useTerminalSize();
  const { exit } = useApp();
  useInput((input, key) => {
    if (input === 'q' || key.escape) exit();
  });

  const lines = tableRows(state, human);
  // The table's box takes two columns for its border and two for its padding.
  const widths = fitColumns(useColumnWidths(lines), columns - 4);
  // The lines that fit below the header box (3 lines), the error line, the table's border (2) and titles
  // (2), above the footer (1): the frame stays a line short of the terminal, as a frame as high as the
  // terminal makes ink clear the screen at each update.
  const room = Math.max(0, rows - 1 - 3 - (state.problem === undefined ? 0 : 1) - 2 - 2 - 1);
  const shown = lines.length <= room ? lines : lines.slice(0, Math.max(0, room - 1));
  return h(
    Box,
    { flexDirection: 'column', width: columns, height: rows - 1 },
    h(
      Box,
      { borderStyle: 'single', paddingX: 1, flexShrink: 0 },
      h(
        Text,
        { wrap: 'truncate-end' },
        h(Text, { bold: true, color: 'green' }, 'svc top'),
        ` | ${url} | Sampling @ ${thousands(intervalMs)}ms | `,
        h(Text, { color: CONNECTION_COLORS[state.connection.state] }, connectionText(state.connection)),
      ),
    ),
    state.problem === undefined
      ? null
      : h(Text, { color: 'red', wrap: 'truncate-end' }, `Last error: ${state.problem}`),
    h(
      Box,
      { borderStyle: 'single', paddingX: 1, flexDirection: 'column', flexGrow: 1, overflow: 'hidden' },
      h(Text, { bold: true, wrap: 'truncate-end' }, tableLine(COLUMNS, widths)),
      h(Text, null, ' '),
      shown.map((line, index) => h(Text, { key: index, wrap: 'truncate-end' }, tableLine(line, widths) || ' ')),
      shown.length < lines.length && room > 0
        ? h(Text, { dimColor: true }, `${lines.length - shown.length} more lines: enlarge the terminal`)
        : null,
    ),
    h(Text, { dimColor: true }, ' q, Esc: quit'),
  );
}

// The alternate screen, as full-screen terminal programs use it: the shell's screen comes back on exit.
const ENTER_ALTERNATE_SCREEN = '\x1b[?1049h';
const LEAVE_ALTERNATE_SCREEN = '\x1b[?1049l';

/**
 * Shows the dashboard until the user quits; rejects with ConnectionLost when the connection is lost and
 * `options.reconnect` is off.
 */
export async function showDashboard(options: FeedOptions & { human: boolean }): Promise<void> {
  const store = new Store();
  process.stdout.write(ENTER_ALTERNATE_SCREEN);
  const app = render(
    h(Dashboard, { store, url: options.url.href, intervalMs: options.intervalMs, human: options.human }),
  );
  let lost: ConnectionLost | undefined;
  const feed = startFeed(options, store.dispatch, (error) => {
    lost = error;
    app.unmount();
  });
  // Termination ends the dashboard as quitting does, so that the shell's screen comes back.
  const terminated = () => app.unmount();
  process.on('SIGTERM', terminated).on('SIGHUP', terminated);
  try {
    await app.waitUntilExit();
  } finally {
    process.off('SIGTERM', terminated).off('SIGHUP', terminated);
    await feed.stop();
    process.stdout.write(LEAVE_ALTERNATE_SCREEN);
  }
  if (lost) throw lost;
}
