/**
 * The real DataServices: adapts the table, audit, lookup and transaction services to the contract's
 * view models. One DynamoDB client per connection target, reused; audits run in the background and
 * stream their events through the hub.
 */
import { randomUUID } from 'node:crypto';
import { GetItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { browseItems } from '../services/items/browse';
import type { TxRequest } from '../../shared/contract/tx-schema';
import type { AuditReportView, JsonValue, SampleDigest, TxActionView, TxReasonView } from '../../shared/contract/views';
import { classifyItem } from '../../shared/conventions/classify';
import type { Convention, Item, KeySchema } from '../../shared/model';
import type { AuditCounts, AuditReport, GroupRow } from '../../shared/audit/types';
import type { ScanProgress } from '../../shared/scan-types';
import type { AuditEvent } from '../../shared/contract/views';
import { detectConvention } from '../../shared/conventions/detect';
import type { PlainKey } from '../../shared/model';
import { err, ok, type Result } from '../../shared/result';
import type { ActionMeta, Preview, ReasonExplained, TransactionOperation } from '../../shared/transactions/types';
import { runAudit, STREAM_ROWS_PER_DELTA } from '../services/audit/run-audit';
import { recentCache } from './recent-cache';
import { sampleItems } from '../services/audit/sample';
import { AuditIndexes } from '../services/audit/audit-index';
import { createDynamoClient, effectiveEndpoint, isLocalTarget, type DynamoTarget } from '../services/dynamo/client';
import { toAppError } from '../services/dynamo/errors';
import { describeTable, listTables, type TableInfo } from '../services/dynamo/tables';
import { lookupValue } from '../services/lookup/lookup';
import type { ResolvedConnection } from '../services/connections/registry';
import { PreviewStore } from '../services/transactions/preview-store';
import { recordedStatus } from '../services/transactions/audit-log';
import { decodeCancellation, executePreview, previewTransaction, readActivity, type TransactionContext } from '../services/transactions/service';
import type { DataServices } from './deps';
import { verifyExecuted } from '../services/transactions/verify-writes';
import type { StreamHub } from './stream-hub';
import { itemJson, typedKey } from './item-json';

/** Runs kept for `audit.report` after they finish (oldest dropped first). */
const MAX_KEPT_RUNS = 20;
/** Runs whose rows are kept for late subscribers; older runs keep only their report. */
const MAX_SNAPSHOT_RUNS = 3;
/** How long a DescribeTable answer is reused (see `describe`). */
const DESCRIBE_REUSE_MS = 5_000;
/** Described tables remembered at once. */
const MAX_DESCRIBED = 200;

interface Run {
  readonly controller: AbortController;
  /** Every row so far (id → row): replayed as one delta to a subscriber that arrives late. */
  rows?: Map<string, GroupRow>;
  counts?: AuditCounts;
  progress?: ScanProgress;
  report?: AuditReport;
}

/** Options of the data services. */
export interface DataServicesOptions {
  readonly hub: StreamHub;
  /** Data folder for the transaction audit log. */
  readonly dataDir: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** Creates the data services. */
export function createDataServices(options: DataServicesOptions): DataServices & { close(): void } {
  const clients = new Map<string, DynamoDBClient>();
  const runs = new Map<string, Run>();
  const auditIndexes = new AuditIndexes();
  const previews = new Map<string, { connectionId: string; preview: Preview }>();
  // Our own store, so that a preview executed (or expired) here is forgotten in both places.
  const store = new PreviewStore();
  /** Previews nobody executed would otherwise stay for the whole session. */
  const pruneExpired = (): void => {
    const now = store.clock();
    for (const [id, kept] of previews) if (Date.parse(kept.preview.expiresAt) <= now) previews.delete(id);
  };

  // A subscriber to `audit.events` first receives everything the run produced so far, the rows as
  // one snapshot that replaces whatever the subscriber held (a re-joining page may hold stale rows).
  options.hub.setReplay('audit.events', (filter) => {
    const runId = typeof filter.runId === 'string' ? filter.runId : undefined;
    const run = runId ? runs.get(runId) : undefined;
    if (!runId || !run) return [];
    const events: AuditEvent[] = [];
    if (run.rows && run.counts) events.push({ type: 'delta', runId, snapshot: true, delta: { upserted: [...run.rows.values()], removed: [], counts: run.counts } });
    if (run.progress) events.push({ type: 'progress', runId, progress: run.progress });
    if (run.report) {
      const { scanned, accounts, locks, summary } = run.report;
      events.push({ type: 'done', runId, complete: run.report.complete, ...(run.report.reason ? { reason: run.report.reason } : {}), counts: { scanned, accounts, locks, summary } });
    }
    return events;
  });

  // One key per connection and where it points: clients and the audits lookups may use are kept under it.
  const targetKey = (connection: ResolvedConnection): string => `${connection.view.id}|${connection.target.region}|${connection.target.endpoint ?? ''}`;
  const clientFor = (connection: ResolvedConnection): DynamoDBClient => {
    const key = targetKey(connection);
    const t = connection.target;
    let client = clients.get(key);
    if (!client) {
      // A restarted sandbox or a changed region gets a new client; drop the stale one of this connection,
      // and the audits made through it (that database may be gone).
      for (const [old, stale] of clients) {
        if (!old.startsWith(`${connection.view.id}|`)) continue;
        stale.destroy();
        clients.delete(old);
        auditIndexes.noteWrite(old);
      }
      client = createDynamoClient(t, options.env ? { env: options.env } : {});
      clients.set(key, client);
    }
    return client;
  };
  const context = (t: DynamoTarget, table?: string) => ({ ...(table ? { table } : {}), ...(t.profile ? { profile: t.profile } : {}), ...(effectiveEndpoint(t, options.env).url ? { endpoint: effectiveEndpoint(t, options.env).url } : {}) });
  const local = (t: DynamoTarget): boolean => isLocalTarget(t, options.env);
  const guard = async <T>(t: DynamoTarget, table: string | undefined, run: () => Promise<Result<T>>): Promise<Result<T>> => {
    try {
      return await run();
    } catch (error) {
      return { ok: false, error: toAppError(error, context(t, table)) };
    }
  };
  // DescribeTable answers are reused for a few seconds: one audit start or lookup needs the key
  // schema up to three times, and DynamoDB Local answers DescribeTable by counting the table's items
  // (~0.5 s at 200k items). Failures are not kept; key schemas and indexes do not change that fast.
  const described = recentCache<TableInfo>(DESCRIBE_REUSE_MS, MAX_DESCRIBED);
  const describe = (c: ResolvedConnection, table: string): Promise<Result<TableInfo>> =>
    described.get(JSON.stringify([c.view.id, c.target.region, c.target.endpoint ?? '', c.target.profile ?? '', table]), () =>
      describeTable(clientFor(c), table, { local: local(c.target) }),
    );

  function txContext(c: ResolvedConnection): TransactionContext {
    const endpoint = effectiveEndpoint(c.target, options.env).url;
    return {
      client: clientFor(c),
      connection: { label: c.view.label, region: c.target.region, ...(endpoint ? { endpoint } : {}), ...(c.target.profile ? { profile: c.target.profile } : {}) },
      writable: c.view.writable,
      deps: { dataDir: options.dataDir, store },
    };
  }

  return {
    check: (c) => guard(c.target, undefined, async () => {
      const listed = await listTables(clientFor(c), undefined, { local: local(c.target), limit: 1 });
      return listed.ok ? ok(undefined) : listed;
    }),
    listTables: (c, cursor, limit) => guard(c.target, undefined, async () => {
      const listed = await listTables(clientFor(c), cursor, { local: local(c.target), ...(limit ? { limit } : {}) });
      if (!listed.ok) return listed;
      return ok({ tables: listed.value.names, ...(listed.value.cursor ? { nextCursor: listed.value.cursor } : {}), ...(listed.value.hint ? { hint: listed.value.hint } : {}) });
    }),
    describeTable: (c, table) => guard(c.target, table, async () => {
      const info = await describe(c, table);
      if (!info.ok) return info;
      const { name, keys, gsis, itemCount, sizeBytes, status } = info.value;
      const indexes = gsis.map((g) => ({ name: g.name, kind: 'global' as const, keys: { hash: g.hash, ...(g.range ? { range: g.range } : {}) } }));
      return ok({ name, keys, indexes, itemCount, sizeBytes, status });
    }),
    getItem: (c, table, key) => guard(c.target, table, async () => {
      const info = await describe(c, table);
      if (!info.ok) return info;
      const typed = typedKey(key, info.value.keys);
      if (!typed) return err('validation', `The key must have exactly the table's key attributes (${[info.value.keys.hash.name, info.value.keys.range?.name].filter(Boolean).join(', ')}).`, { field: 'key' });
      const found = await clientFor(c).send(new GetItemCommand({ TableName: table, Key: typed, ConsistentRead: true }));
      return ok(found.Item ? { found: true, ...itemJson(found.Item) } : { found: false, dynamo: null, plain: null });
    }),
    browseItems: (c, table, request) => guard(c.target, table, async () => {
      const info = await describe(c, table);
      if (!info.ok) return info;
      const keys = info.value.keys;
      let cursor: Record<string, AttributeValue> | undefined;
      if (request.cursor) {
        cursor = decodeCursor(request.cursor);
        if (!cursor) return err('validation', 'This page cursor cannot be read: browse from the first page again.', { field: 'cursor' });
      }
      const page = await browseItems(clientFor(c), {
        table,
        keys,
        ...(request.partition !== undefined ? { partition: request.partition } : {}),
        ...(request.prefix !== undefined ? { prefix: request.prefix } : {}),
        ...(request.filter ? { filter: { attribute: request.filter.attribute, op: request.filter.op, ...(request.filter.value !== undefined ? { value: request.filter.value } : {}) } } : {}),
        limit: request.limit ?? 25,
        ...(cursor ? { cursor } : {}),
      });
      return ok({
        mode: page.mode,
        scanned: page.scanned,
        items: page.items.map((item) => ({ key: plainKeyOf(item, keys), ...itemJson(item) })),
        ...(page.cursor ? { nextCursor: encodeCursor(page.cursor) } : {}),
      });
    }),
    detect: (c, table, sampleSize) => guard(c.target, table, async () => {
      // Both at once: neither needs the other, and on DynamoDB Local each takes a few hundred ms.
      const [info, sample] = await Promise.all([describe(c, table), sampleItems(clientFor(c), table, sampleSize, { errorContext: context(c.target, table) })]);
      if (!info.ok) return info;
      if (!sample.ok) return sample;
      const detected = detectConvention(info.value.keys, sample.value);
      if (!detected.ok) return detected;
      const { convention, evidence } = detected.value;
      return ok({ convention, evidence, sampled: sample.value.length, sample: sampleDigest(convention, sample.value) });
    }),
    startAudit: (c, table, convention, segments) => guard(c.target, table, async () => {
      const info = await describe(c, table);
      if (!info.ok) return info;
      const runId = `run_${randomUUID().replace(/-/g, '')}`;
      const run: Run = { controller: new AbortController(), rows: new Map() };
      runs.set(runId, run);
      const ids = [...runs.keys()];
      for (const old of ids.slice(0, Math.max(0, ids.length - MAX_SNAPSHOT_RUNS))) {
        const stale = runs.get(old);
        if (stale?.report) delete stale.rows;
      }
      for (const old of ids.slice(0, Math.max(0, ids.length - MAX_KEPT_RUNS))) if (runs.get(old)?.report) runs.delete(old);
      void runAudit({
        client: clientFor(c),
        table,
        convention,
        ...(segments ? { segments } : {}),
        signal: run.controller.signal,
        errorContext: context(c.target, table),
        maxRowsPerDelta: STREAM_ROWS_PER_DELTA,
        onDelta: (delta, progress) => {
          for (const id of delta.removed) run.rows?.delete(id);
          for (const row of delta.upserted) run.rows?.set(row.id, row);
          run.counts = delta.counts;
          run.progress = progress;
          options.hub.publish('audit.events', { type: 'delta', runId, delta });
          options.hub.publish('audit.events', { type: 'progress', runId, progress });
        },
      })
        // runAudit is not meant to throw; if it ever does, the run must still end — as incomplete,
        // with the reason — or the UI would wait for a `done` that never comes.
        .catch((error: unknown): { report: AuditReport } => ({
          report: {
            table,
            complete: false,
            reason: `the audit stopped unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
            convention,
            scanned: run.counts?.scanned ?? 0,
            accounts: run.counts?.accounts ?? 0,
            locks: run.counts?.locks ?? 0,
            summary: run.counts?.summary ?? { 'orphan-lock': 0, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
            problems: [],
          },
        }))
        .then((done) => {
          run.report = done.report;
          // A complete audit answers this connection's lookups of the table until Locksmith writes through it.
          if ('index' in done && done.index) auditIndexes.remember(targetKey(c), done.index);
          const { scanned, accounts, locks, summary } = done.report;
          options.hub.publish('audit.events', { type: 'done', runId, complete: done.report.complete, ...(done.report.reason ? { reason: done.report.reason } : {}), counts: { scanned, accounts, locks, summary } });
        });
      return ok({ runId, convention });
    }),
    cancelAudit: async (runId) => {
      const run = runs.get(runId);
      if (!run || run.report) return ok({ cancelled: false });
      run.controller.abort();
      return ok({ cancelled: true });
    },
    auditReport: async (runId): Promise<Result<AuditReportView>> => {
      const run = runs.get(runId);
      if (!run) return err('not-found', `No audit run ${runId}.`);
      return run.report ? ok(run.report) : err('conflict', 'The audit is still running; its report is ready when it finishes.');
    },
    lookup: (c, table, convention, value, rule, scope) => guard(c.target, table, async () => {
      const info = await describe(c, table);
      if (!info.ok) return info;
      const auditIndex = auditIndexes.find(targetKey(c), table, convention);
      const answer = await lookupValue({ client: clientFor(c), table: { name: table, gsis: info.value.gsis }, convention, value, ...(rule ? { rule } : {}), ...(scope ? { scope } : {}), ...(auditIndex ? { auditIndex } : {}), errorContext: context(c.target, table) });
      if (!answer.ok) return answer;
      const a = answer.value;
      const index = a.rules.map((r) => (r.search.kind === 'gsi' ? r.search.index : undefined)).find(Boolean);
      return ok({
        value: a.value,
        method: a.method === 'gsi' ? 'index' : a.method,
        ...(index ? { indexName: index } : {}),
        ...(a.usedAudit ? { usedAudit: a.usedAudit } : {}),
        complete: a.complete,
        ...(a.reason ? { reason: a.reason } : {}),
        rules: a.rules.map((r) => {
          const lock = r.locks.find((probe) => probe.exists);
          return { rule: r.rule, normalized: r.normalized, ...(r.scope ? { scope: r.scope } : {}), verdict: r.verdict, ...(lock ? { lock: lock.key } : {}), ...(lock?.owner ? { owner: lock.owner } : {}), holders: r.holders, notes: r.notes };
        }),
      });
    }),
    preview: (c, table, convention, request) => guard(c.target, table, async () => {
      const made = await previewTransaction(txContext(c), { table, convention, operation: toOperation(request) });
      if (!made.ok) return made;
      const p = made.value;
      pruneExpired();
      previews.set(p.id, { connectionId: c.view.id, preview: p });
      return ok({
        previewId: p.id,
        clientRequestToken: p.input.ClientRequestToken,
        expiresAt: p.expiresAt,
        input: p.input as unknown as JsonValue,
        actions: p.actions.map((meta) => actionView(p, meta)),
        notGuarded: p.guards.notGuarded,
        guarded: p.guards.guarded,
        copyAs: p.copyAs,
        confirmText: p.confirm,
        executable: c.view.writable,
        ...(c.view.writable ? {} : { readOnlyReason: `${c.view.label} is read-only. ${c.view.kind === 'profile' ? 'Allow writes for this profile (type its name) to execute.' : 'Allow writes for this connection to execute.'}` }),
        summary: p.summary,
      });
    }),
    execute: async (previewId, confirmation, resolve) => {
      const kept = previews.get(previewId);
      if (!kept) return err('not-found', `No preview ${previewId} (unknown or expired): preview again.`, { field: 'previewId' });
      const connection = await resolve(kept.connectionId);
      if (!connection.ok) return connection;
      return guard(connection.value.target, kept.preview.table, async () => {
        const done = await executePreview(txContext(connection.value), { previewId, confirmation });
        // Noted once the request is answered (or failed on the way, when it may have landed): an audit
        // that started before now may lack this write, so lookups stop using it (audit-index.ts).
        if (!done.ok || done.value.status !== 'refused') auditIndexes.noteWrite(targetKey(connection.value));
        if (!done.ok) return done;
        const outcome = done.value;
        if (outcome.status === 'refused') return err('conflict', outcome.message);
        previews.delete(previewId);
        store.delete(previewId);
        if (outcome.status === 'succeeded') {
          const check = await verifyExecuted(clientFor(connection.value), kept.preview);
          return ok({ status: 'executed', previewId, verified: check.verified, message: outcome.message, ...(check.verified ? {} : { differences: [...check.differences, ...check.unchecked.map((u) => `not checked: ${u}`)] }) });
        }
        return ok({ status: 'cancelled', previewId, message: outcome.message, reasons: outcome.reasons.map((r) => reasonView(r, kept.preview)) });
      });
    },
    decode: async (text, request) => {
      const decoded = decodeCancellation({ error: text, ...(request ? { request } : {}) });
      return decoded.ok ? ok({ reasons: decoded.value.reasons.map((r) => reasonView(r)), summary: decoded.value.summary }) : decoded;
    },
    activity: async (limit) => {
      const entries = await readActivity({ ...(limit ? { limit } : {}), dataDir: options.dataDir });
      return ok({
        entries: entries.map((e) => ({
          time: e.time,
          connection: e.connection,
          region: e.region,
          endpoint: e.endpoint === 'aws' ? null : e.endpoint,
          table: e.table,
          previewId: e.previewId,
          clientRequestToken: e.token,
          request: e.request as unknown as JsonValue,
          status: recordedStatus(e),
          outcome: e.outcome as unknown as JsonValue,
          kind: e.kind,
          summary: e.summary,
        })),
      });
    },
    transactionContext: txContext,
    close() {
      for (const run of runs.values()) run.controller.abort();
      for (const client of clients.values()) client.destroy();
      clients.clear();
    },
  };
}

/** A LastEvaluatedKey as an opaque base64url cursor (DynamoDB JSON inside; B values as base64). */
function encodeCursor(key: Record<string, AttributeValue>): string {
  const json = Object.fromEntries(Object.entries(key).map(([k, v]) => [k, v.B !== undefined ? { B: Buffer.from(v.B).toString('base64') } : v]));
  return Buffer.from(JSON.stringify(json)).toString('base64url');
}

/** The cursor back to a key; undefined when it is not one of ours (at most two S/N/B attributes). */
function decodeCursor(cursor: string): Record<string, AttributeValue> | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const entries = Object.entries(parsed as Record<string, unknown>);
    if (entries.length === 0 || entries.length > 2) return undefined;
    const out: Record<string, AttributeValue> = {};
    for (const [name, value] of entries) {
      const v = value as { S?: unknown; N?: unknown; B?: unknown };
      if (typeof v.S === 'string') out[name] = { S: v.S };
      else if (typeof v.N === 'string') out[name] = { N: v.N };
      else if (typeof v.B === 'string') out[name] = { B: new Uint8Array(Buffer.from(v.B, 'base64')) };
      else return undefined;
    }
    return out;
  } catch {
    return undefined;
  }
}

/** An item's key in plain form. */
function plainKeyOf(item: Record<string, AttributeValue>, keys: KeySchema): PlainKey {
  const value = (attribute: AttributeValue | undefined): string | number => (attribute?.N !== undefined ? Number(attribute.N) : attribute?.S ?? (attribute?.B ? Buffer.from(attribute.B).toString('base64') : ''));
  return keys.range ? { [keys.hash.name]: value(item[keys.hash.name]), [keys.range.name]: value(item[keys.range.name]) } : { [keys.hash.name]: value(item[keys.hash.name]) };
}

/** Hash keys of non-account items sent with a detection, enough to check a template, small enough to send. */
const MAX_DIGEST_HASHES = 500;

/** The sample as the convention editor checks drafts against it: no attribute values, only names, counts and key texts. */
function sampleDigest(convention: Convention, items: readonly Item[]): SampleDigest {
  const attributes: Record<string, number> = {};
  const otherHashes: string[] = [];
  let accounts = 0;
  for (const item of items) {
    if (classifyItem(convention, item).kind === 'account') {
      accounts += 1;
      for (const [name, value] of Object.entries(item)) if (value.S !== undefined || value.N !== undefined) attributes[name] = (attributes[name] ?? 0) + 1;
    } else {
      const hash = item[convention.keys.hash.name]?.S;
      if (hash !== undefined && otherHashes.length < MAX_DIGEST_HASHES) otherHashes.push(hash);
    }
  }
  return { accounts, attributes, otherHashes };
}

/** The contract's request → the transaction service's operation. */
function toOperation(request: TxRequest): TransactionOperation {
  switch (request.kind) {
    case 'claim':
      return { kind: 'claim', rule: request.rule, value: request.value, account: request.account };
    case 'release':
      return {
        kind: 'release',
        rule: request.rule,
        value: request.value,
        ...(request.holder ? { holder: request.holder } : {}),
        ...(request.lock ? { lock: request.lock } : {}),
        ...(request.scope ? { scope: request.scope } : {}),
      };
    case 'signup':
      return { kind: 'signup', account: request.account, values: request.values };
    case 'change-value':
      return { kind: 'change-value', account: request.account, rule: request.rule, from: request.oldValue, to: request.newValue };
    case 'delete-account':
      return { kind: 'delete-account', account: request.account };
  }
}

function operationAt(preview: Preview, index: number): TxActionView['type'] {
  const item = preview.input.TransactItems[index];
  if (!item) return 'ConditionCheck';
  return 'Put' in item ? 'Put' : 'Delete' in item ? 'Delete' : 'Update' in item ? 'Update' : 'ConditionCheck';
}

function actionView(preview: Preview, meta: ActionMeta): TxActionView {
  return { index: meta.index, type: operationAt(preview, meta.index), key: meta.key, explanation: meta.explanation };
}

function reasonView(reason: ReasonExplained, preview?: Preview): TxReasonView {
  const meta = preview?.actions.find((a) => a.index === reason.index);
  const action: TxActionView | undefined = meta && preview
    ? actionView(preview, meta)
    : reason.action
      ? { index: reason.index, type: reason.action.operation, key: {} as PlainKey, explanation: reason.action.keyText }
      : undefined;
  // The ALL_OLD item DynamoDB returned with a failed condition: what was really there.
  const item = reason.item ? { item: reason.item as unknown as JsonValue } : {};
  return { index: reason.index, code: reason.code, message: reason.message, ...(action ? { action } : {}), ...item };
}
