// Secret backends (spec 2 §C.3): the `SECRET[backend.key]` references of the configuration files are
// resolved from the `secret` section before the files are parsed, as Vector does: the files are loaded once
// to find the references and the backends, each backend is asked for its keys, and the files are loaded
// again with the values in place of the references. This runs at start-up and on every reload.

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CloudSecretError, getCloudSecret } from './cloud-secrets.js';
import { ConfigError, didYouMean } from './errors.js';
import type { SecretBackendOptions } from './global.js';
import { loadConfig, type ConfigLocations, type LoadOptions, type RawConfig } from './load.js';
import { rememberSecrets } from './redaction.js';
import { validateSecretBackend } from './schema.js';

/** A failure of a backend as a whole, or of one key; `option` names the backend's option it comes from. */
class BackendError extends Error {
  constructor(
    message: string,
    readonly option?: string,
    readonly key?: string,
  ) {
    super(message);
  }
}

/** The string value of `key` in a backend's key → value object; Vector refuses a missing or empty one. */
function valueOf(object: Record<string, unknown>, key: string, where: string): string {
  const value = object[key];
  if (value === undefined) throw new BackendError(`not found in ${where}`, undefined, key);
  if (typeof value !== 'string') throw new BackendError(`is not a string in ${where}`, undefined, key);
  if (value === '') throw new BackendError(`is empty in ${where}`, undefined, key);
  return value;
}

/** A JSON object of key → value, or a BackendError about `option`. */
function jsonObject(text: string, what: string, option: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // V8 quotes the text around the error: here, secrets.
    const reason = (error as Error).message
      .replace(/, (\.\.\.)?".*" is not valid JSON$/s, '')
      .replace(/ in JSON at position.*$/s, '');
    throw new BackendError(`${what} is not JSON: ${reason}`, option);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BackendError(`${what} is not a JSON object of key → value`, option);
  return value as Record<string, unknown>;
}

type Backend<T extends SecretBackendOptions['type']> = Extract<SecretBackendOptions, { type: T }>;

/** `file`: one JSON file of key → value. */
async function fromFile(backend: Backend<'file'>, keys: string[]): Promise<Map<string, string>> {
  let text: string;
  try {
    text = await readFile(backend.path, 'utf8');
  } catch (error) {
    throw new BackendError(`cannot read "${backend.path}": ${(error as Error).message}`, 'path');
  }
  const object = jsonObject(text, `"${backend.path}"`, 'path');
  return new Map(keys.map((key) => [key, valueOf(object, key, `"${backend.path}" (option "path")`)]));
}

/** `directory`: one file per key, as read (Vector trims only with `remove_trailing_whitespace`). */
async function fromDirectory(backend: Backend<'directory'>, keys: string[]): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (const key of keys) {
    const path = join(backend.path, key);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new BackendError(`cannot read "${path}" (option "path"): ${(error as Error).message}`, undefined, key);
    }
    const value = backend.remove_trailing_whitespace ? text.trimEnd() : text;
    if (value === '') throw new BackendError(`the file "${path}" (option "path") is empty`, undefined, key);
    values.set(key, value);
  }
  return values;
}

/** The exec protocol's request (decision 12): v1 sends version "1.0", v1_1 "1.1" with `type` and `config`. */
export function execRequest(backend: Backend<'exec'>, keys: string[]): Record<string, unknown> {
  const { protocol } = backend;
  return protocol.version === 'v1'
    ? { version: '1.0', secrets: keys }
    : { version: '1.1', secrets: keys, type: protocol.backend_type, config: protocol.backend_config ?? null };
}

/** Runs the command with the request on its stdin; its stdout, once it exited with status 0 within the timeout. */
function runExec(backend: Backend<'exec'>, request: string): Promise<string> {
  const [program, ...args] = backend.command;
  const shown = JSON.stringify(backend.command);
  return new Promise((resolve, reject) => {
    const child = spawn(program!, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new BackendError(`the command ${shown} did not finish within ${backend.timeout} s`, 'timeout'));
    }, backend.timeout * 1000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A command that exits without reading its stdin closes the pipe: its exit status says what went wrong.
    child.stdin.on('error', () => {});
    child.stdin.end(request);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new BackendError(`cannot run ${shown}: ${error.message}`, 'command'));
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      if (status === 0) return resolve(stdout);
      const said = stderr.trim() === '' ? '' : `: ${stderr.trim().split('\n').slice(-3).join(' / ')}`;
      reject(new BackendError(`the command ${shown} exited with ${signal ?? `status ${status}`}${said}`, 'command'));
    });
  });
}

