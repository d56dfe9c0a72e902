/** Test helpers for the watch: stream-enabled uniq tables, seed-1 transactions written literally, an event collector that waits on conditions. */
import {
  CreateTableCommand,
  TransactWriteItemsCommand,
  type AttributeDefinition,
  type DynamoDBClient,
  type StreamViewType,
} from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/model';
import type { WatchEvent } from '../../../shared/watch/watch-events';
import { uniqueTableName } from '../../testing/dynamo-fixtures';

/** Options of a test table. */
export interface StreamTableOptions {
  /** Stream view type; `none` creates the table without a stream. */
  readonly stream?: StreamViewType | 'none';
  /** A GSI whose partition key is this attribute (the holder index lookup uses). */
  readonly gsiOn?: string;
}

/** Creates a PK/SK table (uniq layout) with a stream; returns its name. */
export async function createStreamTable(client: DynamoDBClient, prefix: string, options: StreamTableOptions = {}): Promise<string> {
  const name = uniqueTableName(prefix);
  const stream = options.stream ?? 'NEW_AND_OLD_IMAGES';
  const attributes: AttributeDefinition[] = [
    { AttributeName: 'PK', AttributeType: 'S' },
    { AttributeName: 'SK', AttributeType: 'S' },
  ];
  if (options.gsiOn) attributes.push({ AttributeName: options.gsiOn, AttributeType: 'S' });
  await client.send(
    new CreateTableCommand({
      TableName: name,
      AttributeDefinitions: attributes,
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      ...(options.gsiOn
        ? {
            GlobalSecondaryIndexes: [
              {
                IndexName: `by-${options.gsiOn}`,
                KeySchema: [{ AttributeName: options.gsiOn, KeyType: 'HASH' }],
                Projection: { ProjectionType: 'KEYS_ONLY' },
              },
            ],
          }
        : {}),
      ...(stream === 'none' ? {} : { StreamSpecification: { StreamEnabled: true, StreamViewType: stream } }),
    }),
  );
  return name;
}

const s = (value: string): { S: string } => ({ S: value });

/** A seed-1 account item. */
export function account(id: string, email: string, username: string): Item {
  return { PK: s(`ACCT#${id}`), SK: s('PROFILE'), email: s(email), username: s(username) };
}

/** A seed-1 lock key. */
export function lockKey(tag: 'EMAIL' | 'HANDLE', value: string): Item {
  return { PK: s(`UNIQ#${tag}#${value.toLowerCase()}`), SK: s('LOCK') };
}

/** Signup in one transaction: the account and both locks, every Put guarded. */
export async function signup(client: DynamoDBClient, table: string, id: string, email: string, username: string): Promise<void> {
  const guard = { ConditionExpression: 'attribute_not_exists(PK)' };
  await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        { Put: { TableName: table, Item: account(id, email, username), ...guard } },
        { Put: { TableName: table, Item: lockKey('EMAIL', email), ...guard } },
        { Put: { TableName: table, Item: lockKey('HANDLE', username), ...guard } },
      ],
    }),
  );
}

/** Change email in one transaction: new lock, old lock deleted, account updated. */
export async function changeEmail(client: DynamoDBClient, table: string, id: string, from: string, to: string): Promise<void> {
  await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        { Put: { TableName: table, Item: lockKey('EMAIL', to), ConditionExpression: 'attribute_not_exists(PK)' } },
        { Delete: { TableName: table, Key: lockKey('EMAIL', from), ConditionExpression: 'attribute_exists(PK)' } },
        {
          Update: {
            TableName: table,
            Key: { PK: s(`ACCT#${id}`), SK: s('PROFILE') },
            UpdateExpression: 'SET email = :to',
            ConditionExpression: 'email = :from',
            ExpressionAttributeValues: { ':to': s(to), ':from': s(from) },
          },
        },
      ],
    }),
  );
}

/** Delete an account with all its locks, in one transaction. */
export async function deleteAccount(client: DynamoDBClient, table: string, id: string, email: string, username: string): Promise<void> {
  await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        { Delete: { TableName: table, Key: { PK: s(`ACCT#${id}`), SK: s('PROFILE') } } },
        { Delete: { TableName: table, Key: lockKey('EMAIL', email) } },
        { Delete: { TableName: table, Key: lockKey('HANDLE', username) } },
      ],
    }),
  );
}

/** Collects watch events and waits for one matching a condition (no sleeps: resolved by the event itself). */
export class EventLog {
  readonly events: WatchEvent[] = [];
  private waiters: { match: (e: WatchEvent) => boolean; resolve: (e: WatchEvent) => void }[] = [];

  /** The onEvent callback. */
  readonly push = (event: WatchEvent): void => {
    this.events.push(event);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(event)) return true;
      w.resolve(event);
      return false;
    });
  };

  /** Resolves with the first event (already seen or future) matching `match`; rejects after `timeoutMs`. */
  waitFor(match: (e: WatchEvent) => boolean, timeoutMs = 20_000, what = 'an event'): Promise<WatchEvent> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; events: ${JSON.stringify(this.events)}`)), timeoutMs);
      this.waiters.push({ match, resolve: (e) => (clearTimeout(timer), resolve(e)) });
    });
  }
}
