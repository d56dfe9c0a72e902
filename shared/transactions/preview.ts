/** Assembles a preview from a built transaction: exact input with token, explanations and copy-as forms. */
import { awsCliCommand, sdkV3Snippet } from './copy-as';
import type { BuiltTransaction, Preview, PreviewConnection, TransactWriteInputJson } from './types';

/** What main adds to a built transaction: ids, times and the connection it was made for. */
export interface PreviewStamp {
  readonly id: string;
  readonly token: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly connection: PreviewConnection;
}

/** The exact TransactWriteItems input of a built transaction with its ClientRequestToken. */
export function transactInput(built: BuiltTransaction, token: string): TransactWriteInputJson {
  return { TransactItems: built.items, ClientRequestToken: token };
}

/** A preview of `built`, stamped by main. */
export function assemblePreview(built: BuiltTransaction, stamp: PreviewStamp): Preview {
  const input = transactInput(built, stamp.token);
  const target = {
    region: stamp.connection.region,
    ...(stamp.connection.endpoint ? { endpoint: stamp.connection.endpoint } : {}),
    ...(stamp.connection.profile ? { profile: stamp.connection.profile } : {}),
  };
  return {
    id: stamp.id,
    createdAt: stamp.createdAt.toISOString(),
    expiresAt: stamp.expiresAt.toISOString(),
    kind: built.kind,
    table: built.table,
    connection: stamp.connection,
    summary: built.summary,
    input,
    actions: built.actions,
    guards: built.guards,
    confirm: built.confirm,
    copyAs: { awsCli: awsCliCommand(input, target), sdkV3: sdkV3Snippet(input, target) },
  };
}
