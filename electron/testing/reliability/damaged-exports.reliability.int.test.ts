/**
 * Damaged exports never crash a process and never pass for a finished audit: every case of the
 * corpus (damaged-exports.ts), through `locksmith audit --export` as a real process and through the
 * app's `audit.startExport`, each twice at once (the detection sample and the verification race):
 * exit 2 / a refusal or an incomplete run, with one line naming the file.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditEvent } from '../../../shared/contract/views';
import { composeApp, type ComposedApp } from '../../bridge/compose';
import type { SenderVerdict } from '../../bridge/pipeline';
import { cleanEnv, LOCKSMITH_BIN } from '../../cli/testing-cli';
import { buildCase, CORPUS, CORPUS_LAYOUT, type BuiltCase } from './damaged-exports';
import { recordFigures } from './figures';

const endpoint = inject('dynamoEndpoint');
const trusted: SenderVerdict = { trusted: true, label: 'damaged exports' };
const quiet = { refused: () => undefined, failed: () => undefined };
let work = '';
let app: ComposedApp;
let connectionId = '';
const tally = { cases: 0, cliRuns: 0, appRuns: 0, exit2: 0, oneLine: 0, refused: 0, incompleteRuns: 0 };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-damaged-exports-'));
  app = composeApp({ mode: 'browser', version: 'damaged-exports', env: { LOCKSMITH_DATA_DIR: join(work, 'data') }, log: quiet });
  const added = (await app.dispatch('connections.addEndpoint', { endpoint, region: 'us-east-1' }, 'http', trusted)) as {
    ok: boolean;
    value: { id: string };
  };
  connectionId = added.value.id;
});
afterAll(async () => {
  await app.shutdown();
  await rm(work, { recursive: true, force: true });
  if (tally.cases === CORPUS.length) await recordFigures('damaged-exports', { ...tally });
});

/** `locksmith audit --export DIR --preset uniq --json` as a process (the bundle is off: the sources under test). */
function cli(dir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [LOCKSMITH_BIN, 'audit', '--export', dir, '--preset', 'uniq', '--json'],
      {
        env: cleanEnv({ LOCKSMITH_CLI_BUNDLE: 'off', LOCKSMITH_DATA_DIR: join(work, 'cli-data') }),
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

/** What the app says: a refusal, or the run's end (subscribed before it can end: events are replayed). */
async function appAudit(dir: string): Promise<{ refused?: string; done?: Extract<AuditEvent, { type: 'done' }> }> {
  const started = (await app.dispatch(
    'audit.startExport',
    { connectionId, table: 'users', path: dir, convention: CORPUS_LAYOUT.convention },
    'http',
    trusted,
  )) as { ok: true; value: { runId: string } } | { ok: false; error: { message: string } };
  if (!started.ok) return { refused: started.error.message };
  const done = await new Promise<Extract<AuditEvent, { type: 'done' }>>((resolve) => {
    const sub = app.hub.subscribe('audit.events', { runId: started.value.runId }, (raw) => {
      const event = raw as AuditEvent;
      if (event.type === 'done') {
        queueMicrotask(() => sub.ok && sub.value());
        resolve(event);
      }
    });
  });
  return { done };
}

function expectOneLineNaming(text: string, built: BuiltCase): void {
  expect(text).toContain(built.file);
  expect(text).not.toContain('\n');
  tally.oneLine += 1;
}

describe('a damaged export', () => {
  it.each(CORPUS.map((c) => [c.name, c] as const))(
    '%s: exit 2 and one line naming the file from the CLI, a refusal or an incomplete run from the app, twice',
    async (_name, c) => {
      const built = await buildCase(c, join(work, `case-${CORPUS.indexOf(c)}`));
      // Twice at once: the race between the sample and the verification has two chances to show.
      for (const run of await Promise.all([cli(built.dir), cli(built.dir)])) {
        tally.cliRuns += 1;
        expect(run.code, run.stderr).toBe(2);
        tally.exit2 += 1;
        const lines = run.stderr.split('\n').filter((l) => l !== '');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^locksmith: incomplete: /);
        expectOneLineNaming(lines[0]!, built);
        expect(JSON.parse(run.stdout)).toMatchObject({ complete: false, reason: expect.stringContaining(built.file) });
      }
      for (const answer of await Promise.all([appAudit(built.dir), appAudit(built.dir)])) {
        tally.appRuns += 1;
        if (answer.refused !== undefined) {
          tally.refused += 1;
          expectOneLineNaming(answer.refused, built);
        } else {
          tally.incompleteRuns += 1;
          expect(answer.done?.complete).toBe(false);
          expectOneLineNaming(answer.done?.reason ?? '', built);
        }
      }
      tally.cases += 1;
    },
    180_000,
  );
});
