import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../shared/audit/types';
import { isPortFree } from '../services/sandbox/ports';
import { DEMO_TABLE_NAMES, EXPECTED_PROBLEMS, problemSignature } from '../services/sandbox/expected-problems';
import { LOCKSMITH_BIN, cleanEnv, runCli } from './testing-cli';

let child: ChildProcess;
let endpoint = '';
/** The sandbox's private key, as it prints it for the user's own tools. */
let keyEnv: NodeJS.ProcessEnv = {};
let stdout = '';
let stderr = '';
/** Settles on 'close' (the child's stdio has ended), not 'exit': the tests read stderr after it. */
let exited: Promise<number | null>;

beforeAll(async () => {
  child = spawn(process.execPath, [LOCKSMITH_BIN, 'sandbox'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
  child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  endpoint = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Sandbox running at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      const key = /export AWS_ACCESS_KEY_ID=(\w+) AWS_SECRET_ACCESS_KEY=(\w+) AWS_REGION=([\w-]+)/.exec(stdout);
      if (match?.[1] && key) {
        keyEnv = { AWS_ACCESS_KEY_ID: key[1], AWS_SECRET_ACCESS_KEY: key[2], AWS_REGION: key[3] };
        resolve(match[1]);
      }
    });
    void exited.then((code) => reject(new Error(`sandbox exited early (${code}): ${stderr}`)));
  });
}, 120_000);

afterAll(async () => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('locksmith sandbox', () => {
  it('prints the endpoint and what it seeded', () => {
    expect(stdout).toContain('seeded: accounts, users, onetable_app');
  });

  it('is a private database: without its printed key the tables are not there (#16 finding 3)', async () => {
    const run = await runCli(['tables', '--endpoint', endpoint, '--json']);
    expect(run.stdout).not.toMatch(/accounts|onetable_app/);
    const keyed = await runCli(['tables', '--endpoint', endpoint, '--json'], cleanEnv(keyEnv));
    for (const table of DEMO_TABLE_NAMES) expect(keyed.stdout).toContain(table);
  });

  it.each(DEMO_TABLE_NAMES)('its %s table audits to exactly the expected problems', async (name) => {
    const expected = EXPECTED_PROBLEMS[name];
    const run = await runCli(['audit', '--endpoint', endpoint, '--table', name, '--preset', expected.preset, '--json'], cleanEnv(keyEnv));
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as AuditReport;
    expect(report.complete).toBe(true);
    expect(report.summary).toEqual(expected.summary);
    expect(report.problems.map(problemSignature).sort()).toEqual(expected.problems.map(problemSignature).sort());
    expect({ scanned: report.scanned, accounts: report.accounts, locks: report.locks }).toEqual({
      scanned: expected.items,
      accounts: expected.accounts,
      locks: expected.locks,
    });
  });

  it('stops DynamoDB Local and exits 0 on SIGTERM', async () => {
    const port = Number(new URL(endpoint).port);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('sandbox stopped');
    expect(await isPortFree(port)).toBe(true);
  });
});

describe('locksmith sandbox without java', () => {
  it('says what to install in one line and exits 2', async () => {
    const run = await runCli(['sandbox'], cleanEnv({ PATH: '/nonexistent', JAVA_HOME: '' }));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^locksmith: .*[Jj]ava/);
  });
});
