// Environment interpolation on the raw text of a config file, before it is parsed (as Vector does it), and
// the listing and substitution of `SECRET[backend.key]` references (resolved by `secrets.ts`), after it.

import { hostname } from 'node:os';

/** Vector's syntax: `$$`, `$NAME`, `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?msg}`, `${NAME?msg}`. */
const VARIABLE = /\$\$|\$([A-Za-z0-9_.]+)|\$\{([A-Za-z0-9_.]+)(?:(:?-|:?\?)([^}]*))?\}/g;

/** `SECRET[backend.key]`: the backend is a word, the key may hold dots (Vector's rule: the first dot ends the
 * backend), dashes and slashes (file names of the directory backend, paths of a vault). */
const SECRET = /SECRET\[(\w+)\.([\w.\-/]+)\]/g;

/** Where a `SECRET[...]` reference sits, for the secrets layer to resolve and for error messages. */
export interface SecretReference {
  backend: string;
  key: string;
  file: string;
  /** 1-based. */
  line: number;
}

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The process environment as interpolation sees it: `HOSTNAME` is filled in from the OS when unset, as
 * Vector does, so `${HOSTNAME}` works under shells that do not export it.
 */
export function interpolationEnv(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return env.HOSTNAME === undefined ? { ...env, HOSTNAME: hostname() } : env;
}

/**
 * Replaces environment variables in `text` (the content of `file`). A missing variable is an error (strict
 * interpolation, decision 8), as is a value holding a newline; every error is collected.
 */
export function interpolateEnv(
  text: string,
  env: Record<string, string | undefined>,
  file: string,
): { text: string; errors: string[] } {
  const errors: string[] = [];
  const output = text.replace(
    VARIABLE,
    (
      match,
      bare: string | undefined,
      braced: string | undefined,
      operator: string | undefined,
      argument: string | undefined,
      offset: number,
    ) => {
      if (match === '$$') return '$';
      const name = (bare ?? braced)!;
      const value = env[name];
      const fail = (message: string) => {
        errors.push(`${file}:${lineAt(text, offset)}: ${message}`);
        return '';
      };
      let result: string;
      switch (operator) {
        case ':-':
          result = value ? value : argument!;
          break;
        case '-':
          result = value ?? argument!;
          break;
        case ':?':
          if (!value) return fail(`non-empty environment variable "${name}" required: ${argument}`);
          result = value;
          break;
        case '?':
          if (value === undefined) return fail(`environment variable "${name}" required: ${argument}`);
          result = value;
          break;
        default:
          if (value === undefined) return fail(`missing environment variable "${name}"`);
          result = value;
      }
      if (/[\r\n]/.test(result)) return fail(`environment variable "${name}" contains a newline character`);
      return result;
    },
  );
  return { text: output, errors };
}

/** Every `SECRET[backend.key]` in `text`, in order of appearance. */
export function findSecretReferences(text: string, file: string): SecretReference[] {
  return [...text.matchAll(SECRET)].map((m) => ({ backend: m[1]!, key: m[2]!, file, line: lineAt(text, m.index) }));
}

/**
 * Replaces each `SECRET[backend.key]` of `text` with its resolved value (`backend.key` → value), as Vector
 * does on the raw text; a reference without a value is an error naming it.
 */
export function substituteSecrets(
  text: string,
  values: ReadonlyMap<string, string>,
  file: string,
): { text: string; errors: string[] } {
  const errors: string[] = [];
  const output = text.replace(SECRET, (match, backend: string, key: string, offset: number) => {
    const value = values.get(`${backend}.${key}`);
    if (value !== undefined) return value;
    errors.push(`${file}:${lineAt(text, offset)}: no value was resolved for ${match}`);
    return '';
  });
  return { text: output, errors };
}
