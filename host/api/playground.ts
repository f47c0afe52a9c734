// GET /playground: GraphiQL, bundled at build time into dist/playground/ (scripts/bundle-playground.mjs),
// so it works without internet access. The page revalidates on every load; its script and stylesheet are
// named by content hash and cached for good.

import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { ApiOptions } from '../config/global.js';

/** Spec 1: the playground needs the GraphQL endpoint it runs queries on. */
export function servesPlayground(options: ApiOptions): boolean {
  return options.graphql && options.playground;
}

/**
 * dist/playground/ of the package, found by the package's name: this module runs from tsc's
 * dist/host/api/ as well as from the CLI bundle in dist/bin/.
 */
function playgroundDirectory(): string {
  return fileURLToPath(new URL('dist/playground/', import.meta.resolve('svc/package.json')));
}

/** Adds /playground and its assets to `hono`. */
export function addPlayground(hono: Hono): void {
  const directory = playgroundDirectory();
  const page = serveStatic({ path: `${directory}index.html` });
  hono.get('/playground', (c, next) => {
    c.header('Cache-Control', 'no-cache');
    return page(c, next);
  });
  const assets = serveStatic({
    root: directory,
    rewriteRequestPath: (path) => path.slice('/playground/'.length),
    precompressed: true,
  });
  // Only the content-hashed names: neither index.html nor a .gz file asked for by name.
  hono.get('/playground/:asset{.+-[A-Z0-9]+\\.(?:js|css)}', (c, next) => {
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    return assets(c, next);
  });
}
