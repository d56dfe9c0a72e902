/**
 * One valid argument object per method. Typed against the contract, so adding a method without an
 * example fails to compile; the contract and bridge fuzz tests start from these.
 */
import type { MethodArgs, MethodName } from './api';
import type { Convention } from '../model';

/** A small `uniq`-preset convention, valid for the convention schema. */
export const EXAMPLE_CONVENTION: Convention = {
  preset: 'uniq',
  keys: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } },
  account: { kind: 'key-prefix', prefix: 'ACCT#', range: 'PROFILE' },
  rules: [{ name: 'EMAIL', attribute: 'email', lockKeys: [{ hash: 'UNIQ#EMAIL#{value}', range: 'LOCK' }], normalize: ['lowercase'] }],
  lockPrefixes: ['UNIQ#'],
};

const onTable = { connectionId: 'sandbox', table: 'accounts' } as const;

/** A valid argument object for every method. */
export const EXAMPLE_ARGS: { readonly [M in MethodName]: MethodArgs<M> } = {
  'app.info': {},
  'app.openExternal': { url: 'https://github.com/' },
  'connections.list': {},
  'connections.select': { id: 'sandbox' },
  'connections.check': { id: 'profile:dev' },
  'connections.addEndpoint': { endpoint: 'http://localhost:8000', region: 'us-east-1' },
  'connections.remove': { id: 'endpoint:a1b2' },
  'connections.setRegion': { id: 'profile:dev', region: 'eu-central-1' },
  'connections.setWritable': { id: 'profile:dev', writable: true, confirm: 'dev' },
  'sandbox.start': {},
  'sandbox.stop': {},
  'sandbox.info': {},
  'tables.list': { connectionId: 'sandbox' },
  'tables.describe': onTable,
  'tables.survey': onTable,
  'items.get': { ...onTable, key: { PK: 'ACCT#a1f9c3', SK: 'PROFILE' } },
  'items.browse': {
    ...onTable,
    partition: 'ACCT#a1f9c3',
    prefix: 'PRO',
    filter: { attribute: 'email', op: 'contains', value: 'ada' },
    limit: 25,
  },
  'conventions.detect': onTable,
  'conventions.get': onTable,
  'conventions.save': { ...onTable, convention: EXAMPLE_CONVENTION },
  'audit.start': { ...onTable, segments: 4 },
  'audit.cancel': { runId: 'run-1' },
  'audit.startExport': { ...onTable, path: '/exports/accounts', memoryMb: 256 },
  'audit.confirmExport': { ...onTable, runId: 'run-1' },
  'audit.report': { runId: 'run-1' },
  'watch.start': onTable,
  'watch.stop': { watchId: 'w-1' },
  'lookup.run': { ...onTable, value: 'ada@lovelace.io' },
  'tx.preview': { ...onTable, request: { kind: 'release', rule: 'HANDLE', value: 'ada' } },
  'tx.execute': { previewId: 'p-1', confirmation: 'ada' },
  'tx.decode': { text: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]' },
  'repair.plan': { ...onTable, runId: 'run-1', kinds: ['orphan-lock'] },
  'repair.execute': { connectionId: 'sandbox', planId: 'rp-1', confirmation: '12' },
  'repair.stop': { connectionId: 'sandbox', planId: 'rp-1' },
  'repair.status': { connectionId: 'sandbox', planId: 'rp-1' },
  'history.list': { connectionId: 'sandbox', table: 'accounts' },
  'activity.list': {},
  'mfa.answer': { action: 'submit', promptId: 'm-1', code: '123456' },
  'settings.get': {},
  'settings.set': { theme: 'dark' },
};
