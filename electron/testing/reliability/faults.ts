/**
 * Fault injection at the SDK edge for reliability tests: a middleware that, for chosen calls of a
 * command, throws before the request leaves (nothing reaches DynamoDB) or after the answer arrived
 * (the server did the work, the response is "lost"). Errors are shaped like the SDK's own.
 */
import {
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ThrottlingException,
  TransactionCanceledException,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import type { ClientMiddleware } from '../../services/dynamo/client';

/** The faults the tests know how to fake. */
export type FaultKind =
  | 'reset'
  | 'timeout'
  | 'refused'
  | 'ProvisionedThroughputExceededException'
  | 'ThrottlingException'
  | 'RequestLimitExceeded'
  | 'TransactionConflict';

/** The three throttling errors DynamoDB sends. */
export const THROTTLE_FAULTS = [
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
] as const satisfies readonly FaultKind[];

const metadata = { httpStatusCode: 400, requestId: 'fault-injected', attempts: 1, totalRetryDelay: 0 };

/** An error exactly as the SDK or Node would throw it for this fault. */
export function faultError(kind: FaultKind): Error {
  switch (kind) {
    case 'reset':
      // What NodeHttpHandler rejects with when the peer drops the connection mid-request.
      return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    case 'refused':
      // A connection never made (a VPN or proxy gone): nothing was sent.
      return Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:443'), { code: 'ECONNREFUSED' });
    case 'timeout':
      return Object.assign(new Error('@smithy/node-http-handler - the request socket timed out after 1000 ms of inactivity'), {
        name: 'TimeoutError',
      });
    case 'ProvisionedThroughputExceededException':
      return new ProvisionedThroughputExceededException({
        message: 'The level of configured provisioned throughput for the table was exceeded.',
        $metadata: metadata,
      });
    case 'ThrottlingException':
      return new ThrottlingException({ message: 'Rate of requests exceeds the allowed throughput.', $metadata: metadata });
    case 'RequestLimitExceeded':
      return new RequestLimitExceeded({
        message: 'Throughput exceeds the current throughput limit for your account.',
        $metadata: metadata,
      });
    case 'TransactionConflict':
      return new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
        $metadata: metadata,
        CancellationReasons: [{ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }],
      });
  }
}

/** One rule: which calls of which command fail, how, and on which side of the server. */
export interface FaultRule {
  /** e.g. `TransactWriteItemsCommand`, `ScanCommand`, `GetItemCommand`. */
  readonly command: string;
  /** Which calls of that command fail (1-based count), e.g. `(n) => n <= 3`. */
  readonly on: (call: number) => boolean;
  readonly fault: FaultKind | ((call: number) => FaultKind);
  /** `before`: nothing is sent. `after`: the request is served, then the answer is lost. */
  readonly phase?: 'before' | 'after';
}

/** What the injector did: calls seen per command and faults thrown. */
export interface FaultLog {
  readonly calls: Map<string, number>;
  injected: number;
  readonly commands: string[];
}

/** A middleware that applies `rules`; read `log` for the figures. */
export function faultInjector(rules: readonly FaultRule[]): { middleware: ClientMiddleware; log: FaultLog } {
  const log: FaultLog = { calls: new Map(), injected: 0, commands: [] };
  const middleware: ClientMiddleware = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName);
        const call = (log.calls.get(command) ?? 0) + 1;
        log.calls.set(command, call);
        log.commands.push(command);
        const rule = rules.find((r) => r.command === command && r.on(call));
        if (!rule) return next(args);
        const kind = typeof rule.fault === 'function' ? rule.fault(call) : rule.fault;
        log.injected += 1;
        if (rule.phase === 'after') {
          await next(args);
        }
        throw faultError(kind);
      },
      { step: 'initialize', name: 'reliability-faults', override: true },
    );
  return { middleware, log };
}

/** Commands that change a table; a read-only path must send none of them. */
export const WRITE_COMMANDS = new Set([
  'PutItemCommand',
  'DeleteItemCommand',
  'UpdateItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
  'ExecuteStatementCommand',
  'BatchExecuteStatementCommand',
  'ExecuteTransactionCommand',
  'CreateTableCommand',
  'DeleteTableCommand',
  'UpdateTableCommand',
]);

/** Records every command a client sends (for "never a write" assertions). */
export function recordCommands(client: DynamoDBClient): string[] {
  const sent: string[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: 'reliability-record' },
  );
  return sent;
}
