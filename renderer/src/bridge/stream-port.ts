/**
 * The page's end of Electron's stream ports: asks the preload for a MessagePort carrying a stream's
 * events and waits for it, so the page can pass it on to a Web Worker without reading one event.
 */
import {
  STREAM_PORT_MESSAGE,
  type LocksmithBridge,
  type StreamFilter,
  type StreamName,
  type StreamPortMessage,
} from '../../../shared/contract/api';
import type { Result } from '../../../shared/result';
import { err } from '../../../shared/result';

/** The window members used here (tests pass a fake). */
export interface PortWindow {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

function isPortMessage(data: unknown, portId: string): data is StreamPortMessage {
  const message = data as Partial<StreamPortMessage> | null;
  return typeof message === 'object' && message !== null && message.type === STREAM_PORT_MESSAGE && message.portId === portId;
}

/**
 * Opens `stream` on a MessagePort (Electron's bridge only; undefined elsewhere). The listener is in
 * place before main is asked, so the port cannot arrive unheard; only a message from this very
 * window (the preload posts to it; a frame is another source) with this request's id is taken.
 */
export function openStreamPort<S extends StreamName>(
  bridge: LocksmithBridge,
  page: PortWindow & object,
  stream: S,
  filter: StreamFilter<S>,
  newId: () => string = () => crypto.randomUUID(),
): Promise<Result<MessagePort>> | undefined {
  const ask = bridge.streamPort?.bind(bridge);
  if (!ask) return undefined;
  const portId = newId();
  return new Promise((resolve) => {
    let port: MessagePort | undefined;
    let subscribed = false;
    const onMessage = (event: MessageEvent): void => {
      if (event.source !== page || !isPortMessage(event.data, portId) || event.ports.length !== 1) return;
      page.removeEventListener('message', onMessage);
      port = event.ports[0];
      if (subscribed && port) resolve({ ok: true, value: port });
    };
    page.addEventListener('message', onMessage);
    void ask(stream, filter, portId).then(
      (answer) => {
        if (!answer.ok) {
          page.removeEventListener('message', onMessage);
          port?.close();
          resolve(answer);
          return;
        }
        subscribed = true;
        if (port) resolve({ ok: true, value: port });
      },
      (cause: unknown) => {
        page.removeEventListener('message', onMessage);
        resolve(err('unreachable', `the stream could not be opened: ${cause instanceof Error ? cause.message : String(cause)}`));
      },
    );
  });
}
