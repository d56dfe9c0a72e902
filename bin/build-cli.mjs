#!/usr/bin/env node
// Bundles the CLI (electron/cli/main.ts; each command a chunk loaded on demand, so `--help` loads no
// SDK) into <cache>/<build id>/ with esbuild, then points current.json at it. Run by `npm install`
// (prepare) and, in the background, by bin/locksmith when the bundle is missing or stale.
// The AWS SDK and zod are bundled too (see sdkInside); other dependencies stay external: Node resolves them
// from node_modules as it did under tsx.
//   node bin/build-cli.mjs               build now, print where
//   node bin/build-cli.mjs --background  (bin/locksmith) the lock is already held; silent; release it
//   node bin/build-cli.mjs --one-file    no chunks: every lazy import inlined into main.js (the bench's
//                                        "no lazy loading" variant, built into its own LOCKSMITH_CLI_CACHE)
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { cacheDir, manifestPath, releaseBuildLock, ROOT } from './cli-bundle.mjs';
import { exportChildBuild } from './export-child-bundle.mjs';

const background = process.argv.includes('--background');
/** Measuring what the chunks loaded on demand save: esbuild then turns each `import()` of a bundled module into a call in the same file. */
const oneFile = process.argv.includes('--one-file');
const dir = cacheDir();
/**
 * Old builds are kept this long after a CLI last started from them (bin/locksmith touches the folder):
 * a running `watch` or a confirmation prompt may still load a chunk of its own build later.
 */
const KEEP_OLD_BUILDS_MS = 24 * 60 * 60 * 1000;

/**
 * `import.meta.url` in a source file means that file's own location (serve.ts finds package.json
 * and dist/renderer from it): in a chunk it would be the chunk's. Rewritten to the source file's
 * URL, relative to the chunk folder, so the bundle works wherever the checkout is moved.
 */
function sourceUrlPlugin(outdir) {
  return {
    name: 'source-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${'/'}node_modules${'/'}`)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const fromChunk = relative(outdir, args.path).split('\\').join('/');
        return {
          contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromChunk)}, import.meta.url).href`),
          loader: 'ts',
        };
      });
    },
  };
}

/** The AWS SDK and what it pulls in: bundled. Node loading its ~400 CommonJS files one by one (and
 * lexing each for its exports) cost every audit CPU before the first Scan. zod too: detection checks the
 * convention it found against the file schema, and Node resolving, reading and linking zod's ~100 ES
 * modules (every locale among them) held a first audit's full Scan back (docs/benchmarks.md, "Why the code is as it is"). */
const SDK_PACKAGES = /^(@aws-sdk|@smithy|@aws-crypto|@aws)\/|^(tslib|fast-xml-parser|strnum|bowser|uuid|zod)(\/|$)/;

/** Marks package imports of Locksmith's sources external, except the SDK's; whatever a bundled package imports is bundled with it. */
const sdkInside = {
  name: 'sdk-inside',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      if (SDK_PACKAGES.test(args.path) || args.importer.includes(`${'/'}node_modules${'/'}`)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Removes builds other than `keep` that are older than KEEP_OLD_BUILDS_MS. */
function removeOldBuilds(keep) {
  for (const name of readdirSync(dir)) {
    if (name === keep || !name.startsWith('build-')) continue;
    const path = join(dir, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > KEEP_OLD_BUILDS_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by a parallel build.
    }
  }
}

async function main() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    // Installed without dev dependencies: bin/locksmith keeps running the sources through tsx.
    if (!background) process.stdout.write('build-cli: esbuild is not installed; bin/locksmith will run the sources through tsx\n');
    return;
  }
  // Sources changed after this instant make the build stale, even if they change while it runs.
  const startedAt = new Date();
  const id = `build-${startedAt.getTime().toString(36)}-${process.pid}`;
  const outdir = join(dir, id);
  mkdirSync(outdir, { recursive: true });
  let result;
  try {
    result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: { main: 'electron/cli/main.ts' },
      outdir,
      bundle: true,
      splitting: !oneFile,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // The SDK's ES module builds: no CommonJS wrappers, and no require() that an ES chunk lacks.
      mainFields: ['module', 'main'],
      sourcemap: 'linked',
      metafile: true,
      logLevel: background ? 'silent' : 'warning',
      plugins: [sdkInside, sourceUrlPlugin(outdir)],
    });
    // The export audit's child, forked from the chunk's folder (run-export-audit.ts): through tsx it started measurably slower (docs/benchmarks.md).
    const child = await esbuild.build({
      ...exportChildBuild(join(outdir, 'export-audit-child.cjs')),
      absWorkingDir: ROOT,
      sourcemap: 'linked',
      metafile: true,
      logLevel: background ? 'silent' : 'warning',
    });
    result = { metafile: { inputs: { ...result.metafile.inputs, ...child.metafile.inputs } } };
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
  // Bundled dependencies are not checked one by one (thousands of stats per start): the lock file is,
  // as npm rewrites it on every install (which also rebuilds the bundle through `prepare`).
  const sources = Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules/'));
  const inputs = [...sources, 'bin/build-cli.mjs', 'bin/cli-bundle.mjs', 'package-lock.json'];
  const manifest = manifestPath(dir);
  const temp = `${manifest}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ entry: `${id}/main.js`, inputs }, null, 1)}\n`);
  utimesSync(temp, startedAt, startedAt);
  // Atomic: a CLI starting now reads the old manifest or the new one, never half of one.
  renameSync(temp, manifest);
  removeOldBuilds(id);
  if (!background) process.stdout.write(`built the CLI bundle: ${relative(ROOT, outdir) || outdir} (${inputs.length} sources)\n`);
}

try {
  await main();
} catch (error) {
  if (!background) {
    process.stderr.write(`build-cli: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
} finally {
  if (background) releaseBuildLock(dir);
}
