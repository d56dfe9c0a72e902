/** A fake `electron` module for unit tests of the main-process wiring (the real binary cannot run here). */
import { EventEmitter } from 'node:events';

type Listener = (...args: unknown[]) => unknown;

/** A fake WebContents: an emitter with the calls our code makes. */
export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  readonly sent: { channel: string; payload: unknown }[] = [];
  windowOpenHandler?: (details: { url: string }) => { action: 'deny' | 'allow' };
  destroyed = false;
  readonly posted: { channel: string; payload: unknown; ports: readonly FakeMessagePortMain[] }[] = [];
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  postMessage(channel: string, payload: unknown, ports: readonly FakeMessagePortMain[] = []): void {
    this.posted.push({ channel, payload, ports });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' | 'allow' }): void {
    this.windowOpenHandler = handler;
  }
}

/**
 * A fake MessagePortMain: what one end posts is queued on the other until that end starts (as
 * Electron's do); `close` on either end emits `close` on both.
 */
export class FakeMessagePortMain extends EventEmitter {
  other: FakeMessagePortMain | undefined;
  readonly queued: unknown[] = [];
  started = false;
  closed = false;
  postMessage(data: unknown): void {
    if (this.closed || !this.other) return;
    this.other.queued.push(data);
    this.other.drain();
  }
  start(): void {
    this.started = true;
    this.drain();
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
    this.other?.close();
  }
  private drain(): void {
    if (!this.started) return;
    for (const data of this.queued.splice(0)) this.emit('message', { data, ports: [] });
  }
}

/** A fake MessageChannelMain: two entangled {@link FakeMessagePortMain}s. */
export class FakeMessageChannelMain {
  readonly port1 = new FakeMessagePortMain();
  readonly port2 = new FakeMessagePortMain();
  constructor() {
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  }
}

/** A fake BrowserWindow recording its options and loaded URL. */
export class FakeBrowserWindow extends EventEmitter {
  static created: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  loadedUrl?: string;
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.created.push(this);
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
  }
  show(): void {}
  isDestroyed(): boolean {
    return false;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  focus(): void {}
}

/** Builds the fake module; every registration is observable. */
export function createFakeElectron() {
  const handlers = new Map<string, Listener>();
  const app = Object.assign(new EventEmitter(), {
    whenReady: () => Promise.resolve(),
    getAppPath: () => '/fake/app',
    getVersion: () => '0.1.0-test',
    requestSingleInstanceLock: () => true,
    quit: () => undefined,
    exit: () => undefined,
  });
  const sessionHandlers: { permission?: Listener; check?: Listener; device?: Listener; headers?: Listener; request?: Listener } = {};
  const defaultSession = {
    setPermissionRequestHandler: (h: Listener) => (sessionHandlers.permission = h),
    setPermissionCheckHandler: (h: Listener) => (sessionHandlers.check = h),
    setDevicePermissionHandler: (h: Listener) => (sessionHandlers.device = h),
    webRequest: {
      onHeadersReceived: (h: Listener) => (sessionHandlers.headers = h),
      onBeforeRequest: (h: Listener) => (sessionHandlers.request = h),
    },
  };
  const protocolCalls = { privileged: [] as unknown[], handled: new Map<string, Listener>() };
  return {
    handlers,
    sessionHandlers,
    protocolCalls,
    opened: [] as string[],
    module: {
      app,
      BrowserWindow: FakeBrowserWindow,
      MessageChannelMain: FakeMessageChannelMain,
      ipcMain: {
        handle: (channel: string, listener: Listener) => {
          if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
          handlers.set(channel, listener);
        },
        removeHandler: (channel: string) => handlers.delete(channel),
      },
      protocol: {
        registerSchemesAsPrivileged: (schemes: unknown[]) => protocolCalls.privileged.push(...schemes),
        handle: (scheme: string, handler: Listener) => protocolCalls.handled.set(scheme, handler),
      },
      session: { defaultSession },
      shell: { openExternal: async () => undefined },
    },
  };
}
