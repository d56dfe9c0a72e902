/** One DynamoDB client per connection target, reused across requests (sockets and credentials are cached by the client). */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoTarget } from '../dynamo/client';
import { createDynamoClient } from '../dynamo/client';

/** The pool's operations. */
export interface ClientPool {
  /** The client of a connection's current target; a changed region or restarted sandbox gets a new one. */
  clientFor(connectionId: string, target: DynamoTarget): DynamoDBClient;
  /** Destroys every client (app shutdown). */
  close(): void;
}

/** One key per connection and where it points: its client, and the audits lookups may use, are kept under it. */
export function targetKey(connectionId: string, target: DynamoTarget): string {
  return `${connectionId}|${target.region}|${target.endpoint ?? ''}`;
}

/** Creates an empty pool; `onReplace` hears the key of a client dropped for a new target (that database may be gone). */
export function createClientPool(env?: NodeJS.ProcessEnv, onReplace?: (oldKey: string) => void): ClientPool {
  const clients = new Map<string, DynamoDBClient>();
  return {
    clientFor(connectionId, target) {
      const key = targetKey(connectionId, target);
      let client = clients.get(key);
      if (!client) {
        // A restarted sandbox or a changed region gets a new client; drop the stale one of this connection.
        for (const [old, stale] of clients) {
          if (!old.startsWith(`${connectionId}|`)) continue;
          stale.destroy();
          clients.delete(old);
          onReplace?.(old);
        }
        client = createDynamoClient(target, env ? { env } : {});
        clients.set(key, client);
      }
      return client;
    },
    close() {
      for (const client of clients.values()) client.destroy();
      clients.clear();
    },
  };
}
