/** `locksmith serve`: browser mode — the app's handler table over HTTP on 127.0.0.1, with the built renderer. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import v8 from 'node:v8';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildRenderer, rendererEntry, rendererStale } from '../../../bin/renderer-build.mjs';
import { formatStartupHash } from '../../../shared/contract/startup';
import { optionalInt, optionalString } from '../args';
import type { CliCommand, CliIo } from '../command';
import { CliError, EXIT_OK, usageError } from '../command';

/** The desktop's opener for a target (a file URL here: never the token URL, which `ps` would show to every local user). */
export function openerCommand(target: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  return platform === 'darwin'
    ? ['open', [target]]
    : platform === 'win32'
      ? ['cmd', ['/c', 'start', '""', target]]
      : ['xdg-open', [target]];
}

/** How long the hand-over file lives: enough for a browser to start and read it. */
const HANDOVER_MS = 60_000;

/**
 * Writes a one-time page that forwards the browser to the token URL, in a fresh 0700 folder, mode
 * 0600: only this user can read it, and the opener's arguments name only the file. Removed after
 * a minute or at shutdown, whichever comes first.
 */
export async function writeHandoverFile(url: string): Promise<{ readonly file: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'locksmith-open-'));
  const file = join(dir, 'open.html');
  const safe = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  await writeFile(
    file,
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${safe}"><title>Locksmith</title><a href="${safe}">Open Locksmith</a>\n`,
    { mode: 0o600 },
  );
  await chmod(file, 0o600);
  let removed: Promise<void> | undefined;
  const remove = (): Promise<void> => (removed ??= rm(dir, { recursive: true, force: true }));
  setTimeout(() => void remove(), HANDOVER_MS).unref();
  return { file, remove };
}

/** Opens the app in the desktop's browser through a hand-over file; failures are ignored (the URL is printed anyway). */
async function openInBrowser(url: string): Promise<() => Promise<void>> {
  const handover = await writeHandoverFile(url);
  const [command, args] = openerCommand(pathToFileURL(handover.file).href);
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
  return handover.remove;
}

/** A build lock older than this was left by a process that died: it is taken over. */
const BUILD_LOCK_STALE_MS = 5 * 60_000;
/** How often a serve waiting for another one's build looks again. */
const BUILD_LOCK_POLL_MS = 200;

/**
 * Takes dist/.renderer-build.lock (an exclusive create), waiting while another process holds it:
 * several servers started at once (parallel e2e workers) must not empty and rebuild one folder together.
 */
