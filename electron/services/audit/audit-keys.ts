/**
 * The key schema an audit reads with, found without DescribeTable: DynamoDB Local answers that by
 * counting the table (0.3–0.4 s of its CPU at 200k items, on the machine the scan then runs on), and
 * an audit needs only the key's attribute names and types. A candidate schema — the convention's own
 * keys, or one read off detection's sample — is trusted only once the table itself accepted it: one
 * GetItem with a key of exactly that shape (DynamoDB refuses a key whose names, types or count differ
 * from the table's), and for a sample's pair of attributes, which is the hash key: a Query on it
 * (DynamoDB refuses a Query whose condition is not on the hash key). Any doubt — no candidate, several
 * accepted, an error — answers undefined, and the caller describes the table as before. So a table
 * re-created with other keys is never read with the old ones (audit-keys.int.test.ts).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item, KeyAttribute, KeySchema } from '../../../shared/model';
import type { Result } from '../../../shared/result';
import { isHashKey, verifyKeySchema } from '../dynamo/key-probe';

/** Most attributes common to every sampled item that are tried as keys (n + n·(n−1) probes). */
export const MAX_KEY_CANDIDATES = 3;

function scalarType(value: Item[string] | undefined): KeyAttribute['type'] | undefined {
  if (value === undefined) return undefined;
  if (value.S !== undefined) return 'S';
  if (value.N !== undefined) return 'N';
  if (value.B !== undefined) return 'B';
  return undefined;
}

/**
 * The key schemas a sample allows: a key attribute is in every item, with one scalar type. Each
 * common attribute as a hash key alone, and each pair (in either order: which one is the hash key
 * is asked separately, see {@link hashKeyOf}); empty when the sample is empty or has more than
 * {@link MAX_KEY_CANDIDATES} common attributes (then describe).
 */
export function candidateKeySchemas(sample: readonly Item[]): KeySchema[] {
  const [first, ...rest] = sample;
  if (!first) return [];
  const common = new Map<string, KeyAttribute['type']>();
  for (const [name, value] of Object.entries(first)) {
    const type = scalarType(value);
    if (type) common.set(name, type);
  }
  for (const item of rest) {
    for (const [name, type] of common) if (scalarType(item[name]) !== type) common.delete(name);
    if (common.size === 0) return [];
  }
  if (common.size > MAX_KEY_CANDIDATES) return [];
  const attributes = [...common].map(([name, type]) => ({ name, type }));
  return attributes.flatMap((hash, i) => [{ hash }, ...attributes.slice(i + 1).map((range) => ({ hash, range }))]);
}

/** The accepted pair's order: the one attribute DynamoDB queries as the hash key (undefined unless exactly one). */
async function hashKeyOf(client: DynamoDBClient, table: string, keys: KeySchema, signal?: AbortSignal): Promise<KeySchema | undefined> {
  const { hash, range } = keys;
  if (!range) return keys;
  const [first, second] = await Promise.all([isHashKey(client, table, hash, signal), isHashKey(client, table, range, signal)]);
  if (first === true && second === false) return keys;
  if (first === false && second === true) return { hash: range, range: hash };
  return undefined;
}

/**
 * The one candidate the table accepts, or undefined (none, several, or an answer that proves nothing).
 * With `ordered`, a pair's order is the candidate's own (a convention's keys); else it is asked.
 */
export async function probeKeySchema(
  client: DynamoDBClient,
  table: string,
  candidates: readonly KeySchema[],
  ordered: boolean,
  signal?: AbortSignal,
): Promise<KeySchema | undefined> {
  if (candidates.length === 0) return undefined;
  const checks = await Promise.all(candidates.map((keys) => verifyKeySchema(client, table, keys, signal)));
  if (checks.includes('unknown')) return undefined;
  const accepted = candidates.filter((_, i) => checks[i] === 'same');
  if (accepted.length !== 1) return undefined;
  // GetItem's key is a map: it says which attributes form the key, not which one is the hash key.
  return ordered ? accepted[0] : hashKeyOf(client, table, accepted[0]!, signal);
}

/**
 * The table's key schema for an audit without describing it: `known` (a given or saved convention's
 * keys) checked by one probe, else the one schema detection's sample allows and the table accepts.
 * Undefined: describe the table.
 */
export async function auditKeySchema(
  client: DynamoDBClient,
  table: string,
  known: KeySchema | undefined,
  sample: Promise<Result<Item[]>> | undefined,
  signal?: AbortSignal,
): Promise<KeySchema | undefined> {
  if (known) {
    // The same two attributes may have changed places (a re-created table): the order is asked too.
    const [accepted, ordered] = await Promise.all([
      probeKeySchema(client, table, [known], true, signal),
      hashKeyOf(client, table, known, signal),
    ]);
    return accepted && ordered;
  }
  const read = await sample;
  return read?.ok ? probeKeySchema(client, table, candidateKeySchemas(read.value), false, signal) : undefined;
}
