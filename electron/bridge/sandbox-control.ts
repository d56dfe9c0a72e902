/**
 * The sandbox as the app controls it: start/stop/status from the UI, status changes published on the
 * `sandbox.status` stream, an unexpected JVM exit shown as an error, and the probe the registry reads.
 */
import type { SandboxView } from '../../shared/contract/views';
import type { AppError, Result } from '../../shared/result';
import { ok } from '../../shared/result';
import type { SandboxProbe } from '../services/connections/registry-types';
import type { SandboxControl } from './deps';

/** What the control needs from a started sandbox (B1's SandboxHandle satisfies it). */
export interface RunningSandbox {
  readonly endpoint: string;
  /** The sandbox's private key, when it has one (the bundled sandbox does; a test double may not). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  stop(): Promise<void>;
  readonly exited: Promise<unknown>;
}

/** Options of the control. */
export interface SandboxControlOptions {
  readonly start: () => Promise<Result<RunningSandbox>>;
  readonly publish: (view: SandboxView) => void;
  readonly region: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** The control plus the probe for the registry and a shutdown hook. */
export interface SandboxController extends SandboxControl {
  readonly probe: SandboxProbe;
  shutdown(): Promise<void>;
}

/** Creates the controller; nothing starts until `start()`. */
export function createSandboxController(options: SandboxControlOptions): SandboxController {
  let view: SandboxView = { state: 'stopped' };
  let running: RunningSandbox | undefined;
  let starting: Promise<Result<SandboxView>> | undefined;
  let stopping = false;

  const set = (next: SandboxView): SandboxView => {
    view = next;
    options.publish(next);
    return next;
  };

  async function start(): Promise<Result<SandboxView>> {
    if (running) return ok(view);
    if (starting) return starting;
    set({ state: 'starting' });
    starting = options.start().then((started) => {
      starting = undefined;
      if (!started.ok) {
        set({ state: 'error', error: started.error });
        return started;
      }
      const sandbox = started.value;
      running = sandbox;
      void sandbox.exited.then(() => {
        if (running !== sandbox) return;
        running = undefined;
        if (stopping) return;
        const error: AppError = {
          kind: 'unreachable',
          message: 'The sandbox stopped unexpectedly.',
          fix: 'Start it again from the connections list.',
        };
        set({ state: 'error', error });
      });
      return ok(set({ state: 'running', endpoint: sandbox.endpoint }));
    });
    return starting;
  }

  async function stop(): Promise<Result<SandboxView>> {
    if (starting) await starting;
    const sandbox = running;
    if (!sandbox) return ok(set({ state: 'stopped' }));
    stopping = true;
    try {
      await sandbox.stop();
    } finally {
      stopping = false;
      running = undefined;
    }
    return ok(set({ state: 'stopped' }));
  }

  return {
    start,
    stop,
    info: () => view,
    probe: {
      state: () => view.state,
      endpoint: () => (view.state === 'running' ? view.endpoint : undefined),
      error: () => view.error,
      region: options.region,
      // The running sandbox's own key: its tables are visible to no other.
      get credentials() {
        return running?.credentials ?? options.credentials;
      },
    },
    async shutdown() {
      await stop();
    },
  };
}
