import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { createDynamoClient } from '../dynamo/client';
import type { ClientMiddleware } from '../dynamo/client';
import { scanTable } from './scanner';

const ITEMS = 1_200;
const endpoint = inject('dynamoEndpoint');
const target = { label: 'test', endpoint, region: 'us-east-1' };
let admin: DynamoDBClient;
let table: string;

/** Fails Scan requests chosen by `shouldFail` with the given SDK-shaped error, before they reach DynamoDB. */
function failScans(shouldFail: (call: number, segment: number | undefined) => boolean, error: () => Error): ClientMiddleware {
  let calls = 0;
  return (stack) =>
    stack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'ScanCommand') {
          const segment = (args.input as { Segment?: number }).Segment;
          if (shouldFail(++calls, segment)) throw error();
        }
        return next(args);
      },
      { step: 'initialize', name: 'injectScanFaults' },
    );
}

const throttle = (): Error =>
  Object.assign(new Error('The level of configured provisioned throughput for the table was exceeded.'), {
    name: 'ProvisionedThroughputExceededException',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
  });
const fastRetry = { maxAttempts: 6, baseMs: 1, capMs: 5 };

beforeAll(async () => {
  admin = testClient(endpoint);
  table = await createTempTable(admin, { hash: { name: 'id', type: 'S' } }, 'scanner');
  const items: Item[] = Array.from({ length: ITEMS }, (_, i) => ({ id: { S: `item#${i}` }, n: { N: String(i) } }));
  await putItems(admin, table, items);
});

afterAll(async () => {
  await deleteTable(admin, table);
  admin.destroy();
});

