// Bundles the playground served on /playground (host/api/playground.ts) into dist/playground/: GraphiQL,
// React and graphql-ws's client from host/api/playground/page.js, as one script and one stylesheet (its
// fonts are inlined), named by content hash and gzipped beside (1.8 MB → 0.7 MB for a remote browser), and
// the index.html that loads them. Nothing comes from a CDN at run time. The build runs it when the page, this
// script or the lock file (the packages' versions) changed.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'dist/playground');
const index = join(outdir, 'index.html');
const entry = join(root, 'host/api/playground/page.js');

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const { metafile } = await build({
  entryPoints: { playground: entry },
  outdir,
  entryNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  define: { 'process.env.NODE_ENV': '"production"' },
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(metafile.outputs).map((path) => basename(path));
for (const name of outputs) {
  const path = join(outdir, name);
  writeFileSync(`${path}.gz`, gzipSync(readFileSync(path), { level: constants.Z_BEST_COMPRESSION }));
}
const script = outputs.find((name) => name.endsWith('.js'));
const stylesheet = outputs.find((name) => name.endsWith('.css'));
writeFileSync(
  index,
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc · GraphQL playground</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/playground/${stylesheet}">
<style>body { margin: 0; } #playground { height: 100vh; }</style>
</head>
<body>
<div id="playground"></div>
<script type="module" src="/playground/${script}"></script>
</body>
</html>
`,
);
