/**
 * A latency model of real DynamoDB for the bench: an HTTP proxy on loopback in front of DynamoDB
 * Local that gives each answer what the network and the service would add — a round trip, transfer
 * time over a shared link, and read-capacity pacing per request like one partition's ceiling — and
 * answers `DescribeTable` from a copy made once, in tens of milliseconds, where DynamoDB Local counts
 * the table for every call. The figures and their sources are in docs/benchmarks.md ("Latency model").
 */
import {
  createServer,
  request as httpRequest,
  Agent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** The model's figures. */
export interface LatencyFigures {
  /** Added to every request: the client ↔ endpoint round trip plus the service's own floor (ms). */
  readonly roundTripMs: number;
  /** What a `DescribeTable` answer takes in all (ms), served from the copy. */
  readonly describeTableMs: number;
  /** Throughput of the link every answer shares (bytes per ms); Infinity for none. */
  readonly bytesPerMs: number;
  /** Read capacity one request may consume per second (one partition's ceiling); Infinity for none. */
  readonly rcuPerSecond: number;
}

/** Real DynamoDB from a client in or near its region (justified in docs/benchmarks.md). */
export const AWS_MODEL: LatencyFigures = { roundTripMs: 10, describeTableMs: 30, bytesPerMs: 100_000, rcuPerSecond: 3_000 };

/** Nothing added: the proxy's own cost, to show it is not the bottleneck. */
export const ZERO_MODEL: LatencyFigures = {
  roundTripMs: 0,
  describeTableMs: 0,
  bytesPerMs: Number.POSITIVE_INFINITY,
  rcuPerSecond: Number.POSITIVE_INFINITY,
};

/** Eventually consistent read units for `bytes` read: one unit per 8 KB (half of 4 KB strongly consistent), rounded up per 4 KB. */
export function readUnits(bytes: number): number {
  return Math.ceil(bytes / 4096) / 2;
}

/**
 * When each answer is released (pure; times in ms on one clock). An answer is ready once DynamoDB
 * Local has answered and its read units have been paced at the partition's rate since the request
 * arrived, plus the round trip; then it crosses the shared link, one answer after another.
 */
export class ReleaseSchedule {
  private linkFreeAt = 0;

  constructor(private readonly figures: LatencyFigures) {}

  /** The release time of one answer of `bytes`, its request having arrived at `arrivedAt` and DynamoDB Local answered at `answeredAt`. */
  release(arrivedAt: number, answeredAt: number, bytes: number): number {
    const paced = arrivedAt + (readUnits(bytes) / this.figures.rcuPerSecond) * 1000;
    const ready = Math.max(answeredAt, paced) + this.figures.roundTripMs;
    const start = Math.max(ready, this.linkFreeAt);
    this.linkFreeAt = start + bytes / this.figures.bytesPerMs;
    return this.linkFreeAt;
  }
}

/** What the model saw (for the bench's log and the tests). */
export interface ModelStats {
  requests: number;
  bytesOut: number;
  describeFromCopy: number;
  /** With `trace`: each request's arrival (performance.now()), operation, and whether it asked for a Limit (a sample, a probe). */
  readonly trace: { at: number; operation: string; limited: boolean }[];
}

/** A running model. */
export interface LatencyModel {
  readonly endpoint: string;
  readonly figures: LatencyFigures;
  readonly stats: ModelStats;
  stop(): Promise<void>;
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

const TARGET_PREFIX = 'DynamoDB_20120810.';
/** Operations after which a copied table description is stale. */
const SCHEMA_CHANGES = new Set(['CreateTable', 'DeleteTable', 'UpdateTable']);
/** Hop-by-hop headers, and the length the proxy sets itself. */
const DROPPED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

function tableName(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { TableName?: unknown };
    return typeof parsed.TableName === 'string' ? parsed.TableName : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts the model on a free loopback port in front of `target` (DynamoDB Local's endpoint), having
 * described each table of `describe` once through itself.
 * Connections to both sides are kept alive, as the SDK keeps them; answers are read whole from
 * DynamoDB Local and released whole at their scheduled time (the SDK parses a body only once it is
 * complete, so the time the last byte arrives is the time that counts).
 */
export async function startLatencyModel(
  target: string,
  figures: LatencyFigures = AWS_MODEL,
  options: { describe?: readonly string[]; trace?: boolean } = {},
): Promise<LatencyModel> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const schedule = new ReleaseSchedule(figures);
  const described = new Map<string, Answer>();
  const stats: ModelStats = { requests: 0, bytesOut: 0, describeFromCopy: 0, trace: [] };

  const forward = (incoming: IncomingMessage, body: Buffer): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const out = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, 'content-length': String(body.length) },
          agent,
        },
        (res) => void readAll(res).then((b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }), reject),
      );
      out.once('error', reject);
      out.end(body);
    });

  const send = (res: ServerResponse, answer: Answer, at: number): void => {
    const write = (): void => {
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !DROPPED.has(k)) headers[k] = v;
      headers['content-length'] = String(answer.body.length);
      res.writeHead(answer.status, headers);
      res.end(answer.body);
      stats.bytesOut += answer.body.length;
    };
    const wait = at - performance.now();
    if (wait > 0.5) setTimeout(write, wait);
    else write();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const arrivedAt = performance.now();
    stats.requests++;
    const body = await readAll(req);
    const header = req.headers['x-amz-target'];
    const operation = typeof header === 'string' && header.startsWith(TARGET_PREFIX) ? header.slice(TARGET_PREFIX.length) : '';
    const table = tableName(body);
    if (options.trace) stats.trace.push({ at: arrivedAt, operation, limited: body.includes('"Limit"') });
    if (operation === 'DescribeTable' && table !== undefined) {
      const copy = described.get(table);
      if (copy) {
        stats.describeFromCopy++;
        send(res, copy, arrivedAt + figures.describeTableMs);
        return;
      }
    }
    const answer = await forward(req, body);
    if (operation === 'DescribeTable' && table !== undefined && answer.status === 200) described.set(table, answer);
    if (SCHEMA_CHANGES.has(operation) && table !== undefined) described.delete(table);
    const releaseAt =
      operation === 'DescribeTable'
        ? Math.max(performance.now(), arrivedAt + figures.describeTableMs)
        : schedule.release(arrivedAt, performance.now(), answer.body.length);
    send(res, answer, releaseAt);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else
        res
          .writeHead(502, { 'content-type': 'text/plain' })
          .end(`latency model: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  // Longer than the SDK's idle sockets live, so the proxy never closes a connection the client reuses.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  // The one DescribeTable per table made at start (DynamoDB Local counts the table for it): later ones come from the copy.
  if (options.describe?.length) {
    const client = new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'locksmith', secretAccessKey: 'locksmith' },
    });
    try {
      for (const TableName of options.describe) await client.send(new DescribeTableCommand({ TableName }));
    } finally {
      client.destroy();
    }
    stats.requests = 0;
    stats.trace.length = 0;
  }
  return {
    endpoint,
    figures,
    stats,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
