// The REPL's `help` commands, as VRL's REPL has them; where VRL opens a browser, the text is printed here
// (the function's definition holds its documentation).

import { ANY_BITS, describe, fromBits, loadCompiler, type FunctionDef } from '../compiler/index.js';

// The REPL compiles its lines: the registry comes with the compiler it loads anyway.
const { FUNCTIONS, lookupFunction } = await loadCompiler();

const DOCS_URL = 'https://vrl.dev';
const FUNCTIONS_URL = 'https://functions.vrl.dev';
const ERRORS_URL = 'https://errors.vrl.dev';

export const REPL_HELP = `Remap REPL: type a remap program, one line at a time. The event (\`.\`) and variables persist.
  help                       show this text
  help functions             list the functions (also \`help funcs\`, \`help fs\`)
  help docs                  where the language is documented
  help docs <function>       a function's parameters and examples
  help error <code>          where an error code is explained
  next                       go to the next event (a new \`{}\` after the last one)
  prev                       go back to the previous event
  .                          show the event
  exit                       leave (also \`quit\`, Ctrl-D)`;

/** The answer to a `help …` line, or undefined when the line is not a help command. */
export function replHelp(line: string): string | undefined {
  const words = line.trim().split(/\s+/);
  if (words[0] !== 'help') return undefined;
  const [, topic, argument, ...rest] = words;
  if (topic === undefined) return REPL_HELP;
  if (rest.length > 0) return `unknown help command: ${line.trim()} (type "help")`;
  if (['functions', 'funcs', 'fs'].includes(topic) && argument === undefined) return functionList();
  if (topic === 'docs')
    return argument === undefined
      ? `Remap language reference: ${DOCS_URL}\nFunctions: ${FUNCTIONS_URL}`
      : functionDocs(argument);
  if (topic === 'error' && argument !== undefined) {
    const code = argument.replace(/^E/i, '');
    return /^\d{3}$/.test(code) ? `error E${code}: ${ERRORS_URL}/${code}` : `not an error code: ${argument}`;
  }
  return `unknown help command: ${line.trim()} (type "help")`;
}

/** Every function name, in columns, sorted. */
function functionList(): string {
  const names = FUNCTIONS.map((def) => def.name).sort();
  const width = Math.max(...names.map((name) => name.length)) + 2;
  const columns = Math.max(1, Math.floor(100 / width));
  const lines: string[] = [];
  for (let at = 0; at < names.length; at += columns)
    lines.push(
      names
        .slice(at, at + columns)
        .map((name) => name.padEnd(width))
        .join('')
        .trimEnd(),
    );
  return lines.join('\n');
}

function functionDocs(name: string): string {
  const def = lookupFunction(name);
  if (def === undefined) return `no function "${name}" (type "help functions")`;
  return [
    `${signature(def)}${def.fallible === true ? ' (fallible)' : ''}`,
    '',
    def.description,
    ...(def.aliases.length > 0 ? ['', `Also called: ${def.aliases.join(', ')}`] : []),
    ...(def.deprecated ? ['', `Deprecated: ${def.deprecated}`] : []),
    '',
    'Parameters:',
    ...def.parameters.map(
      (p) =>
        `  ${p.name}: ${describe(fromBits(p.kinds & ANY_BITS))}${p.required ? '' : `, optional${p.default === undefined ? '' : ` (default ${p.default})`}`}`,
    ),
    ...def.examples.flatMap((example) => [
      '',
      `# ${example.title}`,
      example.source,
      ...(example.returns !== undefined ? [`=> ${example.returns}`] : []),
      ...(example.raises !== undefined ? [`error: ${example.raises}`] : []),
    ]),
    '',
    `${FUNCTIONS_URL}/#${def.name}`,
  ].join('\n');
}

function signature(def: FunctionDef): string {
  return `${def.name}(${def.parameters.map((p) => (p.required ? p.name : `[${p.name}]`)).join(', ')})`;
}
