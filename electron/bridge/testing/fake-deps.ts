/** Fake services for bridge tests: every call is recorded, nothing touches DynamoDB or disk. */
import { EXAMPLE_CONVENTION } from '../../../shared/contract/examples';
import type { ConnectionView } from '../../../shared/contract/views';
import { emptySettings, type Settings, type SettingsStore } from '../../services/connections/settings-store';
import type { ConnectionRegistry, ResolvedConnection } from '../../services/connections/registry';
import { createMfaBroker } from '../../services/connections/mfa-broker';
import { ok, err } from '../../../shared/result';
import type { BridgeDeps, DataServices } from '../deps';

/** A sandbox connection view used by the fakes. */
export const FAKE_SANDBOX: ConnectionView = {
  id: 'sandbox',
  label: 'Sandbox',
  kind: 'sandbox',
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:8000',
  endpointSource: 'connection',
  writable: true,
  state: 'ok',
  envOverrides: [],
};

/** Fake deps plus the log of calls made into them (`area.method`). */
export function createFakeDeps(): { deps: BridgeDeps; calls: string[]; writes: () => number } {
  const calls: string[] = [];
  let settings: Settings = emptySettings();
  let writeCount = 0;
  const connection: ResolvedConnection = { view: FAKE_SANDBOX, target: { label: 'sandbox', endpoint: 'http://127.0.0.1:8000', region: 'us-east-1' } };
  const record = <T>(name: string, value: T): Promise<T> => {
    calls.push(name);
    return Promise.resolve(value);
  };
  const settingsStore: SettingsStore = {
    path: '/fake/settings.json',
    read: () => Promise.resolve(settings),
    update: async (change) => {
      calls.push('settings.update');
      writeCount += 1;
      settings = change(settings);
      return settings;
    },
    isFirstRun: () => Promise.resolve(true),
    warning: () => undefined,
  };
  const connections: ConnectionRegistry = {
    list: () => record('connections.list', { connections: [FAKE_SANDBOX], selectedId: null, warnings: [], envCredentials: [], suggestedEndpoint: 'http://localhost:8000', profileFiles: ['~/.aws/config', '~/.aws/credentials'] }),
    get: (id) => record('connections.get', id === 'sandbox' ? ok(FAKE_SANDBOX) : err('not-found', 'no such connection')),
    resolve: (id) => record('connections.resolve', id === 'sandbox' ? ok(connection) : err('not-found', 'no such connection')),
    select: () => record('connections.select', ok(FAKE_SANDBOX)),
    addEndpoint: () => record('connections.addEndpoint', ok(FAKE_SANDBOX)),
    remove: () => record('connections.remove', err('validation', 'no')),
    setRegion: () => record('connections.setRegion', ok(FAKE_SANDBOX)),
    setWritable: () => record('connections.setWritable', ok(FAKE_SANDBOX)),
    markState: () => {
      calls.push('connections.markState');
    },
  };
  const data: DataServices = {
    check: () => record('data.check', ok(undefined)),
    listTables: () => record('data.listTables', ok({ tables: ['accounts'] })),
    describeTable: () => record('data.describeTable', err('not-found', 'no table')),
    getItem: () => record('data.getItem', ok({ found: false, dynamo: null, plain: null })),
    browseItems: () => record('data.browseItems', ok({ mode: 'scan' as const, items: [], scanned: 0 })),
    detect: () => record('data.detect', ok({ convention: EXAMPLE_CONVENTION, evidence: [], sampled: 0 })),
    startAudit: () => record('data.startAudit', ok({ runId: 'run-1', convention: EXAMPLE_CONVENTION })),
    cancelAudit: () => record('data.cancelAudit', ok({ cancelled: true })),
    auditReport: () => record('data.auditReport', err('not-found', 'no run')),
    lookup: () => record('data.lookup', err('not-found', 'no table')),
    preview: () => record('data.preview', err('not-found', 'no table')),
    execute: () => {
      writeCount += 1;
      return record('data.execute', err('not-found', 'no preview'));
    },
    decode: () => record('data.decode', ok({ reasons: [], summary: '' })),
    activity: () => record('data.activity', ok({ entries: [] })),
    transactionContext: () => {
      throw new Error('the fake data services have no transaction context');
    },
  };
  const deps: BridgeDeps = {
    app: { info: () => record('app.info', { version: '0.0.0', mode: 'browser' as const, startup: null }), openLink: () => record('app.openExternal', { opened: false }) },
    connections,
    settings: settingsStore,
    sandbox: {
      start: () => record('sandbox.start', ok({ state: 'running' as const, endpoint: 'http://127.0.0.1:8000' })),
      stop: () => record('sandbox.stop', ok({ state: 'stopped' as const })),
      info: () => ({ state: 'stopped' }),
    },
    data,
    mfa: createMfaBroker(() => undefined),
    watches: {
      start: () => record('watches.start', err('validation', 'no stream')),
      stop: () => record('watches.stop', ok({ stopped: false })),
      close: () => Promise.resolve(),
    },
    repairs: {
      plan: () => record('repairs.plan', err('not-found', 'no run')),
      execute: () => {
        writeCount += 1;
        return record('repairs.execute', err('not-found', 'no plan'));
      },
      stop: () => record('repairs.stop', err('not-found', 'no plan')),
      status: () => record('repairs.status', err('not-found', 'no plan')),
    },
  };
  return { deps, calls, writes: () => writeCount };
}
