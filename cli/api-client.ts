// What `svc tap` and `svc top` share to reach an instance's API: the --url option, its WebSocket form,
// queries over HTTP, the health check they start with, and how long they wait before reconnecting.

import { CliError, EXIT_UNAVAILABLE, UsageError } from './usage.js';
import { vectorDocument } from './vector-documents.js';

export const DEFAULT_API_URL = 'http://127.0.0.1:8686/graphql';
/** As Vector's tap and top wait before they reconnect. */
export const RECONNECT_DELAY_MS = 5000;
/** How long a query may take before the API counts as unreachable. */
const QUERY_TIMEOUT_MS = 10_000;

/** --url: an http or https URL. */
export function apiUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`invalid --url '${text}': not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`invalid --url '${text}': expected an http:// or https:// URL`);
  return url;
}

/** The WebSocket URL of the API's endpoint: `ws:` for `http:`, `wss:` for `https:`. */
export function websocketUrl(url: URL): string {
  const socket = new URL(url);
  socket.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return socket.href;
}

/** Why a request failed, in a few words: `connect ECONNREFUSED 127.0.0.1:8686`, `HTTP 404`. */
function failureReason(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) return cause.message;
  if (error instanceof Error && error.name === 'TimeoutError')
    return `no answer within ${QUERY_TIMEOUT_MS / 1000} seconds`;
  return error instanceof Error ? error.message : String(error);
}

/** The `data` of `query` POSTed to the API; rejects with the reason when there is none (or on `signal`). */
export async function postQuery<T>(
  url: URL,
  query: string,
  variables?: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<T> {
  let body: { data?: T; errors?: Array<{ message: string }> };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.any([AbortSignal.timeout(QUERY_TIMEOUT_MS), ...(signal ? [signal] : [])]),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    body = (await response.json()) as typeof body;
  } catch (error) {
    throw new Error(failureReason(error));
  }
  if (body.errors?.length) throw new Error(body.errors.map((error) => error.message).join('; '));
  if (body.data === undefined) throw new Error('the answer has no data');
  return body.data;
}

/** Vector's check before tap and top start: the API answers its health query with true. Exits 69 when it does
 * not, saying why. */
export async function requireHealthyApi(url: URL): Promise<void> {
  let reason: string;
  try {
    const { health } = await postQuery<{ health: boolean }>(url, vectorDocument('queries/health.graphql'));
    if (health) return;
    reason = 'it is not healthy';
  } catch (error) {
    reason = (error as Error).message;
  }
  throw new CliError(
    `the API at ${url.href} is not reachable: ${reason} (is api.enabled true in the instance's configuration?)`,
    EXIT_UNAVAILABLE,
  );
}
