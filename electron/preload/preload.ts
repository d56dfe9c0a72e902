/**
 * The preload (sandboxed, context-isolated): exposes `window.locksmith`, built from the contract,
 * and nothing else — no ipcRenderer, no Node. Raw IPC is allowed only here and in electron/main/ipc.ts.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createIpcBridge } from './ipc-bridge';

const bridge = createIpcBridge({
  invoke: (channel, ...args) => ipcRenderer.invoke(channel, ...args),
  on: (channel, listener) => ipcRenderer.on(channel, (event, envelope) => listener(event, envelope)),
});

// Expose plain functions only: the renderer never gets the ipcRenderer object or an event with `sender`.
contextBridge.exposeInMainWorld('locksmith', {
  call: (method: string, args: unknown) => bridge.call(method as never, args as never),
  subscribe: (stream: string, filter: unknown, listener: (event: unknown) => void) =>
    bridge.subscribe(stream as never, filter as never, listener as never),
});
