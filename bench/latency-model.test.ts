import { createServer, request, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ReleaseSchedule, readUnits, startLatencyModel, ZERO_MODEL, type LatencyModel } from './latency-model';

describe('readUnits', () => {
  it('charges eventually consistent reads half a unit per started 4 KB', () => {
    expect(readUnits(1)).toBe(0.5);
    expect(readUnits(4096)).toBe(0.5);
    expect(readUnits(8192)).toBe(1);
    expect(readUnits(1024 * 1024)).toBe(128);
  });
});

describe('ReleaseSchedule', () => {
  const figures = { roundTripMs: 10, describeTableMs: 30, bytesPerMs: 1_000, rcuPerSecond: 3_000 };

  it('adds the round trip to an answer that is neither paced nor slow to cross', () => {
    expect(new ReleaseSchedule({ ...figures, bytesPerMs: Number.POSITIVE_INFINITY }).release(100, 105, 100)).toBe(115);
  });

  it('paces a 1 MB page at one partition’s 3,000 read units a second', () => {
    const at = new ReleaseSchedule({ ...figures, bytesPerMs: Number.POSITIVE_INFINITY }).release(0, 1, 1024 * 1024);
    expect(at).toBeCloseTo((128 / 3000) * 1000 + 10, 6);
  });

  it('sends answers over the shared link one after another', () => {
    const s = new ReleaseSchedule({ ...figures, rcuPerSecond: Number.POSITIVE_INFINITY });
    expect(s.release(0, 0, 5_000)).toBe(15);
    // Ready at 10 too, but the link is busy until 15.
    expect(s.release(0, 0, 5_000)).toBe(20);
  });
});

/** A stand-in upstream that counts requests and connections, answering DescribeTable and Scan with fixed bodies. */
async function upstream(): Promise<{ url: string; server: Server; seen: string[]; connections: () => number }> {
  const seen: string[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push(String(req.headers['x-amz-target']));
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-echo': Buffer.concat(chunks).toString('utf8') });
      // Chunked on purpose: the model must deliver it with a length of its own.
      res.write('{"Table":');
      res.end('{"TableName":"t"}}');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen, connections: () => connections };
}

function call(endpoint: string, agent: Agent, operation: string, table = 't'): Promise<{ ms: number; body: string; echo: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      `${endpoint}/`,
      {
        method: 'POST',
        agent,
        headers: { 'x-amz-target': `DynamoDB_20120810.${operation}`, 'content-type': 'application/x-amz-json-1.0' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ ms: performance.now() - started, body: Buffer.concat(chunks).toString('utf8'), echo: String(res.headers['x-echo']) }),
        );
      },
    );
    req.once('error', reject);
    req.end(JSON.stringify({ TableName: table }));
  });
}

describe('startLatencyModel', () => {
  const open: { stop: () => Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.stop();
  });

  async function model(figures = ZERO_MODEL): Promise<{ m: LatencyModel; up: Awaited<ReturnType<typeof upstream>>; agent: Agent }> {
    const up = await upstream();
    const m = await startLatencyModel(up.url, figures);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    open.push({ stop: async () => (agent.destroy(), await m.stop(), await new Promise<void>((r) => up.server.close(() => r()))) });
    return { m, up, agent };
  }

  it('forwards the request body and answers with the upstream body whole', async () => {
    const { m, agent } = await model();
    const answer = await call(m.endpoint, agent, 'Scan');
    expect(answer.body).toBe('{"Table":{"TableName":"t"}}');
    expect(answer.echo).toBe('{"TableName":"t"}');
  });

  it('describes a table upstream once, then answers from its copy after the modelled time', async () => {
    const { m, up, agent } = await model({ ...ZERO_MODEL, describeTableMs: 40 });
    await call(m.endpoint, agent, 'DescribeTable');
    const second = await call(m.endpoint, agent, 'DescribeTable');
    expect(up.seen.filter((t) => t.endsWith('DescribeTable'))).toHaveLength(1);
    expect(m.stats.describeFromCopy).toBe(1);
    expect(second.body).toBe('{"Table":{"TableName":"t"}}');
    expect(second.ms).toBeGreaterThanOrEqual(39);
  });

  it('forgets a copied description when the table changes', async () => {
    const { m, up, agent } = await model();
    await call(m.endpoint, agent, 'DescribeTable');
    await call(m.endpoint, agent, 'DeleteTable');
    await call(m.endpoint, agent, 'DescribeTable');
    expect(up.seen.filter((t) => t.endsWith('DescribeTable'))).toHaveLength(2);
  });

  it('traces each request when asked: its operation and whether it set a Limit', async () => {
    const up = await upstream();
    const m = await startLatencyModel(up.url, ZERO_MODEL, { trace: true });
    const agent = new Agent({ keepAlive: true });
    open.push({ stop: async () => (agent.destroy(), await m.stop(), await new Promise<void>((r) => up.server.close(() => r()))) });
    await call(m.endpoint, agent, 'Scan');
    expect(m.stats.trace.map((e) => [e.operation, e.limited])).toEqual([['Scan', false]]);
  });

  it('adds the round trip to every answer', async () => {
    const { m, agent } = await model({ ...ZERO_MODEL, roundTripMs: 30 });
    expect((await call(m.endpoint, agent, 'GetItem')).ms).toBeGreaterThanOrEqual(29);
  });

  it('keeps connections alive on both sides', async () => {
    const { m, up, agent } = await model();
    let clientConnections = 0;
    const before = agent.createConnection;
    agent.createConnection = (...args: Parameters<typeof before>) => (clientConnections++, before.apply(agent, args));
    for (let i = 0; i < 5; i++) await call(m.endpoint, agent, 'Scan');
    expect(clientConnections).toBe(1);
    expect(up.connections()).toBe(1);
  });
});
