// The interactive remap REPL of `svc vrl` without a program: each line runs on the event left by the
// previous ones, variables persist, results print in display form, errors as diagnostics.

import { createInterface } from 'node:readline';
import { CompileError, display, renderDiagnostics } from '../runtime/index.js';
import { ReplSession } from '../runtime/repl.js';

const HELP = `Remap REPL: type a remap program, one line at a time. The event (\`.\`) and variables persist.
  help     show this text
  .        show the event
  exit     leave (also Ctrl-D)
Functions and the language: https://vrl.dev`;

export async function startRepl(options: { timezone: string | undefined; color: boolean }): Promise<void> {
  const session = new ReplSession({ timezone: options.timezone });
  const interactive = process.stdin.isTTY === true;
  const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: '$ ', terminal: interactive });
  if (interactive) {
    process.stdout.write('svc remap REPL: type "help" for help, "exit" to leave.\n');
    rl.prompt();
  }
  for await (const line of rl) {
    const text = line.trim();
    if (text === 'exit' || text === 'quit') break;
    if (text === 'help') process.stdout.write(HELP + '\n');
    else if (text !== '') {
      try {
        process.stdout.write(display(await session.evaluate(line)) + '\n');
      } catch (error) {
        if (error instanceof CompileError) {
          process.stdout.write(renderDiagnostics(line, [...error.diagnostics], { color: options.color }).trimEnd() + '\n');
        } else if (error instanceof Error && error.name === 'RemapRuntimeError') {
          process.stdout.write(`error: ${error.message}\n`);
        } else throw error;
      }
    }
    if (interactive) rl.prompt();
  }
  rl.close();
}
