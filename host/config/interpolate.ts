// Environment interpolation on the raw text of a config file, before it is parsed (as Vector does it), and
// the listing of `SECRET[backend.key]` references for the secrets layer.

import { hostname } from 'node:os';

/** Vector's syntax: `$$`, `$NAME`, `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?msg}`, `${NAME?msg}`. */
const VARIABLE = /\$\$|\$([A-Za-z0-9_.]+)|\$\{([A-Za-z0-9_.]+)(?:(:?-|:?\?)([^}]*))?\}/g;

/** `SECRET[backend.key]`: the backend is a word, the key may hold dots, dashes and slashes. */
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
 * The errors for secret references while no secrets layer exists: each one names the reference, so the
 * user sees the build cannot resolve them rather than a literal `SECRET[...]` reaching a component.
 */
export function unresolvedSecretErrors(references: readonly SecretReference[]): string[] {
  return references.map(
    (r) =>
      `${r.file}:${r.line}: cannot resolve SECRET[${r.backend}.${r.key}]: secret backends are not available in this build`,
  );
}
