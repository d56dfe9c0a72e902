import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import { serveParentPort, type ParentPort } from './export-audit-child';
import type { ExportAuditMessage, ExportAuditReport, ExportAuditRequest } from './export-audit-types';
import { ExportError } from './read-export';
import { childEntry, forkLauncher, runExportAudit, useChildLauncher, type ChildHandle } from './run-export-audit';
import { ExportWriter } from './write-export';

const layout = layoutFor('uniq');
let work = '';
let exportDir = '';

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-run-export-'));
  const writer = new ExportWriter({ out: join(work, 'x'), keys: layout.convention.keys, tableArn: 'arn:aws:dynamodb:us-east-1:0:table/users', partitions: 2 });
  await writer.start();
  await writer.add([layout.account('a1', { email: 'a@x', username: 'a' }), layout.lock('EMAIL', 'a@x'), layout.lock('HANDLE', 'a'), layout.lock('HANDLE', 'ghost')]);
  exportDir = (await writer.finish()).dir;
});
afterAll(async () => rm(work, { recursive: true, force: true }));
afterEach(() => useChildLauncher(forkLauncher));

const request = (): ExportAuditRequest => ({ exports: [exportDir], convention: layout.convention, table: 'users', cacheDir: join(work, 'cache'), memoryMb: 128, rows: true });

/** A child like a utility process: it answers through its listener and never exits by itself. */
function fakeChild(answer: (send: (m: ExportAuditMessage) => void, request: ExportAuditRequest) => void): { handle: ChildHandle; killed: () => boolean; end: (how: string) => void } {
  let listener: ((m: ExportAuditMessage) => void) | undefined;
  let ended: ((how: string) => void) | undefined;
  let killed = false;
  const handle: ChildHandle = {
    send: (r) => queueMicrotask(() => answer((m) => listener?.(m), r)),
    onMessage: (l) => (listener = l),
    onEnd: (l) => (ended = l),
    stderrTail: () => 'Error: boom',
    kill: () => (killed = true),
  };
  return { handle, killed: () => killed, end: (how) => ended?.(how) };
}

describe('childEntry', () => {
  it('forks the built child beside the Electron main bundle when it is there, without tsx', () => {
    expect(childEntry('/app/dist-electron/export-audit-child.cjs', '/src/export-audit-child.ts', (p) => p.endsWith('.cjs'))).toEqual({ path: '/app/dist-electron/export-audit-child.cjs', execArgv: [] });
  });

  it('runs the source through tsx from the source tree (CLI, browser mode)', () => {
    expect(childEntry('/src/export-audit-child.cjs', '/src/export-audit-child.ts', () => false)).toEqual({ path: '/src/export-audit-child.ts', execArgv: ['--import', 'tsx'] });
  });

  it('finds no built child next to the sources', () => {
    expect(childEntry().path.endsWith('export-audit-child.ts')).toBe(true);
  });
});

describe('runExportAudit with another launcher (the app: utilityProcess)', () => {
  it('passes steps on, resolves with the answer and stops a child that does not exit by itself', async () => {
    const report = { table: 'users', complete: true } as unknown as ExportAuditReport;
    const child = fakeChild((send) => {
      send({ kind: 'step', step: 'load' });
      send({ kind: 'done', report, pulled: 3, rows: [] });
    });
    useChildLauncher(() => child.handle);
    const steps: string[] = [];
    await expect(runExportAudit(request(), { onStep: (s) => steps.push(s) })).resolves.toEqual({ report, pulled: 3, rows: [] });
    expect(steps).toEqual(['load']);
    expect(child.killed()).toBe(true);
  });

  it('rejects with an ExportError naming the file, and kills the child on cancel', async () => {
    useChildLauncher(() => fakeChild((send) => send({ kind: 'error', message: 'data file corrupted: x.json.gz', export: true, file: 'x.json.gz' })).handle);
    await expect(runExportAudit(request())).rejects.toEqual(new ExportError('data file corrupted: x.json.gz', 'x.json.gz'));

    const silent = fakeChild(() => undefined);
    useChildLauncher(() => silent.handle);
    const controller = new AbortController();
    const running = runExportAudit(request(), { signal: controller.signal });
    controller.abort();
    await expect(running).rejects.toThrow('cancelled');
    expect(silent.killed()).toBe(true);
  });

  it('says how the child ended when it ends before reporting, with its last stderr', async () => {
    const dying = fakeChild(() => undefined);
    useChildLauncher(() => dying.handle);
    const running = runExportAudit(request());
    await new Promise((r) => setTimeout(r, 0));
    dying.end('exit 1');
    await expect(running).rejects.toThrow('the export audit process ended (exit 1) before reporting: Error: boom');
  });
});

describe('the child behind a parent port (utilityProcess)', () => {
  it('answers one request with its steps and the report, as over fork', async () => {
    const sent: ExportAuditMessage[] = [];
    const done = new Promise<void>((resolve) => {
      const port: ParentPort = {
        once: (_event, listener) => listener({ data: request() }),
        postMessage: (m) => {
          sent.push(m);
          if (m.kind !== 'step') resolve();
        },
      };
      serveParentPort(port);
    });
    await done;
    const last = sent.at(-1)!;
    expect(sent.filter((m) => m.kind === 'step').map((m) => (m as { step: string }).step)).toEqual(expect.arrayContaining(['verify', 'load']));
    expect(last.kind).toBe('done');
    expect(last.kind === 'done' && last.report.summary['orphan-lock']).toBe(1);
    expect(last.kind === 'done' && last.rows?.map((r) => r.id)).toEqual([JSON.stringify(['UNIQ#HANDLE#ghost', 'LOCK'])]);
  });
});
