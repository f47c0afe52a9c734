// Bundles the CLI from tsc's output into dist/bin/ (svc.js, the transform, I/O and `svc vrl` workers, plus
// shared chunks): a pipeline's start-up spent most of its time resolving and loading ~400 small modules in
// each thread, and a cold `svc vrl` another ~300 (the compiler and ohm-js). The compiler is in chunks of its
// own, loaded only when something is compiled. Left outside the bundle, imported from where they are:
// packages other than those every start-up or compile needs: the rest load on first use (see
// runtime/js-functions/support/library.ts), and some read files beside their own code. dist/bin/ sits one
// level below dist/ like tsc's dist/<dir>/, so the code's relative URLs (`../codec.wasm`, `./worker.js`,
// `../../package.json`, compiler/build-files.ts) resolve the same from either.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const outdir = join(dist, 'bin');
/** Packages bundled: those the CLI and a pipeline load at every start, and the compiler's parser. */
const BUNDLED_PACKAGES = new Set(['cac', 'zod', 'yaml', 'smol-toml', 'picomatch', 'tinyglobby', 'fdir', 'ohm-js']);

const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** @type {import('esbuild').Plugin} */
const keepOutside = {
  name: 'keep-outside',
  setup(plugin) {
    plugin.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path.startsWith('node:') || !BUNDLED_PACKAGES.has(packageName(path)) ? { path, external: true } : undefined,
    );
  },
};

/**
 * zod's namespace object re-exports all its locales: 360 KB of every thread's start-up to parse. svc uses
 * only the English messages zod installs itself, so `zod.locales` keeps just `en`.
 * @type {import('esbuild').Plugin}
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(plugin) {
    plugin.onResolve({ filter: /\/locales\/index\.js$/ }, ({ importer, resolveDir }) =>
      importer.includes(`${sep}node_modules${sep}zod${sep}`)
        ? { path: join(resolveDir, '../locales/en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    plugin.onLoad({ filter: /.*/, namespace: 'zod-locales' }, ({ path }) => ({
      contents: `export { default as en } from ${JSON.stringify(path)};`,
      loader: 'js',
      resolveDir: dist,
    }));
  },
};

// Chunk names are content hashes: clear the last build's.
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: {
    svc: join(dist, 'cli/bin.js'),
    worker: join(dist, 'host/topology/worker.js'),
    'io-worker': join(dist, 'runtime/io-worker.js'),
    'vrl-worker': join(dist, 'cli/vrl-worker.js'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunk-[hash]',
  plugins: [zodEnglishOnly, keepOutside],
  // Bundled CommonJS packages call `require` for Node's built-ins.
  banner: {
    js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
  },
  logLevel: 'warning',
});
