/**
 * The renderer side of the IPC bridge, built from the contract: `call` invokes the method's channel,
 * `subscribe` registers a listener under a client-chosen id (so no event can arrive before the
 * listener exists) and returns the unsubscribe function. Takes the IPC object as a parameter so it
 * can be tested without Electron; preload.ts passes the real `ipcRenderer`.
 */
import { IPC_CHANNELS, isMethodName, isStreamName, type LocksmithBridge, type StreamEnvelope } from '../../shared/contract/api';
import { isResult, lostAnswer } from '../../shared/contract/transport';
import type { Result } from '../../shared/result';
import { err } from '../../shared/result';

/** The subset of `ipcRenderer` the bridge uses (no `send`, no `sendSync`). */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, envelope: StreamEnvelope) => void): unknown;
}

/** Builds `window.locksmith` over IPC. */
export function createIpcBridge(ipc: IpcRendererLike, newId: () => string = () => crypto.randomUUID()): LocksmithBridge {
  const listeners = new Map<string, (event: unknown) => void>();
  ipc.on(IPC_CHANNELS.event, (_event, envelope) => {
    const listener = envelope && typeof envelope.subscriptionId === 'string' ? listeners.get(envelope.subscriptionId) : undefined;
    if (!listener) return;
    try {
      listener(envelope.event);
    } catch {
      // A throwing listener must not break delivery to the others.
    }
  });

  const bridge = {
    async call(method: string, args: unknown): Promise<Result<unknown>> {
      if (!isMethodName(method)) return err('validation', `Unknown method ${JSON.stringify(String(method).slice(0, 100))}.`);
      // The transport contract (shared/contract/transport.ts): never rejects; a lost answer to a write is an unknown outcome.
      let answer: unknown;
      try {
        answer = await ipc.invoke(method, args);
      } catch (cause) {
        return {
          ok: false,
          error: lostAnswer(
            method,
            `the main process did not answer: ${cause instanceof Error ? cause.message.slice(0, 200) : 'IPC failed'}`,
          ),
        };
      }
      return isResult(answer) ? answer : { ok: false, error: lostAnswer(method, 'the main process gave no Locksmith answer') };
    },
    subscribe(stream: string, filter: unknown, listener: (event: unknown) => void): () => void {
      if (!isStreamName(stream)) return () => undefined;
      const id = newId();
      listeners.set(id, listener);
      void ipc.invoke(IPC_CHANNELS.subscribe, stream, filter, id).then(
        (result) => {
          if (!(result as Result<unknown>).ok) listeners.delete(id);
        },
        () => listeners.delete(id),
      );
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        listeners.delete(id);
        void ipc.invoke(IPC_CHANNELS.unsubscribe, id).catch(() => undefined);
      };
    },
  };
  // The generic signatures of LocksmithBridge are enforced at the renderer's call sites; main validates every argument.
  return bridge as unknown as LocksmithBridge;
}
