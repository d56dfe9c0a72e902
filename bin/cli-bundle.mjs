// Where the CLI bundle lives and whether it is fresh; shared by bin/locksmith and bin/build-cli.mjs.
// Plain JavaScript with node:* imports only: bin/locksmith loads it on every run, before anything else.
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bin/..). */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The folder holding the builds and current.json; LOCKSMITH_CLI_CACHE moves it (tests use their own).
 * It must stay inside the checkout: the bundle leaves its dependencies to Node, found from there.
 */
export function cacheDir(env = process.env) {
  return env.LOCKSMITH_CLI_CACHE || join(ROOT, '.cache', 'cli');
}

/** The manifest naming the current build; its mtime is when that build started reading the sources. */
export function manifestPath(dir = cacheDir()) {
  return join(dir, 'current.json');
}

/**
 * The current bundle's entry when no source it was built from changed since: `{ entry }`, else
 * `{ reason }`. Cheap: one small JSON file and one stat per bundled source (a few hundred), no hashing.
 * Every source the bundle reads is in the manifest, so a new file only matters once an old one
 * imports it, and that edit makes the old one newer than the build.
 */
export function freshBundle(dir = cacheDir()) {
  let manifest;
  let builtAt;
  try {
    const path = manifestPath(dir);
    builtAt = statSync(path).mtimeMs;
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return { reason: 'no bundle built yet' };
  }
  for (const input of manifest.inputs) {
    let mtime;
    try {
      mtime = statSync(join(ROOT, input)).mtimeMs;
    } catch {
      return { reason: `${input} is gone` };
    }
    if (mtime > builtAt) return { reason: `${input} changed since the bundle was built` };
  }
  return { entry: join(dir, manifest.entry) };
}

/** A build started less than this long ago is still running (or died and may be retried). */
const LOCK_STALE_MS = 120_000;

/** Takes the build lock (an exclusive create); false when another build holds it. */
export function takeBuildLock(dir = cacheDir()) {
  const path = join(dir, 'build.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(path, 'wx'));
      return true;
    } catch (error) {
      if (error.code !== 'EEXIST') return false;
      try {
        if (Date.now() - statSync(path).mtimeMs < LOCK_STALE_MS) return false;
        unlinkSync(path); // left by a build that died: take it over
      } catch {
        return false;
      }
    }
  }
  return false;
}

/** Releases the build lock. */
export function releaseBuildLock(dir = cacheDir()) {
  try {
    unlinkSync(join(dir, 'build.lock'));
  } catch {
    // Already gone.
  }
}

/**
 * Rebuilds the bundle in a detached process so the next run starts from it; this run does not wait.
 * Parallel runs (a test suite) start one build between them: the lock is taken here, released by the build.
 */
export function startBackgroundBuild(dir = cacheDir()) {
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return; // read-only checkout: tsx it stays
  }
  if (!takeBuildLock(dir)) return;
  try {
    const build = fileURLToPath(new URL('./build-cli.mjs', import.meta.url));
    const child = spawn(process.execPath, [build, '--background'], { cwd: ROOT, detached: true, stdio: 'ignore', env: process.env });
    child.on('error', () => releaseBuildLock(dir));
    child.unref();
  } catch {
    releaseBuildLock(dir);
  }
}
