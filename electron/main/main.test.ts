/** Unit tests of the main-process wiring with a fake `electron`: window, session, protocol, navigation, IPC. */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, METHOD_NAMES } from '../../shared/contract/api';
import type { createFakeElectron } from './testing/fake-electron';
import { FakeBrowserWindow, FakeWebContents } from './testing/fake-electron';
import { CONTENT_SECURITY_POLICY } from './security';

const fake = vi.hoisted(() => ({ current: undefined as unknown as ReturnType<typeof createFakeElectron> }));
vi.mock('electron', async () => {
  const { createFakeElectron: make } = await import('./testing/fake-electron');
  fake.current = make();
  return fake.current.module;
});
vi.mock('../bridge/compose', async () => {
  const { createFakeHandlers } = await import('../bridge/testing/fake-handlers');
  const { createDispatcher } = await import('../bridge/pipeline');
  const { createStreamHub } = await import('../bridge/stream-hub');
  return {
    composeApp: () => {
      const { handlers } = createFakeHandlers();
      const log = { refused: () => undefined, failed: () => undefined };
      return {
        dispatch: createDispatcher(handlers, log),
        hub: createStreamHub(),
        log,
        dataDir: '/tmp',
        prepareStartup: async () => ({ connectionId: 'sandbox', table: 'accounts' }),
        shutdown: async () => undefined,
      };
    },
  };
});

let window: FakeBrowserWindow;
beforeAll(async () => {
  await import('./main');
  await vi.waitFor(() => {
    const created = FakeBrowserWindow.created[0];
    if (!created?.loadedUrl) throw new Error('window not loaded yet');
    window = created;
  });
});

describe('main process', () => {
  it('creates the window with the secure webPreferences', () => {
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
      preload: join('/fake/app', 'dist-electron', 'preload.cjs'),
    });
  });

  it('loads the app from app:// with the first-run hash', () => {
    expect(window.loadedUrl).toBe('app://locksmith/index.html#connection=sandbox&table=accounts');
  });

  it('registers every contract method over IPC', () => {
    for (const method of METHOD_NAMES) expect(fake.current.handlers.has(method)).toBe(true);
    expect(fake.current.handlers.has(IPC_CHANNELS.subscribe)).toBe(true);
  });

  it('accepts calls from its window only', async () => {
    const handler = fake.current.handlers.get('settings.get');
    const ok = await handler?.({ sender: window.webContents, senderFrame: { url: 'app://locksmith/index.html', parent: null } }, {});
    expect(ok).toMatchObject({ ok: true });
    const foreign = await handler?.(
      { sender: new FakeWebContents(), senderFrame: { url: 'app://locksmith/index.html', parent: null } },
      {},
    );
    expect(foreign).toMatchObject({ ok: false, error: { kind: 'validation' } });
  });

  it('blocks navigation away from the app and denies window.open, sending only https links out', async () => {
    const contents = new FakeWebContents();
    const open = vi.spyOn(fake.current.module.shell, 'openExternal');
    fake.current.module.app.emit('web-contents-created', {}, contents);
    const navigate = (url: string) => {
      const event = { preventDefault: vi.fn() };
      contents.emit('will-navigate', event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate('app://locksmith/index.html#table=users')).toBe(false);
    expect(contents.windowOpenHandler?.({ url: 'https://github.com/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'http://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    await vi.waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    expect(open).toHaveBeenCalledWith('https://github.com/');
    const webview = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('denies every permission and adds the CSP header to responses; blocks remote requests', () => {
    const { permission, check, headers, request } = fake.current.sessionHandlers;
    const decided = vi.fn();
    permission?.({}, 'media', decided);
    expect(decided).toHaveBeenCalledWith(false);
    expect(check?.({}, 'notifications')).toBe(false);
    const withHeaders = vi.fn();
    headers?.({ responseHeaders: {} }, withHeaders);
    expect(withHeaders.mock.calls[0]?.[0].responseHeaders['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    const remote = vi.fn();
    request?.({ url: 'https://evil.example/x.js' }, remote);
    expect(remote).toHaveBeenCalledWith({ cancel: true });
    const local = vi.fn();
    request?.({ url: 'app://locksmith/assets/app.js' }, local);
    expect(local).toHaveBeenCalledWith({ cancel: false });
  });

  it('registers app:// as a privileged standard secure scheme and serves it', () => {
    expect(fake.current.protocolCalls.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
    expect(fake.current.protocolCalls.handled.has('app')).toBe(true);
  });
});

describe('app protocol', () => {
  let base: string;
  let root: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'locksmith-protocol-'));
    root = join(base, 'renderer');
    await mkdir(join(root, 'assets'), { recursive: true });
    await writeFile(join(root, 'index.html'), '<!doctype html><title>x</title>');
    await writeFile(join(root, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(join(root, '..', 'secret.txt'), 'secret');
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('serves files with CSP and nosniff, refuses traversal and foreign hosts', async () => {
    const { createAppProtocolHandler } = await import('./app-protocol');
    const handle = createAppProtocolHandler(root);
    const index = await handle(new Request('app://locksmith/index.html'));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await handle(new Request('app://locksmith/assets/app.js'))).headers.get('content-type')).toMatch(/javascript/);
    expect((await handle(new Request('app://locksmith/%2e%2e/secret.txt'))).status).toBe(404);
    expect((await handle(new Request('app://locksmith/..%2fsecret.txt'))).status).toBe(404);
    expect((await handle(new Request('app://other/index.html'))).status).toBe(404);
    expect((await handle(new Request('app://locksmith/index.html', { method: 'POST', body: 'x' }))).status).toBe(404);
  });
});
