/**
 * What the handler table is built over: the long-lived stores and registries of the app (one per
 * thing: connections, clients, settings, previews, audit runs, repair plans, watches, the sandbox, MFA prompts).
 * The composition root (compose.ts) creates them; service functions receive the ones they use.
 */
import type { AppInfo, SandboxView } from '../../shared/contract/views';
import type { Result } from '../../shared/result';
import type { AuditRuns } from '../services/audit/audit-runs';
import type { MfaBroker } from '../services/connections/mfa-broker';
import type { ConnectionRegistry } from '../services/connections/registry';
import type { SettingsStore } from '../services/connections/settings-store';
import type { ClientPool } from '../services/context/client-pool';
import type { RepairService } from '../services/repair/repair-service';
import type { TxStores } from '../services/transactions/tx-methods';
import type { LiveWatchService } from '../services/watch/live-watches';

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
  readonly clients: ClientPool;
  readonly settings: SettingsStore;
  readonly sandbox: SandboxControl;
  readonly mfa: MfaBroker;
  readonly runs: AuditRuns;
  readonly watches: LiveWatchService;
  /** Kept previews and the activity log's folder. */
  readonly tx: TxStores;
  /** Repair plans and their executions. */
  readonly repairs: RepairService;
  readonly env?: NodeJS.ProcessEnv;
}
