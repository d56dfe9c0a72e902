/**
 * What the handler table calls: the services behind the bridge, as interfaces in terms of the
 * contract's view models. The composition root (compose.ts) adapts the real services to these;
 * tests pass fakes. Every call that touches a table receives an already-resolved connection.
 */
import type { TxRequest } from '../../shared/contract/tx-schema';
import type { ActivityPage, AppInfo, AuditReportView, AuditStarted, DecodeView, DetectionView, ItemsPage, ItemView, LookupView, SandboxView, TableDetails, TablesPage, TxOutcomeView, TxPreviewView } from '../../shared/contract/views';
import type { Convention, PlainKey } from '../../shared/model';
import type { Result } from '../../shared/result';
import type { ConnectionRegistry, ResolvedConnection } from '../services/connections/registry';
import type { MfaBroker } from '../services/connections/mfa-broker';
import type { SettingsStore } from '../services/connections/settings-store';
import type { LiveWatchService } from '../services/watch/live-watches';
import type { RepairBridge } from '../services/repair/repair-bridge';
import type { TransactionContext } from '../services/transactions/service';

/** Resolves a connection id at the moment of use (execute re-checks the write mode then, not at preview time). */
export type ResolveConnection = (id: string) => Promise<Result<ResolvedConnection>>;

/** What `items.browse` asks for, after validation. */
export interface BrowseArgs {
  readonly partition?: string | undefined;
  readonly prefix?: string | undefined;
  readonly filter?: { readonly attribute: string; readonly op: 'equals' | 'begins_with' | 'contains' | 'exists'; readonly value?: string | undefined } | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
}

/** Table, audit, lookup and transaction services over a resolved connection. */
export interface DataServices {
  check(connection: ResolvedConnection): Promise<Result<void>>;
  listTables(connection: ResolvedConnection, cursor: string | undefined, limit: number | undefined): Promise<Result<TablesPage>>;
  describeTable(connection: ResolvedConnection, table: string): Promise<Result<TableDetails>>;
  getItem(connection: ResolvedConnection, table: string, key: PlainKey): Promise<Result<ItemView>>;
  /** One page of read-only browsing (see `items.browse`). */
  browseItems(connection: ResolvedConnection, table: string, request: BrowseArgs): Promise<Result<ItemsPage>>;
  detect(connection: ResolvedConnection, table: string, sampleSize: number | undefined): Promise<Result<DetectionView>>;
  /** Starts an audit; events go to the `audit.events` stream. `convention` is already chosen (given, saved or detected). */
  startAudit(connection: ResolvedConnection, table: string, convention: Convention, segments: number | undefined): Promise<Result<AuditStarted>>;
  cancelAudit(runId: string): Promise<Result<{ cancelled: boolean }>>;
  auditReport(runId: string): Promise<Result<AuditReportView>>;
  lookup(connection: ResolvedConnection, table: string, convention: Convention, value: string, rule: string | undefined, scope?: Readonly<Record<string, string>>): Promise<Result<LookupView>>;
  preview(connection: ResolvedConnection, table: string, convention: Convention, request: TxRequest): Promise<Result<TxPreviewView>>;
  execute(previewId: string, confirmation: string, resolve: ResolveConnection): Promise<Result<TxOutcomeView>>;
  decode(text: string, request: string | undefined): Promise<Result<DecodeView>>;
  activity(limit: number | undefined): Promise<Result<ActivityPage>>;
  /** The transaction service's view of a connection (its client, what to log, whether it may write now). */
  transactionContext(connection: ResolvedConnection): TransactionContext;
}

/** The sandbox as the UI controls it. */
export interface SandboxControl {
  start(): Promise<Result<SandboxView>>;
  stop(): Promise<Result<SandboxView>>;
  info(): SandboxView;
}

/** Shell-specific bits: Electron opens links with `shell.openExternal`, browser mode lets the page do it. */
export interface AppShell {
  info(): Promise<AppInfo>;
  /** Opens an https link outside the app (Electron: the OS browser, through the one guarded helper). */
  openLink(url: string): Promise<{ opened: boolean }>;
}

/** Everything the handler table needs. */
export interface BridgeDeps {
  readonly app: AppShell;
  readonly connections: ConnectionRegistry;
  readonly settings: SettingsStore;
  readonly sandbox: SandboxControl;
  readonly data: DataServices;
  readonly mfa: MfaBroker;
  readonly watches: LiveWatchService;
  readonly repairs: RepairBridge;
}
