// The interactive remap REPL of `svc vrl` without a program: each line runs on the event left by the
// previous ones, variables persist, results print in display form, errors as diagnostics.

import { createInterface } from 'node:readline';
import { CompileError, display, type RemapValue, renderDiagnostics } from '../runtime/index.js';
import { ReplSession } from '../runtime/engine.js';
import { replHelp } from './repl-help.js';

export async function startRepl(options: { timezone: string | undefined; color: boolean }): Promise<void> {
  const session = new ReplSession({ timezone: options.timezone });
  // The events `next` and `prev` move between; the session works on the current one.
  const events: RemapValue[] = [session.event];
  let current = 0;
  const moveTo = (index: number) => {
    events[current] = session.event;
    current = index;
    if (current === events.length) events.push({});
    session.event = events[current]!;
  };
  const interactive = process.stdin.isTTY === true;
  const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: '$ ', terminal: interactive });
  if (interactive) {
    process.stdout.write('svc remap REPL: type "help" for help, "exit" to leave.\n');
    rl.prompt();
  }
  for await (const line of rl) {
    const text = line.trim();
    if (text === 'exit' || text === 'quit') break;
    const help = replHelp(text);
    if (help !== undefined) process.stdout.write(help + '\n');
    else if (text === 'next') moveTo(current + 1);
    else if (text === 'prev') {
      if (current === 0) process.stdout.write('no previous event\n');
      else moveTo(current - 1);
    } else if (text !== '') {
      try {
        process.stdout.write(display(await session.evaluate(line)) + '\n');
      } catch (error) {
        // Whatever failed (a runtime error, a trap, the compiler), only this line is lost: the session,
        // its event and its variables are as the previous line left them.
        if (error instanceof CompileError) {
          process.stdout.write(
            renderDiagnostics(line, [...error.diagnostics], { color: options.color }).trimEnd() + '\n',
          );
        } else process.stdout.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
    if (interactive) rl.prompt();
  }
  rl.close();
}
