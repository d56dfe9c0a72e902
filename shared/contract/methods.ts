/**
 * The bridge contract: every method the renderer can call, by dot-name, with its argument schema
 * and result type. Main registers handlers from this table; preload and the HTTP client are built from it.
 * Adding a method = one entry here + one service function under electron/services/, called from its
 * one line in electron/bridge/handlers.ts (electron/bridge/handlers.test.ts keeps it so).
 */
import { z } from 'zod';
import type {
  AuditReportView,
  AuditStarted,
  ExportConfirmView,
  AppInfo,
  HistoryView,
  TableSurveyView,
  ConnectionView,
  ConnectionsView,
  DetectionView,
  ItemsPage,
  ItemView,
  LookupView,
  SandboxView,
  SavedConventionView,
  TableDetails,
  TablesPage,
  UiSettings,
} from './views';
import type { ActivityPage, DecodeView, TxOutcomeView, TxPreviewView } from './tx-views';
import {
  connectionIdSchema,
  credentialSourceSchema,
  endpointUrlSchema,
  exportPathSchema,
  externalUrlSchema,
  nameSchema,
  noArgsSchema,
  opaqueIdSchema,
  plainKeySchema,
  regionSchema,
  tableNameSchema,
  valueSchema,
} from './arg-limits';
import { conventionSchema } from './convention-schema';
import { decodeInputSchema, scopeArgSchema, txRequestSchema } from './tx-schema';
import { method } from './spec';
import type { RepairPlanView, RepairStatusView } from './repair-views';
import { PROBLEM_KINDS } from '../model';
import { PROBLEM_ID_PATTERN } from '../repair/select';
import type { WatchStarted } from '../watch/watch-events';

const onTable = { connectionId: connectionIdSchema, table: tableNameSchema };

/** A problem kind: the model's own list, so the enum cannot lag behind it. */
const problemKindSchema = z.enum(PROBLEM_KINDS);

