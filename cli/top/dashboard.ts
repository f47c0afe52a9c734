// svc top's screen, drawn with ink: a header with the API's URL, the sampling interval and the connection's
// state, then the components table filling the terminal (redrawn to its new size when it is resized).
// q, Esc and Ctrl-C quit.

import { createElement as h, useEffect, useState, useSyncExternalStore, type ReactElement } from 'react';
import { Box, render, Text, useApp, useInput, useStdout } from 'ink';
import { startFeed, type FeedOptions } from './connection.js';
import { applyEvent, COLUMNS, connectionText, INITIAL_STATE, tableRows, type TopEvent, type TopState } from './state.js';
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

/**
 * One line of the table. Each column starts at its widest cell's width and shares what room is left (or
 * gives up room, truncating its cells) in proportion, so every line gets the same column widths.
 */
function tableLine(cells: readonly string[], widths: readonly number[], key: string | number, bold = false): ReactElement {
  return h(
    Box,
    { key, flexDirection: 'row' },
    cells.map((cell, column) =>
      h(Box, { key: column, flexBasis: widths[column]! + 2, flexGrow: 1, flexShrink: 1, overflow: 'hidden' }, h(Text, { wrap: 'truncate-end', bold }, cell)),
    ),
  );
}

function Dashboard({ store, url, intervalMs, human }: DashboardProps): ReactElement {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { columns, rows } = useTerminalSize();
  const { exit } = useApp();
  useInput((input, key) => {
    if (input === 'q' || key.escape) exit();
  });

  const lines = tableRows(state, human);
  const widths = COLUMNS.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  // One row short of the terminal: a frame as high as the terminal makes ink clear the screen at each update.
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
    state.problem === undefined ? null : h(Text, { color: 'red', wrap: 'truncate-end' }, `Last error: ${state.problem}`),
    h(
      Box,
      { borderStyle: 'single', paddingX: 1, flexDirection: 'column', flexGrow: 1, overflow: 'hidden' },
      tableLine(COLUMNS, widths, 'header', true),
      h(Text, null, ' '),
      lines.map((line, index) => tableLine(line, widths, index)),
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
  const app = render(h(Dashboard, { store, url: options.url.href, intervalMs: options.intervalMs, human: options.human }), {
    incrementalRendering: true,
    patchConsole: false,
  });
  const feed = startFeed(options, store.dispatch, (error) => app.unmount(error));
  try {
    await app.waitUntilExit();
  } finally {
    await feed.stop();
    process.stdout.write(LEAVE_ALTERNATE_SCREEN);
  }
}
