/**
 * The composition root shared by the Electron main process and browser mode: settings, connections,
 * MFA broker, sandbox, client pool, audit runs, previews, the stream hub and the dispatcher over the handler table.
 */
import type { AppInfo } from '../../shared/contract/views';
import type { Result } from '../../shared/result';
import { resolveDataDir } from '../services/connections/data-dir';
import { createMfaBroker } from '../services/connections/mfa-broker';
import { createConnectionRegistry } from '../services/connections/registry';
import { SANDBOX_ID } from '../services/connections/registry-types';
import { createSettingsStore } from '../services/connections/settings-store';
import { SANDBOX_CREDENTIALS, SANDBOX_REGION, startSandbox } from '../services/sandbox';
import { createAuditRuns } from '../services/audit/audit-runs';
import { savedConvention } from '../services/conventions/convention-methods';
import { recordAudit } from '../services/history/audit-history';
import { createClientPool } from '../services/context/client-pool';
import { PreviewStore } from '../services/transactions/preview-store';
import { RepairService } from '../services/repair/repair-service';
import { createLiveWatches } from '../services/watch/live-watches';
import type { BridgeDeps } from './deps';
import { createHandlers } from './handlers';
import type { BridgeLogger } from './logger';
import { createConsoleLogger } from './logger';
import type { Dispatch } from './pipeline';
import { createDispatcher } from './pipeline';
import type { RunningSandbox } from './sandbox-control';
import { createSandboxController } from './sandbox-control';
import type { StreamHub } from './stream-hub';
import { createStreamHub } from './stream-hub';
import { rememberEnvSecrets, rememberSecrets } from '../services/dynamo/secrets';

/** The table opened on first run (the sandbox's seed-1 demo table). */
export const FIRST_RUN_TABLE = 'accounts';

/** Options of the composed app. */
export interface ComposeOptions {
  readonly mode: AppInfo['mode'];
  readonly version: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Opens an https link in the OS browser (Electron); absent in browser mode, where the page opens links itself. */
  readonly openLink?: (url: string) => Promise<void>;
  /** Starts the sandbox; default: the bundled DynamoDB Local, in memory, seeded. */
  readonly startSandbox?: () => Promise<Result<RunningSandbox>>;
  readonly log?: BridgeLogger;
  /** A connection asked for on the command line (`serve --endpoint/--profile`): opened instead of the first-run sandbox. */
  /** Told the sandbox's private key each time it starts (serve prints it for the user's own tools; the renderer never sees it). */
  readonly onSandboxKey?: (key: {
    readonly endpoint: string;
    readonly region: string;
    readonly accessKeyId: string;
    readonly secretAccessKey: string;
  }) => void;
  readonly startupConnection?:
    { readonly endpoint: string; readonly region?: string } | { readonly profile: string; readonly region?: string };
}

/** Everything a shell (Electron window or HTTP server) needs. */
export interface ComposedApp {
  readonly dispatch: Dispatch;
  readonly hub: StreamHub;
  readonly deps: BridgeDeps;
  readonly log: BridgeLogger;
  readonly dataDir: string;
  /**
   * Decides what to open: with no saved connection (first run) or the sandbox selected, starts the
   * sandbox and — on first run — opens table `accounts`. Never fails: a sandbox error shows in the UI.
   */
  prepareStartup(): Promise<AppInfo['startup']>;
  /** Stops the sandbox and running audits, cancels MFA prompts. */
  shutdown(): Promise<void>;
}

