/**
 * The request context: what a table method needs, resolved once per call before any service
 * function runs — the connection and its client, the table's description, the convention. The
 * bridge (electron/bridge/request-context.ts) and the CLI build it; service functions only read it,
 * so nothing below describes the table or checks the convention a second time.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Convention } from '../../../shared/model';
import type { DynamoTarget } from '../dynamo/client';
import type { ErrorContext } from '../dynamo/errors';
import type { TableInfo } from '../dynamo/tables';

/** A connection ready to use: its client, where requests really go, and whether it may write. */
export interface ConnectionContext {
  /** The id the request named; a preview keeps it and execute compares it (not labels or endpoints). */
  readonly connectionId: string;
  /** Shown to people and written to the activity log: "sandbox", "profile prod", an endpoint URL. */
  readonly label: string;
  readonly target: DynamoTarget;
  readonly client: DynamoDBClient;
  /** The endpoint requests go to (the target's, or one configured by the environment or profile); absent: AWS. */
  readonly endpoint: string | undefined;
  /** True when the endpoint is not AWS (DynamoDB Local, a proxy). */
  readonly local: boolean;
  readonly writable: boolean;
  /** What to do to allow writes, in the words of the shell that asks (app: a toggle; CLI: a flag). */
  readonly allowWrites: string;
  /** Strings to scrub from messages and the activity log besides the process-wide known secrets. */
  readonly secrets?: readonly string[];
  readonly errorContext: ErrorContext;
}

/** A connection plus the table's name and key schema: what checking a convention against the table needs. */
export interface KeyedTableContext extends ConnectionContext {
  readonly table: Pick<TableInfo, 'name' | 'keys'>;
}

/** A connection plus the described table (one DescribeTable per request). */
export interface TableContext extends KeyedTableContext {
  readonly table: TableInfo;
}

/** Where the convention of a request came from. */
export type ConventionSource = 'given' | 'saved' | 'detected' | 'file' | 'preset' | 'preset-defaults';

/** The convention to read a table with, checked against its key schema once. */
export interface ChosenConvention {
  readonly convention: Convention;
  readonly conventionSource: ConventionSource;
}

/** A described table plus the convention to read it with, checked against that description once. */
export interface ConventionContext extends TableContext, ChosenConvention {}

/** What a shell knows about a connection before the context is built. */
export interface ConnectionParts {
  readonly connectionId: string;
  /** What people call it; default: the target's label. */
  readonly label?: string;
  readonly target: DynamoTarget;
  readonly client: DynamoDBClient;
  readonly writable: boolean;
  readonly allowWrites: string;
  readonly secrets?: readonly string[];
  /** The effective endpoint (`effectiveEndpoint(target, env).url`), computed by the shell that knows its environment. */
  readonly endpoint: string | undefined;
  /** `isLocalTarget(target, env)`. */
  readonly local: boolean;
}

/** Builds a connection context: the error context computed once, here (no SDK is loaded: the CLI's help stays fast). */
export function connectionContext(parts: ConnectionParts): ConnectionContext {
  const { endpoint } = parts;
  const errorContext: ErrorContext = {
    ...(endpoint ? { endpoint } : {}),
    ...(parts.target.profile ? { profile: parts.target.profile } : {}),
    ...(parts.secrets ? { secrets: parts.secrets } : {}),
  };
  return { ...parts, label: parts.label ?? parts.target.label, errorContext };
}

/** Adds the described table to a connection context (its name joins the error context). */
export function tableContext(connection: ConnectionContext, table: TableInfo): TableContext {
  return { ...connection, table, errorContext: { ...connection.errorContext, table: table.name } };
}