describe('scanTable', () => {
  it.each([1, 3, 8])('reads every item exactly once with %i segments, paging within each', async (segments) => {
    const client = createDynamoClient(target);
    const seen: string[] = [];
    const pagesPerSegment = new Map<number, number>();
    const outcome = await scanTable({
      client,
      table,
      segments,
      pageSize: 100,
      projection: { expression: '#id', names: { '#id': 'id' } },
      onPage: (items, segment) => {
        pagesPerSegment.set(segment, (pagesPerSegment.get(segment) ?? 0) + 1);
        for (const item of items) seen.push(item.id?.S ?? '?');
        // The projection is applied: only the key comes back.
        if (items[0]) expect(Object.keys(items[0])).toEqual(['id']);
      },
    });
    client.destroy();
    expect(outcome.complete).toBe(true);
    expect(outcome.progress).toMatchObject({ items: ITEMS, segments, segmentsDone: segments, retries: 0 });
    expect(new Set(seen).size).toBe(ITEMS);
    expect(seen).toHaveLength(ITEMS);
    expect([...pagesPerSegment.keys()].sort()).toEqual(Array.from({ length: segments }, (_, i) => i));
    expect(outcome.progress.pages).toBeGreaterThanOrEqual(Math.ceil(ITEMS / 100));
  });

  it('starts each segment with small pages growing 4× when firstPageSize is set, then full pages, and still reads every item once', async () => {
    const client = createDynamoClient(target);
    const pages = new Map<number, number[]>();
    const seen = new Set<string>();
    const outcome = await scanTable({
      client,
      table,
      segments: 2,
      firstPageSize: 7,
      onPage: (items, segment) => {
        pages.set(segment, [...(pages.get(segment) ?? []), items.length]);
        for (const item of items) seen.add(item.id?.S ?? '?');
      },
    });
    client.destroy();
    expect(outcome.complete).toBe(true);
    expect(seen.size).toBe(ITEMS);
    for (const segment of [0, 1]) {
      const sizes = pages.get(segment) ?? [];
      // 7, 28, 112 items, then pages still growing 4× until the ~600-item segment is read.
      expect(sizes.slice(0, 3)).toEqual([7, 28, 112]);
      expect(sizes.every((n, i) => n <= 7 * 4 ** i)).toBe(true);
    }
  });

  it('retries injected throttling and still completes with every item', async () => {
    // The first 5 Scan calls are throttled, whichever segment sends them.
    const client = createDynamoClient(target, { middleware: [failScans((call) => call <= 5, throttle)] });
    let items = 0;
    const outcome = await scanTable({
      client,
      table,
      segments: 4,
      pageSize: 200,
      retry: fastRetry,
      onPage: (page) => void (items += page.length),
    });
    client.destroy();
    expect(outcome.complete).toBe(true);
    expect(outcome.progress.retries).toBe(5);
    expect(items).toBe(ITEMS);
  });

  it('ends incomplete, never complete, when throttling outlasts the retries', async () => {
    const client = createDynamoClient(target, { middleware: [failScans((_call, segment) => segment === 2, throttle)] });
    const outcome = await scanTable({ client, table, segments: 4, pageSize: 200, retry: fastRetry, onPage: () => undefined });
    client.destroy();
    expect(outcome.complete).toBe(false);
    expect(outcome.error?.kind).toBe('throttled');
    expect(outcome.reason).toMatch(/^scan failed: throttled/);
    expect(outcome.progress.segmentsDone).toBeLessThan(4);
  });

  it('stops every segment when one fails with a non-retryable error', async () => {
    let failed = false;
    const boom = (): Error =>
      Object.assign(new Error('One or more parameter values were invalid'), {
        name: 'ValidationException',
        $metadata: { httpStatusCode: 400 },
      });
    // Segment 1 fails on its second request; the others are slowed by a rate limit so they are still running.
    const client = createDynamoClient(target, {
      middleware: [
        failScans((_call, segment) => {
          if (segment !== 1 || failed) return false;
          failed = true;
          return true;
        }, boom),
      ],
    });
    const started = performance.now();
    const outcome = await scanTable({
      client,
      table,
      segments: 4,
      pageSize: 10,
      rateLimit: { pagesPerSecond: 20 },
      onPage: () => undefined,
    });
    client.destroy();
    expect(outcome.complete).toBe(false);
    expect(outcome.error?.kind).toBe('validation');
    // 120+ pages at 20/s would take 6 s; the failure stops everything at once.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('cancels promptly through the AbortSignal and reports incomplete', async () => {
    const client = createDynamoClient(target);
    const controller = new AbortController();
    let pages = 0;
    let abortedAt = 0;
    const outcome = await scanTable({
      client,
      table,
      segments: 4,
      pageSize: 5,
      rateLimit: { pagesPerSecond: 50 },
      signal: controller.signal,
      onPage: () => {
        if (++pages === 3) {
          abortedAt = performance.now();
          controller.abort();
        }
      },
    });
    const stoppedAfter = performance.now() - abortedAt;
    client.destroy();
    expect(outcome.complete).toBe(false);
    expect(outcome.reason).toBe('cancelled');
    expect(outcome.error?.kind).toBe('cancelled');
    expect(outcome.progress.items).toBeLessThan(ITEMS);
    expect(stoppedAfter).toBeLessThan(500);
  });

  it('reports a missing table as incomplete with not-found', async () => {
    const client = createDynamoClient(target);
    const outcome = await scanTable({ client, table: 'no-such-table-here', onPage: () => undefined });
    client.destroy();
    expect(outcome).toMatchObject({ complete: false, error: { kind: 'not-found', message: 'table no-such-table-here not found' } });
  });

  it('paces requests with a pages-per-second limit', async () => {
    const client = createDynamoClient(target);
    const started = performance.now();
    const outcome = await scanTable({
      client,
      table,
      segments: 2,
      pageSize: 300,
      rateLimit: { pagesPerSecond: 10 },
      onPage: () => undefined,
    });
    client.destroy();
    expect(outcome.complete).toBe(true);
    // ≥ 5 requests at 10/s: the last one cannot start before 400 ms.
    expect(outcome.progress.pages).toBeGreaterThanOrEqual(5);
    expect(performance.now() - started).toBeGreaterThanOrEqual((outcome.progress.pages - 1) * 100 - 20);
  });
  it('sends ConsistentRead on every Scan request only when asked', async () => {
    const seen: (boolean | undefined)[] = [];
    const record: ClientMiddleware = (stack) =>
      stack.add(
        (next, context) => async (args) => {
          if (context.commandName === 'ScanCommand') seen.push((args.input as { ConsistentRead?: boolean }).ConsistentRead);
          return next(args);
        },
        { step: 'initialize', name: 'recordConsistentRead' },
      );
    const client = createDynamoClient(target, { middleware: [record] });
    const consistent = await scanTable({ client, table, segments: 2, pageSize: 500, consistentRead: true, onPage: () => undefined });
    const consistentPages = seen.length;
    const eventual = await scanTable({ client, table, segments: 2, pageSize: 500, onPage: () => undefined });
    client.destroy();
    expect(consistent).toMatchObject({ complete: true, progress: { items: ITEMS } });
    expect(eventual.complete).toBe(true);
    expect(consistentPages).toBeGreaterThanOrEqual(4);
    expect(seen.slice(0, consistentPages).every((c) => c === true)).toBe(true);
    expect(seen.slice(consistentPages).every((c) => c === undefined)).toBe(true);
  });

  it('gives the same items as the plain SDK client, every attribute type included (the lean Scan decode)', async () => {
    const typed = await createTempTable(admin, { hash: { name: 'id', type: 'S' } }, 'scanner-types');
    try {
      const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'));
      const every: Item = {
        id: { S: 'every' },
        n: { N: '-12.5' },
        bin: { B: bytes('bytes\u0000\u00ff') },
        ss: { SS: ['a', 'b'] },
        ns: { NS: ['1', '2.5'] },
        bs: { BS: [bytes('x'), bytes('yz')] },
        nul: { NULL: true },
        yes: { BOOL: true },
        list: { L: [{ S: 'one' }, { B: bytes('two') }, { L: [{ BS: [bytes('deep')] }] }, { M: { k: { B: bytes('in map') } } }] },
        map: { M: { s: { S: 'v' }, b: { B: bytes('m') }, nested: { M: { l: { L: [{ N: '3' }, { NULL: true }] } } } } },
      };
      await putItems(admin, typed, [
        every,
        ...Array.from({ length: 50 }, (_, i): Item => ({ id: { S: `plain#${i}` }, b: { B: bytes(String(i)) } })),
      ]);
      const client = createDynamoClient(target);
      const lean: Item[] = [];
      const outcome = await scanTable({ client, table: typed, segments: 1, pageSize: 20, onPage: (items) => void lean.push(...items) });
      client.destroy();
      const plain: Item[] = [];
      let startKey: Item | undefined;
      do {
        const page = await admin.send(new ScanCommand({ TableName: typed, Limit: 20, ExclusiveStartKey: startKey }));
        plain.push(...(page.Items ?? []));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      expect(outcome.complete).toBe(true);
      expect(lean).toHaveLength(51);
      expect(lean).toStrictEqual(plain);
      expect(lean.find((i) => i.id?.S === 'every')).toStrictEqual(every);
    } finally {
      await deleteTable(admin, typed);
    }
  });

  it('references no page once it is handled: while a segment waits for its next page, the last one can be collected', async () => {
    // A full GC on demand (what `node --expose-gc` gives, for a context created after the flag).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let last: WeakRef<readonly Item[]> | undefined;
    const alive: boolean[] = [];
    const client = createDynamoClient(target, {
      middleware: [
        (stack) =>
          stack.add(
            (next) => async (args) => {
              if (last !== undefined) {
                // A new task first: a WeakRef keeps its target alive until the task that made it ends.
                await new Promise((resolve) => setImmediate(resolve));
                gc();
                alive.push(last.deref() !== undefined);
              }
              return next(args);
            },
            { step: 'initialize', name: 'collectPreviousPage' },
          ),
      ],
    });
    const outcome = await scanTable({ client, table, segments: 1, pageSize: 200, onPage: (items) => void (last = new WeakRef(items)) });
    client.destroy();
    expect(outcome.complete).toBe(true);
    expect(alive).toHaveLength(Math.ceil(ITEMS / 200));
    expect(alive.filter(Boolean)).toEqual([]);
  });
});