/** Wires the app. Nothing starts until `prepareStartup`. */
export function composeApp(options: ComposeOptions): ComposedApp {
  const env = options.env ?? process.env;
  // The environment's keys are secrets whether or not a connection signs with them.
  rememberEnvSecrets(env);
  const log = options.log ?? createConsoleLogger();
  const dataDir = resolveDataDir(env);
  const hub = createStreamHub();
  const settings = createSettingsStore(dataDir);
  const mfa = createMfaBroker((event) => hub.publish('mfa.prompts', event));
  const sandbox = createSandboxController({
    start:
      options.startSandbox ??
      (async () => {
        const started = await startSandbox({});
        // The sandbox's key is what keeps its tables private: a secret like any other.
        if (started.ok) {
          rememberSecrets(started.value.credentials.accessKeyId, started.value.credentials.secretAccessKey);
          options.onSandboxKey?.({ endpoint: started.value.endpoint, region: started.value.region, ...started.value.credentials });
        }
        return started;
      }),
    publish: (view) => hub.publish('sandbox.status', view),
    region: SANDBOX_REGION,
    credentials: SANDBOX_CREDENTIALS,
  });
  const connections = createConnectionRegistry({ settings, sandbox: sandbox.probe, broker: mfa, env });
  // Each audit that ends is remembered for the overview; a history that cannot be written is logged, never the audit's failure.
  const runs = createAuditRuns(hub, (report, history) =>
    recordAudit(dataDir, report, history).catch((cause: unknown) => log.failed({ method: 'audit.history', transport: 'app', cause })),
  );
  // A client replaced for a new target (restarted sandbox, other region): its audits no longer describe that database.
  const clients = createClientPool(env, (old) => runs.indexes.noteWrite(old));
  const watches = createLiveWatches({ hub, env });
  hub.setReplay('sandbox.status', () => [sandbox.info()]);
  hub.setReplay('mfa.prompts', () => {
    const open = mfa.openPrompt();
    return open ? [open] : [];
  });
  let startup: AppInfo['startup'] = null;

  const deps: BridgeDeps = {
    app: {
      info: async () => ({ version: options.version, mode: options.mode, startup }),
      openLink: async (url) => {
        if (!options.openLink) return { opened: false };
        await options.openLink(url);
        return { opened: true };
      },
    },
    connections,
    clients,
    settings,
    sandbox,
    mfa,
    runs,
    watches,
    tx: {
      previews: new PreviewStore(),
      dataDir,
      indexes: runs.indexes,
      warnings: runs.warnings,
      saved: (connectionId, table) => savedConvention(settings, connectionId, table),
    },
    repairs: new RepairService({ dataDir, events: hub }),
    env,
  };

  /** The connection for a command-line request; an endpoint is saved (once) so it shows in the sidebar. */
  async function startupFor(wanted: NonNullable<ComposeOptions['startupConnection']>): Promise<AppInfo['startup']> {
    if ('endpoint' in wanted) {
      const existing = (await settings.read()).endpoints.find((entry) => entry.endpoint === wanted.endpoint);
      if (existing) {
        connections.typedOnCommandLine(existing.id);
        return { connectionId: existing.id };
      }
      // Typed on the command line next to the environment's keys: like the CLI, sign with them when present.
      const credentials = env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY ? { source: 'env' as const } : { source: 'dummy' as const };
      const added = await connections.addEndpoint(
        { endpoint: wanted.endpoint, credentials, ...(wanted.region ? { region: wanted.region } : {}) },
        'command-line',
      );
      return added.ok ? { connectionId: added.value.id } : null;
    }
    const id = `profile:${wanted.profile}`;
    if (wanted.region) await connections.setRegion(id, wanted.region);
    return { connectionId: id };
  }

  return {
    dispatch: createDispatcher(createHandlers(deps), log),
    hub,
    deps,
    log,
    dataDir,
    async prepareStartup() {
      const wanted = options.startupConnection;
      if (wanted) {
        startup = await startupFor(wanted);
        return startup;
      }
      const saved = await settings.read();
      const firstRun = saved.selectedId === null;
      if (firstRun || saved.selectedId === SANDBOX_ID) await sandbox.start();
      startup = firstRun
        ? { connectionId: SANDBOX_ID, table: FIRST_RUN_TABLE }
        : saved.selectedId
          ? { connectionId: saved.selectedId }
          : null;
      return startup;
    },
    async shutdown() {
      mfa.cancelAll();
      runs.close();
      clients.close();
      await watches.close();
      await sandbox.shutdown();
    },
  };
}