/** Every bridge method. Keys are `<area>.<verb>`. */
export const methods = {
  'app.info': method<AppInfo>()(noArgsSchema, { writes: false, summary: 'Version, mode and what to open first.' }),
  'app.openExternal': method<{ opened: boolean }>()(z.strictObject({ url: externalUrlSchema }), {
    writes: false,
    summary: 'Open an https link in the system browser (the only way out of the app).',
  }),

  'connections.list': method<ConnectionsView>()(noArgsSchema, { writes: false, summary: 'Sandbox, local endpoints and AWS profiles.' }),
  'connections.select': method<ConnectionView>()(z.strictObject({ id: connectionIdSchema }), {
    writes: true,
    summary: 'Make a connection the current one (saved).',
  }),
  'connections.check': method<ConnectionView>()(z.strictObject({ id: connectionIdSchema }), {
    writes: false,
    summary: 'Resolve credentials (may prompt for MFA) and list one table to show the status.',
  }),
  'connections.addEndpoint': method<ConnectionView>()(
    z.strictObject({
      endpoint: endpointUrlSchema,
      region: regionSchema.optional(),
      label: z.string().min(1).max(100).optional(),
      credentials: credentialSourceSchema.optional(),
    }),
    { writes: true, summary: 'Add an endpoint (http://localhost:8000 is offered); it signs with dummy keys unless told otherwise.' },
  ),
  'connections.remove': method<ConnectionsView>()(z.strictObject({ id: connectionIdSchema }), {
    writes: true,
    summary: 'Remove a local endpoint.',
  }),
  'connections.setRegion': method<ConnectionView>()(z.strictObject({ id: connectionIdSchema, region: regionSchema }), {
    writes: true,
    summary: 'Change the region of a connection.',
  }),
  'connections.setWritable': method<ConnectionView>()(
    z.strictObject({
      id: connectionIdSchema,
      writable: z.boolean(),
      /** For AWS profiles, allowing writes requires the profile name typed back. */
      confirm: z.string().max(128).optional(),
    }),
    { writes: true, summary: 'Switch a connection between read-only and writable.' },
  ),

  'sandbox.start': method<SandboxView>()(noArgsSchema, {
    writes: true,
    summary: 'Start the bundled DynamoDB Local, seeded with demo data.',
  }),
  'sandbox.stop': method<SandboxView>()(noArgsSchema, { writes: true, summary: 'Stop the sandbox.' }),
  'sandbox.info': method<SandboxView>()(noArgsSchema, { writes: false, summary: 'The sandbox state now.' }),

  'tables.list': method<TablesPage>()(
    z.strictObject({ connectionId: connectionIdSchema, cursor: tableNameSchema.optional(), limit: z.int().min(1).max(100).optional() }),
    { writes: false, summary: 'One page of table names.' },
  ),
  'tables.describe': method<TableDetails>()(z.strictObject(onTable), { writes: false, summary: 'Key schema, indexes, item count, size.' }),
  'tables.survey': method<TableSurveyView>()(z.strictObject(onTable), {
    writes: false,
    summary: 'Does the table hold lock items: detection on a bounded sample (no locks, or an empty table, is an answer, not an error).',
  }),
  'items.get': method<ItemView>()(z.strictObject({ ...onTable, key: plainKeySchema }), {
    writes: false,
    summary: 'One item for the item viewer.',
  }),
  'items.browse': method<ItemsPage>()(
    z.strictObject({
      ...onTable,
      /** Exact partition key value (a Query); absent: a page of a Scan. */
      partition: valueSchema.optional(),
      /** begins_with on the sort key (with `partition`) or on the partition key (a filtered scan). */
      prefix: valueSchema.optional(),
      filter: z
        .strictObject({ attribute: nameSchema, op: z.enum(['equals', 'begins_with', 'contains', 'exists']), value: valueSchema.optional() })
        .refine((f) => f.op === 'exists' || f.value !== undefined, { message: 'a value is needed for this filter', path: ['value'] })
        .optional(),
      limit: z.int().min(1).max(100).optional(),
      cursor: z
        .string()
        .min(1)
        .max(8192)
        .regex(/^[A-Za-z0-9_-]+$/, 'not a cursor')
        .optional(),
    }),
    { writes: false, summary: 'Browse items read-only: query by partition key (and sort key prefix) or scan a page, with a filter.' },
  ),

  'conventions.detect': method<DetectionView>()(z.strictObject({ ...onTable, sampleSize: z.int().min(10).max(10_000).optional() }), {
    writes: false,
    summary: 'Propose a convention from a bounded sample, with evidence.',
  }),
  'conventions.get': method<SavedConventionView>()(z.strictObject(onTable), {
    writes: false,
    summary: 'The convention saved for a table.',
  }),
  'conventions.save': method<SavedConventionView>()(z.strictObject({ ...onTable, convention: conventionSchema }), {
    writes: true,
    summary: 'Save the convention for a table (settings file).',
  }),

  'audit.start': method<AuditStarted>()(
    z.strictObject({ ...onTable, convention: conventionSchema.optional(), segments: z.int().min(1).max(64).optional() }),
    { writes: false, summary: 'Start auditing a table; subscribe to `audit.events` for deltas.' },
  ),
  'audit.cancel': method<{ cancelled: boolean }>()(z.strictObject({ runId: opaqueIdSchema }), {
    writes: false,
    summary: 'Cancel a running audit.',
  }),
  'audit.report': method<AuditReportView>()(z.strictObject({ runId: opaqueIdSchema }), {
    writes: false,
    summary: 'The (partial or final) report of a run.',
  }),
  'audit.startExport': method<AuditStarted>()(
    z.strictObject({
      ...onTable,
      /** An absolute local folder or s3://bucket/prefix (read with the connection's credentials and region). */
      path: exportPathSchema,
      convention: conventionSchema.optional(),
      /** DuckDB's memory limit in MB (the rest spills to disk). */
      memoryMb: z.int().min(64).max(65_536).optional(),
      /** An S3-compatible endpoint for an s3:// path: endpoint connections only (DynamoDB Local, the sandbox); AWS profiles use AWS S3. */
      s3Endpoint: endpointUrlSchema.optional(),
    }),
    {
      writes: false,
      summary: 'Audit the problem groups of a DynamoDB export of the table (DuckDB in a child process); subscribe to `audit.events`.',
    },
  ),
  'audit.confirmExport': method<ExportConfirmView>()(z.strictObject({ ...onTable, runId: opaqueIdSchema }), {
    writes: false,
    summary:
      "Re-check an export run's findings against the live table by key (consistent reads, never a scan); stale ones leave the problems.",
  }),

  'watch.start': method<WatchStarted>()(z.strictObject({ ...onTable, convention: conventionSchema.optional() }), {
    writes: false,
    summary:
      "Start a live watch of the table's stream (never enables one; joins the table's running reader of the same convention; at most 2 readers per table): subscribe to `watch.events` with its own id within 30 s.",
  }),
  'watch.stop': method<{ stopped: boolean }>()(z.strictObject({ watchId: opaqueIdSchema }), {
    writes: false,
    summary: 'Stop this live watch (others of the same table keep theirs; the reader stops with the last).',
  }),

  'lookup.run': method<LookupView>()(
    z.strictObject({
      ...onTable,
      value: valueSchema,
      rule: nameSchema.optional(),
      scope: scopeArgSchema.optional(),
      convention: conventionSchema.optional(),
      confirm: z.boolean().optional(),
    }),
    {
      writes: false,
      summary:
        "Who holds a value: locks, holders, verdict per rule (and per scope of a scoped rule); `confirm` scans where an audit's index would answer.",
    },
  ),

  'tx.preview': method<TxPreviewView>()(z.strictObject({ ...onTable, request: txRequestSchema, convention: conventionSchema.optional() }), {
    writes: false,
    summary: 'Build and keep the exact TransactWriteItems for a claim, release or template.',
  }),
  'tx.execute': method<TxOutcomeView>()(z.strictObject({ previewId: opaqueIdSchema, confirmation: z.string().max(2048) }), {
    writes: true,
    summary: 'Send exactly the previewed request, after the value is typed back.',
  }),
  'tx.decode': method<DecodeView>()(decodeInputSchema, {
    writes: false,
    summary: 'Explain a TransactionCanceledException or CancellationReasons.',
  }),
  'repair.plan': method<RepairPlanView>()(
    z.strictObject({
      ...onTable,
      runId: opaqueIdSchema,
      /** Only problems of these kinds; with `ids`, problems matching both. Neither: every problem of the run. */
      kinds: z.array(problemKindSchema).min(1).max(PROBLEM_KINDS.length).optional(),
      /** Problem ids (shared/repair/select.ts), for a filter or a hand-picked set. */
      ids: z.array(z.string().regex(PROBLEM_ID_PATTERN, 'not a problem id')).min(1).max(10_000).optional(),
    }),
    {
      writes: false,
      summary: "Plan the repair of a complete audit run's problems: fresh reads, transactions of at most 100 actions, each request exact.",
    },
  ),
  'repair.execute': method<RepairStatusView>()(
    z.strictObject({ connectionId: connectionIdSchema, planId: opaqueIdSchema, confirmation: z.string().max(32) }),
    {
      writes: true,
      summary: 'Start sending a plan, transaction by transaction, after its action count is typed back; follow it on `repair.events`.',
    },
  ),
  'repair.stop': method<RepairStatusView>()(z.strictObject({ connectionId: connectionIdSchema, planId: opaqueIdSchema }), {
    writes: false,
    summary: 'Stop a running repair before its next transaction.',
  }),
  'repair.status': method<RepairStatusView>()(z.strictObject({ connectionId: connectionIdSchema, planId: opaqueIdSchema }), {
    writes: false,
    summary: 'Progress and per-fix outcome of a repair.',
  }),
  'history.list': method<HistoryView>()(z.strictObject({ connectionId: connectionIdSchema, table: tableNameSchema.optional() }), {
    writes: false,
    summary: "What past audits of this connection's tables (or one table) found, oldest first: counts, never items.",
  }),
  'activity.list': method<ActivityPage>()(z.strictObject({ limit: z.int().min(1).max(500).optional() }), {
    writes: false,
    summary: 'Executed transactions, newest first.',
  }),

  'mfa.answer': method<{ accepted: boolean }>()(
    z.discriminatedUnion('action', [
      z.strictObject({ action: z.literal('submit'), promptId: opaqueIdSchema, code: z.string().regex(/^\d{6}$/, 'six digits') }),
      z.strictObject({ action: z.literal('cancel'), promptId: opaqueIdSchema }),
    ]),
    { writes: false, summary: 'Answer (or cancel) an MFA code prompt.' },
  ),

  'settings.get': method<UiSettings>()(noArgsSchema, { writes: false, summary: 'UI preferences.' }),
  'settings.set': method<UiSettings>()(z.strictObject({ theme: z.enum(['system', 'light', 'dark']).optional() }), {
    writes: true,
    summary: 'Change UI preferences.',
  }),
} as const;
