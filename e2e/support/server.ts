/**
 * Starts `locksmith serve` (browser mode) as a child process for one test: its own data dir, a
 * free port chosen by the server, optionally pointed at a given endpoint. The printed URL carries the token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/locksmith', import.meta.url));
const URL_PATTERN = /(http:\/\/127\.0\.0\.1:\d+\/\S*token=\S+)/;

/** A running browser-mode server. */
export interface ServeHandle {
  /** The URL to open, token included. */
  readonly url: string;
  /** Everything the server printed (attached to failing tests). */
  readonly output: () => string;
  /** The private key of the server's sandbox, as it printed it (the sandbox's tables are visible to no other key). */
  readonly sandboxKey: () => { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Stops the server and everything it started (its sandbox JVM included). */
  stop(): Promise<void>;
}

/** Options of {@link startServe}. */
export interface ServeOptions {
  readonly dataDir: string;
  /** Extra CLI flags, e.g. `['--endpoint', 'http://127.0.0.1:8123']`. */
  readonly args?: readonly string[];
  /** Flags for Node itself, before the script (e.g. `--cpu-prof`, which NODE_OPTIONS does not take). */
  readonly nodeArgs?: readonly string[];
  readonly timeoutMs?: number;
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Spawns the server and resolves once it printed its URL. */
export async function startServe(options: ServeOptions): Promise<ServeHandle> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, 'serve', ...(options.args ?? [])], {
    env: { ...process.env, LOCKSMITH_DATA_DIR: options.dataDir, JAVA_TOOL_OPTIONS: '-Xmx512m', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group: teardown can signal the server and any JVM it spawned together.
    detached: true,
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`locksmith serve printed no URL within ${options.timeoutMs ?? 120_000} ms:\n${output}`)),
      options.timeoutMs ?? 120_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = URL_PATTERN.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`locksmith serve exited with ${String(code)} before printing its URL:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    sandboxKey: () => {
      const key = /export AWS_ACCESS_KEY_ID=(\w+) AWS_SECRET_ACCESS_KEY=(\w+)/.exec(output);
      return key?.[1] && key[2] ? { accessKeyId: key[1], secretAccessKey: key[2] } : undefined;
    },
    async stop() {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return; // already gone
      }
      if (!(await waitExit(child, 10_000))) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // gone between the check and the kill
        }
        await waitExit(child, 5_000);
      }
    },
  };
}