async function takeRendererBuildLock(root: string): Promise<() => Promise<void>> {
  const path = join(root, 'dist', '.renderer-build.lock');
  await mkdir(dirname(path), { recursive: true });
  for (;;) {
    try {
      await (await open(path, 'wx')).close();
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const age = await stat(path).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (age > BUILD_LOCK_STALE_MS) await rm(path, { force: true });
    else await new Promise((resolve) => setTimeout(resolve, BUILD_LOCK_POLL_MS));
  }
}

/**
 * Builds the renderer first when it is missing or older than its sources, with the staleness check
 * `npm start` uses (bin/renderer-build.mjs): otherwise the page would answer 503, or serve an old UI.
 * One build at a time; without Vite (installed without dev dependencies) a built renderer is served as it is.
 */
export async function ensureRendererBuilt(
  root: string,
  io: Pick<CliIo, 'stderr'>,
  build: (root: string) => Promise<number | undefined> = buildRenderer,
): Promise<void> {
  if (!rendererStale(root)) return;
  const release = await takeRendererBuildLock(root);
  try {
    // Another server may have built it while this one waited.
    if (!rendererStale(root)) return;
    io.stderr('Building the renderer (vite build)…\n');
    const code = await build(root);
    if (code === 0) return;
    if (code === undefined && existsSync(rendererEntry(root))) {
      io.stderr('locksmith: Vite is not installed; serving the renderer as it was last built\n');
      return;
    }
    throw new CliError({
      kind: 'internal',
      message:
        code === undefined ? 'the renderer is not built and Vite is not installed' : `the renderer build failed (vite exited with ${code})`,
      fix: 'npm install && npm run build',
    });
  } finally {
    await release();
  }
}

/** The serve command. */
export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Run Locksmith in the browser: the same app over HTTP on 127.0.0.1, with a per-launch token.',
  usage: 'serve [--port P] [--open] [--endpoint URL | --profile NAME] [--region R]',
  flags: {
    port: { type: 'string', valueName: 'P', description: 'port on 127.0.0.1 (default: a free one)' },
    open: {
      type: 'boolean',
      description: 'open the URL in the default browser (through a one-time private file: the token never appears in process arguments)',
    },
  },
  details: `
Only 127.0.0.1 is bound. The printed URL carries a random token (after #): the page keeps it for the
session; requests without it get 401, requests from other sites or host names get 403.
Without connection flags, the first run starts the sandbox and opens table accounts.
Builds the renderer first when its sources are newer than dist/renderer (as npm start does).`,
  async run({ values, io }) {
    // bin/locksmith caps the old generation's growth per full GC at 30% for the CLI's memory (one
    // audit, then exit). A server streams each audit's rows to a page: there those extra full GCs
    // cost a good share more CPU per audit (figures: docs/benchmarks.md), taken from the scan and the
    // database on the same cores. 0 is V8's own default (its dynamic growth).
    v8.setFlagsFromString('--heap-growing-percent=0');
    const port = optionalInt(values, 'port', 'serve', 1, 65_535);
    const endpoint = optionalString(values, 'endpoint');
    const profile = optionalString(values, 'profile');
    const region = optionalString(values, 'region');
    if (endpoint && profile) usageError('use either --endpoint or --profile, not both', 'endpoint');
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    await ensureRendererBuilt(root, io);
    const { composeApp } = await import('../../bridge/compose');
    const { startServeHost } = await import('../../serve/server');
    const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string };
    const composed = composeApp({
      mode: 'browser',
      version: pkg.version ?? '0.0.0',
      env: io.env,
      // The sandbox is a private database: its key is handed to the user (and only here), for their own tools.
      onSandboxKey: (key) =>
        (io.revealOnStdout ?? io.stdout)(
          `Sandbox at ${key.endpoint} (a private database; for your own tools): export AWS_ACCESS_KEY_ID=${key.accessKeyId} AWS_SECRET_ACCESS_KEY=${key.secretAccessKey} AWS_REGION=${key.region}\n`,
        ),
      ...(endpoint
        ? { startupConnection: { endpoint, ...(region ? { region } : {}) } }
        : profile
          ? { startupConnection: { profile, ...(region ? { region } : {}) } }
          : {}),
    });
    const host = await startServeHost({
      dispatch: composed.dispatch,
      hub: composed.hub,
      log: composed.log,
      rendererDir: join(root, 'dist', 'renderer'),
      ...(port !== undefined ? { port } : {}),
    });
    let removeHandover: (() => Promise<void>) | undefined;
    try {
      const sandboxing = !endpoint && !profile;
      if (sandboxing) io.stderr('Starting… (first run starts the sandbox, a few seconds)\n');
      const startup = await composed.prepareStartup();
      const sandbox = composed.deps.sandbox.info();
      if (sandbox.state === 'error' && sandbox.error)
        io.stderr(`locksmith: sandbox not started: ${sandbox.error.message}${sandbox.error.fix ? ` (${sandbox.error.fix})` : ''}\n`);
      const hash = formatStartupHash({
        token: host.token,
        ...(startup?.connectionId ? { connection: startup.connectionId } : {}),
        ...(startup?.table ? { table: startup.table } : {}),
      });
      const url = `${host.origin}/${hash}`;
      // The token is a known secret (scrubbed from all other output): this line hands it to the user on purpose.
      (io.revealOnStdout ?? io.stdout)(`Locksmith (browser mode): ${url}\n  Ctrl+C stops it.\n`);
      if (values.open === true) removeHandover = await openInBrowser(url);
      await new Promise<void>((resolve) => {
        if (io.signal.aborted) resolve();
        io.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      await removeHandover?.();
      await host.close();
      await composed.shutdown();
    }
    io.stderr('stopped\n');
    return EXIT_OK;
  },
};
