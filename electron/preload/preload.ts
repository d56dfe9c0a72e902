/**
 * The preload (sandboxed, context-isolated): exposes `window.locksmith`, built from the contract,
 * and nothing else — no ipcRenderer, no Node. Raw IPC is allowed only here and in electron/main/ipc.ts.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNELS } from '../../shared/contract/api';
import { createIpcBridge, type HandOverPort, type PortLike } from './ipc-bridge';

// A stream port reaches the page as a message to its own window (contextBridge cannot pass a port):
// addressed to the app's origin, so a window that navigated elsewhere never receives it.
// (The node tsconfig has no DOM types: the page's window is typed by hand.)
const page = globalThis as unknown as {
  readonly location: { readonly origin: string };
  postMessage(message: unknown, targetOrigin: string, transfer: readonly PortLike[]): void;
};
const handOver: HandOverPort = (message, port) =>
  page.postMessage(message, page.location.origin === 'null' ? '*' : page.location.origin, [port]);

const bridge = createIpcBridge(
  {
    invoke: (channel, ...args) => ipcRenderer.invoke(channel, ...args),
    on: (channel, listener) => ipcRenderer.on(channel, (event, envelope) => listener(event, envelope)),
    onPort: (listener) => ipcRenderer.on(IPC_CHANNELS.port, (event, message: unknown) => listener(message, event.ports)),
  },
  undefined,
  handOver,
);

// Expose plain functions only: the renderer never gets the ipcRenderer object or an event with `sender`.
contextBridge.exposeInMainWorld('locksmith', {
  call: (method: string, args: unknown) => bridge.call(method as never, args as never),
  subscribe: (stream: string, filter: unknown, listener: (event: unknown) => void) =>
    bridge.subscribe(stream as never, filter as never, listener as never),
  streamPort: (stream: string, filter: unknown, portId: string) => bridge.streamPort?.(stream as never, filter as never, portId),
});