/** `exec`: the command answers `{"<key>": {"value": string | null, "error": string | null}, ...}`. */
async function fromExec(backend: Backend<'exec'>, keys: string[]): Promise<Map<string, string>> {
  const output = await runExec(backend, JSON.stringify(execRequest(backend, keys)));
  const answer = jsonObject(output, "the command's output", 'command');
  const values = new Map<string, string>();
  for (const key of keys) {
    const entry = answer[key] as { value?: unknown; error?: unknown } | undefined;
    if (entry === undefined || typeof entry !== 'object' || entry === null)
      throw new BackendError("not in the command's output", undefined, key);
    if (entry.error !== undefined && entry.error !== null)
      throw new BackendError(`the command reported: ${String(entry.error)}`, undefined, key);
    if (typeof entry.value !== 'string' || entry.value === '')
      throw new BackendError('the command gave no value', undefined, key);
    values.set(key, entry.value);
  }
  return values;
}

/** `cloud_secrets_manager`: the keys of one secret whose SecretString is a JSON object. */
async function fromCloud(
  backend: Backend<'cloud_secrets_manager'>,
  keys: string[],
  env: NodeJS.ProcessEnv,
): Promise<Map<string, string>> {
  let object: Record<string, unknown>;
  try {
    object = await getCloudSecret(backend, env);
  } catch (error) {
    if (error instanceof CloudSecretError) throw new BackendError(error.message, error.option);
    throw error;
  }
  const where = `the secret "${backend.secret_id}" (option "secret_id")`;
  return new Map(keys.map((key) => [key, valueOf(object, key, where)]));
}

function retrieve(backend: SecretBackendOptions, keys: string[], env: NodeJS.ProcessEnv): Promise<Map<string, string>> {
  switch (backend.type) {
    case 'file':
      return fromFile(backend, keys);
    case 'directory':
      return fromDirectory(backend, keys);
    case 'exec':
      return fromExec(backend, keys);
    case 'cloud_secrets_manager':
      return fromCloud(backend, keys, env);
  }
}

/**
 * The value of every `SECRET[...]` reference of `raw`, keyed `backend.key`; throws ConfigError naming, for each
 * failure, the backend's file and id, its type and option, and for a key where it is used. The backends are
 * asked at once, each for the keys the configuration uses.
 */
async function resolveSecrets(raw: RawConfig, env: NodeJS.ProcessEnv): Promise<Map<string, string>> {
  const errors: string[] = [];
  const wanted = new Map<string, Set<string>>();
  for (const reference of raw.secrets) {
    if (raw.sections.secret.has(reference.backend)) {
      wanted.set(reference.backend, (wanted.get(reference.backend) ?? new Set()).add(reference.key));
      continue;
    }
    const known = [...raw.sections.secret.keys()];
    errors.push(
      `${reference.file}:${reference.line}: SECRET[${reference.backend}.${reference.key}]: no secret backend ` +
        `"${reference.backend}" in the "secret" section${didYouMean(reference.backend, known)}`,
    );
  }
  const values = new Map<string, string>();
  await Promise.all(
    [...wanted].map(async ([id, keys]) => {
      const { file, table } = raw.sections.secret.get(id)!;
      const where = `${file}: secret.${id}`;
      const backend = validateSecretBackend(id, file, table, errors);
      if (backend === undefined) return;
      try {
        for (const [key, value] of await retrieve(backend, [...keys], env)) values.set(`${id}.${key}`, value);
      } catch (error) {
        if (!(error instanceof BackendError)) throw error;
        const usedAt = raw.secrets
          .filter((r) => r.backend === id && r.key === error.key)
          .map((r) => `${r.file}:${r.line}`);
        const subject =
          error.key === undefined ? '' : `key "${error.key}" (SECRET[${id}.${error.key}] at ${usedAt.join(', ')}): `;
        const option = error.option === undefined ? '' : `option "${error.option}": `;
        errors.push(`${where} (${backend.type}): ${option}${subject}${error.message}`);
      }
    }),
  );
  if (errors.length > 0) throw new ConfigError(errors);
  rememberSecrets(values);
  return values;
}

/**
 * Loads the configuration with its secrets: a first load finds the references and the backends; when there
 * are references, they are resolved and the files loaded again with the values in their place.
 */
export async function loadConfigWithSecrets(
  locations: ConfigLocations,
  options: Omit<LoadOptions, 'secrets'> = {},
): Promise<RawConfig> {
  const raw = await loadConfig(locations, options);
  if (raw.secrets.length === 0) return raw;
  const secrets = await resolveSecrets(raw, options.env ?? process.env);
  return loadConfig(locations, { ...options, secrets });
}
