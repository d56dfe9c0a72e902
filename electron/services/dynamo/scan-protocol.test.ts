import { DynamoDBClient, GetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { HttpResponse } from '@smithy/core/transport';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDynamoClient } from './client';
import { isRetryable, isThrottle, toAppError } from './errors';
import { LeanScanProtocol, decodeItems } from './scan-protocol';

// The HTTP edge replaced by canned responses: what is compared is the SDK's decode and ours of the same bytes.
function clientAnswering(status: number, body: string, lean: boolean): DynamoDBClient {
  return new DynamoDBClient({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:1',
    credentials: { accessKeyId: 'locksmith', secretAccessKey: 'locksmith' },
    maxAttempts: 1,
    ...(lean ? { protocol: LeanScanProtocol } : {}),
    requestHandler: {
      handle: () =>
        Promise.resolve({
          response: new HttpResponse({
            statusCode: status,
            headers: { 'X-Amzn-RequestId': 'req-1', 'x-amz-crc32': '1' },
            body: Buffer.from(body, 'utf8'),
          }),
        }),
    },
  });
}

async function bothWays<T>(status: number, body: string, send: (client: DynamoDBClient) => Promise<T>): Promise<{ sdk: T; lean: T }> {
  const sdk = clientAnswering(status, body, false);
  const lean = clientAnswering(status, body, true);
  try {
    return { sdk: await send(sdk), lean: await send(lean) };
  } finally {
    sdk.destroy();
    lean.destroy();
  }
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

// Every attribute type, nested where DynamoDB nests them, with binary inside lists and maps.
const EVERY_TYPE = {
  PK: { S: 'UNIQ#EMAIL#ada@lovelace.io' },
  SK: { S: 'LOCK' },
  n: { N: '-12.50' },
  bin: { B: b64('bytes\u0000\u00ff') },
  emptyBin: { B: '' },
  ss: { SS: ['a', 'b'] },
  ns: { NS: ['1', '2.5'] },
  bs: { BS: [b64('x'), b64('yz')] },
  nul: { NULL: true },
  yes: { BOOL: true },
  no: { BOOL: false },
  list: { L: [{ S: 'one' }, { B: b64('two') }, { L: [{ BS: [b64('deep')] }] }, { M: { k: { B: b64('in map') } } }] },
  map: {
    M: { s: { S: 'v' }, b: { B: b64('m') }, bs: { BS: [b64('p'), b64('q')] }, nested: { M: { l: { L: [{ N: '3' }, { NULL: true }] } } } },
  },
  'strange key ü': { S: 'ü "quoted" \\ slash' },
};

const PAGE = {
  Items: [EVERY_TYPE, { PK: { S: 'ACCT#1' }, SK: { S: 'PROFILE' }, email: { S: 'ada@lovelace.io' } }, { PK: { B: b64('binary key') } }],
  Count: 3,
  ScannedCount: 7,
  LastEvaluatedKey: { PK: { S: 'ACCT#1' }, SK: { S: 'PROFILE' } },
  ConsumedCapacity: {
    TableName: 'accounts',
    CapacityUnits: 2.5,
    Table: { CapacityUnits: 2 },
    GlobalSecondaryIndexes: { byEmail: { CapacityUnits: 0.5 } },
  },
};

describe('LeanScanProtocol', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is the protocol of every client createDynamoClient makes', () => {
    for (const target of [
      { label: 'local', endpoint: 'http://127.0.0.1:1', region: 'us-east-1' },
      { label: 'aws', region: 'eu-west-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'x' } },
    ]) {
      const client = createDynamoClient(target, { env: {} });
      expect(client.config.protocol).toBeInstanceOf(LeanScanProtocol);
      client.destroy();
    }
  });

  it('decodes the items itself: the SDK gets the page without them', async () => {
    // What the lean path hands to the SDK's protocol (the parent class): the page with `Items: []`.
    const parent = Object.getPrototypeOf(LeanScanProtocol.prototype) as { deserializeResponse: (...args: unknown[]) => Promise<unknown> };
    const bodies: string[] = [];
    const original = parent.deserializeResponse;
    vi.spyOn(parent, 'deserializeResponse').mockImplementation(function (this: unknown, ...args: unknown[]) {
      bodies.push(Buffer.from((args[2] as HttpResponse).body as Uint8Array).toString('utf8'));
      return original.apply(this, args);
    });
    const { lean } = await bothWays(200, JSON.stringify(PAGE), (c) => c.send(new ScanCommand({ TableName: 'accounts' })));
    expect(lean.Items).toHaveLength(3);
    // Two calls: the SDK client's (whole page) and the lean client's (items taken out).
    expect(bodies.map((b) => (JSON.parse(b) as { Items: unknown[] }).Items.length)).toEqual([3, 0]);
  });

  it('decodes a Scan page with every attribute type exactly as the SDK does, binary as bytes', async () => {
    const { sdk, lean } = await bothWays(200, JSON.stringify(PAGE), (c) => c.send(new ScanCommand({ TableName: 'accounts' })));
    expect(lean).toStrictEqual(sdk);
    expect(Object.keys(lean)).toEqual(Object.keys(sdk));
    const item = lean.Items![0]!;
    expect(item.bin?.B).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(item.bin!.B!).toString('utf8')).toBe('bytes\u0000\u00ff');
    expect(item.list?.L?.[2]?.L?.[0]?.BS?.[0]).toBeInstanceOf(Uint8Array);
    expect(item.map?.M?.bs?.BS?.map((b) => Buffer.from(b).toString())).toEqual(['p', 'q']);
    expect(lean.ConsumedCapacity?.GlobalSecondaryIndexes?.byEmail?.CapacityUnits).toBe(0.5);
    expect(lean.$metadata.requestId).toBe('req-1');
  });

  it('decodes an empty page, and a last page without LastEvaluatedKey, as the SDK does', async () => {
    for (const page of [
      { Items: [], Count: 0, ScannedCount: 0 },
      { Items: [{ PK: { S: 'x' } }], Count: 1, ScannedCount: 1 },
    ]) {
      const { sdk, lean } = await bothWays(200, JSON.stringify(page), (c) => c.send(new ScanCommand({ TableName: 'accounts' })));
      expect(lean).toStrictEqual(sdk);
    }
  });

  it('leaves a map key named __proto__ a plain key, never the prototype', () => {
    const items = JSON.parse('[{"__proto__":{"M":{"__proto__":{"B":"eA=="}}}}]') as Record<string, Record<string, unknown>>[];
    const [item] = decodeItems(items);
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
    const inner = Object.getOwnPropertyDescriptor(item, '__proto__')?.value as { M: object };
    expect(Object.getPrototypeOf(inner.M)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(inner.M, '__proto__')?.value).toStrictEqual({ B: new Uint8Array([0x78]) });
  });

  it.each([
    [400, 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', 'Rate of requests exceeds the allowed throughput.'],
    [400, 'com.amazonaws.dynamodb.v20120810#ThrottlingException', 'Rate exceeded'],
    [400, 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException', 'Requested resource not found'],
    [400, 'com.amazon.coral.validate#ValidationException', 'One or more parameter values were invalid'],
    [500, 'com.amazonaws.dynamodb.v20120810#InternalServerError', 'Internal server error'],
    [503, 'com.amazonaws.dynamodb.v20120810#ServiceUnavailable', 'unavailable'],
  ])('leaves a %i %s to the SDK: same error, same retry and throttle classification', async (status, type, message) => {
    const body = JSON.stringify({ __type: type, message });
    const failure = (c: DynamoDBClient): Promise<unknown> =>
      c.send(new ScanCommand({ TableName: 'accounts' })).then(
        () => undefined,
        (error: unknown) => error,
      );
    const { sdk, lean } = await bothWays(status, body, failure);
    expect(lean).toBeInstanceOf(Error);
    const fields = (e: unknown): unknown => {
      const error = e as Error & { $fault?: string; $retryable?: unknown; $metadata?: unknown };
      return {
        ctor: error.constructor,
        name: error.name,
        message: error.message,
        fault: error.$fault,
        retryable: error.$retryable,
        metadata: error.$metadata,
      };
    };
    expect(fields(lean)).toStrictEqual(fields(sdk));
    expect([isRetryable(lean), isThrottle(lean)]).toEqual([isRetryable(sdk), isThrottle(sdk)]);
    expect(toAppError(lean)).toStrictEqual(toAppError(sdk));
  });

  it('leaves a corrupt success body to the SDK: the same error', async () => {
    const failure = (c: DynamoDBClient): Promise<unknown> =>
      c.send(new ScanCommand({ TableName: 'accounts' })).then(
        () => undefined,
        (error: unknown) => error,
      );
    const { sdk, lean } = await bothWays(200, '{"Items":[{"PK":', failure);
    expect(lean).toBeInstanceOf(Error);
    expect([(lean as Error).name, (lean as Error).message]).toEqual([(sdk as Error).name, (sdk as Error).message]);
  });

  it('leaves other operations to the SDK', async () => {
    const body = JSON.stringify({ Item: EVERY_TYPE });
    const { sdk, lean } = await bothWays(200, body, (c) => c.send(new GetItemCommand({ TableName: 'accounts', Key: { PK: { S: 'x' } } })));
    expect(lean).toStrictEqual(sdk);
  });
});
