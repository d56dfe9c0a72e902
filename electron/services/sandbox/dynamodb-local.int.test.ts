import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { testClient } from '../../testing/dynamo-fixtures';
import { isProcessAlive, waitForProcessExit } from '../../testing/process-alive';
import { startDynamoDbLocal, type DynamoDbLocalHandle } from './dynamodb-local';
import { trackedChildCount } from './process-cleanup';

const started: DynamoDbLocalHandle[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.stop()));
});

async function start(options: Parameters<typeof startDynamoDbLocal>[0] = {}): Promise<DynamoDbLocalHandle> {
  const result = await startDynamoDbLocal({ heap: '256m', ...options });
  if (!result.ok) throw new Error(result.error.message);
  started.push(result.value);
  return result.value;
}

// Each test starts a JVM: 3 s on an idle machine, far more when the whole suite runs in parallel on 2 cores.
describe('startDynamoDbLocal', { timeout: 120_000 }, () => {
  it('answers on a free port and leaves no java behind after stop', async () => {
    const handle = await start();
    expect(handle.endpoint).toBe(`http://127.0.0.1:${handle.port}`);
    expect(isProcessAlive(handle.pid)).toBe(true);
    const client = testClient(handle.endpoint);
    await expect(client.send(new ListTablesCommand({}))).resolves.toMatchObject({ TableNames: [] });
    client.destroy();

    await handle.stop();
    await handle.stop(); // idempotent
    await expect(handle.exited).resolves.toBeDefined();
    expect(await waitForProcessExit(handle.pid)).toBe(true);
    expect(trackedChildCount()).toBe(0);
  });

  it('refuses a port that is already in use with a clear error and starts no JVM', async () => {
    const port = Number(new URL(inject('dynamoEndpoint')).port);
    const result = await startDynamoDbLocal({ port });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('conflict');
    expect(result.error.message).toContain(`Port ${port} is already in use`);
    expect(trackedChildCount()).toBe(0);
  });

  it('refuses a port held by a non-DynamoDB listener too', async () => {
    const server: Server = createServer();
    server.listen(0, '0.0.0.0');
    await once(server, 'listening');
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const result = await startDynamoDbLocal({ port });
      expect(result.ok ? 'started' : result.error.kind).toBe('conflict');
    } finally {
      server.close();
    }
  });

  it('rejects an invalid port as a validation error', async () => {
    const result = await startDynamoDbLocal({ port: 70_000 });
    expect(result.ok ? 'started' : result.error).toMatchObject({ kind: 'validation', field: 'port' });
  });

  it('is started with a restrictive CORS policy: a foreign origin gets no Access-Control-Allow-Origin', async () => {
    const endpoint = inject('dynamoEndpoint');
    const preflight = (origin: string) =>
      fetch(endpoint, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-amz-target' },
      });
    const foreign = await preflight('http://evil.example');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const local = await preflight('http://localhost:5173');
    expect(local.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('parent process ends → JVM ends', { timeout: 120_000 }, () => {
  const orphans: number[] = [];
  afterEach(() => {
    // If the assertion failed, do not let the test itself leave a JVM behind.
    for (const pid of orphans.splice(0)) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
  });
  const fixture = fileURLToPath(new URL('./testing/hold-sandbox.ts', import.meta.url));

  async function runChild(mode: 'wait' | 'exit'): Promise<{ child: ReturnType<typeof spawn>; pid: number }> {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let errText = '';
    child.stderr.on('data', (c: Buffer) => (errText += c.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const nl = out.indexOf('\n');
        if (nl >= 0) resolve(out.slice(0, nl));
      });
      child.once('exit', (code) => reject(new Error(`child exited (${code}) before starting DynamoDB Local: ${errText}`)));
    });
    const { pid } = JSON.parse(line) as { pid: number };
    orphans.push(pid);
    return { child, pid };
  }

  it.each(['SIGINT', 'SIGTERM'] as const)('%s to the parent stops the JVM', async (signal) => {
    const { child, pid } = await runChild('wait');
    expect(isProcessAlive(pid)).toBe(true);
    const exited = once(child, 'exit');
    child.kill(signal);
    const [code, endSignal] = (await exited) as [number | null, NodeJS.Signals | null];
    // The handler re-raises the signal, so the parent still ends "killed by <signal>".
    expect(endSignal ?? code).toBe(signal);
    expect(await waitForProcessExit(pid)).toBe(true);
  });

  it('a parent that exits without stopping it still takes the JVM down', async () => {
    const { child, pid } = await runChild('exit');
    if (child.exitCode === null) await once(child, 'exit');
    expect(await waitForProcessExit(pid)).toBe(true);
  });
});
