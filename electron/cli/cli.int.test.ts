import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AuditReport } from '../../shared/audit/types';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { findFreePort } from '../services/sandbox/ports';
import type { LookupAnswer } from '../services/lookup/lookup-types';
import { PRESET_TABLES } from './testing/preset-tables';
import type { CliIo } from './command';
import { main } from './main';
import { cleanEnv, runCli } from './testing-cli';

const endpoint = inject('dynamoEndpoint');
const tables = new Map<string, string>();
let cleanTable = '';
let admin: DynamoDBClient;

/** Problems without the engine's wording, in a stable order. */
function comparable(problems: readonly { kind: string; rule?: string; value: string; lock?: unknown; accounts?: unknown }[]): string[] {
  return problems.map((p) => JSON.stringify([p.kind, p.rule, p.value, p.lock ?? null, p.accounts ?? null])).sort();
}

beforeAll(async () => {
  admin = testClient(endpoint);
  await Promise.all(
    PRESET_TABLES.map(async (t) => {
      const name = await createTempTable(admin, t.keys, `cli-${t.preset}`);
      await putItems(admin, name, t.items);
      tables.set(t.preset, name);
    }),
  );
  const uniq = PRESET_TABLES[0]!;
  cleanTable = await createTempTable(admin, uniq.keys, 'cli-clean');
  await putItems(admin, cleanTable, uniq.items.slice(0, 6));
});

afterAll(async () => {
  for (const name of [...tables.values(), cleanTable]) await deleteTable(admin, name);
  admin.destroy();
});

describe.each(PRESET_TABLES)('audit, preset $preset, through bin/locksmith', (t) => {
  it('prints only the JSON report and exits 1 for problems (--preset)', async () => {
    const table = tables.get(t.preset)!;
    const run = await runCli(['audit', '--endpoint', endpoint, '--table', table, '--preset', t.preset, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as AuditReport;
    expect(Object.keys(report).sort()).toEqual([
      'accounts',
      'complete',
      'convention',
      'locks',
      'problems',
      'scanned',
      'summary',
      'table',
      'warnings',
    ]);
    // The preset's own convention explains its table: no false alarm from the write interlock.
    expect(report.warnings).toEqual([]);
    expect(report).toMatchObject({
      table,
      complete: true,
      scanned: t.items.length,
      summary: { 'orphan-lock': 1, 'missing-lock': 1, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
    });
    expect(report.convention.preset).toBe(t.preset);
    expect(comparable(report.problems)).toEqual(comparable(t.problems));
  });

  it('finds the same problems with the convention auto-detected', async () => {
    const run = await runCli(['audit', '--endpoint', endpoint, '--table', tables.get(t.preset)!, '--json']);
    expect(run.code).toBe(1);
    expect(comparable((JSON.parse(run.stdout) as AuditReport).problems)).toEqual(comparable(t.problems));
  });

  it('looks up a held value (with # or unicode) through a scan', async () => {
    const run = await runCli([
      'lookup',
      '--endpoint',
      endpoint,
      '--table',
      tables.get(t.preset)!,
      '--preset',
      t.preset,
      '--value',
      t.held.value,
      '--rule',
      t.held.rule,
      '--json',
    ]);
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as LookupAnswer;
    expect(answer).toMatchObject({
      method: 'scan',
      complete: true,
      rules: [{ rule: t.held.rule, verdict: 'held', holders: [t.held.account] }],
    });
  });
});

describe('audit exit codes and errors', () => {
  it('exits 0 for a complete, clean audit and prints a readable report by default', async () => {
    const run = await runCli(['audit', '--endpoint', endpoint, '--table', cleanTable, '--preset', 'uniq']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Table ${cleanTable}: complete`);
    expect(run.stdout).toContain('No problems found.');
  });

  it('on an empty table: detection explains itself (exit 2); a preset audits it clean (exit 0)', async () => {
    const empty = await createTempTable(admin, PRESET_TABLES[0]!.keys, 'cli-empty');
    try {
      const detected = await runCli(['audit', '--endpoint', endpoint, '--table', empty]);
      expect(detected.code).toBe(2);
      expect(detected.stderr).toMatch(new RegExp(`^locksmith: cannot detect the convention of ${empty}: the table is empty[^\n]*\n$`));
      const preset = await runCli(['audit', '--endpoint', endpoint, '--table', empty, '--preset', 'uniq', '--json']);
      expect(preset.code).toBe(0);
      expect(JSON.parse(preset.stdout)).toMatchObject({ complete: true, scanned: 0, problems: [] });
    } finally {
      await deleteTable(admin, empty);
    }
  });

  it('names an unknown table in one line, exit 2', async () => {
    const run = await runCli(['audit', '--endpoint', endpoint, '--table', 'no-such-table', '--json']);
    expect(run.code).toBe(2);
    // --json: the error as one JSON document on stdout too, never an empty stdout.
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: { kind: 'not-found', message: expect.stringMatching(/^table no-such-table not found/) },
    });
    expect(run.stderr).toMatch(
      /^locksmith: table no-such-table not found at http:\/\/127\.0\.0\.1:\d+, region [a-z0-9-]+ \(tables: .*\)\n$/,
    );
  });

  it('says the endpoint is unreachable in one line, exit 2', async () => {
    const port = await findFreePort();
    const run = await runCli(['audit', '--endpoint', `http://127.0.0.1:${port}`, '--table', 'accounts']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `locksmith: cannot reach http://127.0.0.1:${port} (ECONNREFUSED) — to fix: check that DynamoDB Local is running at that address\n`,
    );
  });

  it('rejects an unknown preset and a broken convention file, exit 2', async () => {
    const preset = await runCli(['audit', '--endpoint', endpoint, '--table', cleanTable, '--preset', 'nope']);
    expect(preset.code).toBe(2);
    expect(preset.stderr).toBe('locksmith: --preset: unknown preset "nope" (presets: uniq, marker, onetable, aws-blog, electrodb)\n');
    const file = await runCli(['audit', '--endpoint', endpoint, '--table', cleanTable, '--convention', '/nonexistent/conv.json']);
    expect(file.code).toBe(2);
    expect(file.stderr).toBe('locksmith: --convention: cannot read /nonexistent/conv.json (ENOENT)\n');
  });
});

describe('Ctrl+C during an audit', () => {
  it('cancels the scan, prints the partial report as incomplete and exits 2', async () => {
    const data = mkdtempSync(join(tmpdir(), 'locksmith-ctrl-c-'));
    onTestFinished(() => rmSync(data, { recursive: true, force: true }));
    const controller = new AbortController();
    let out = '';
    let err = '';
    const io: CliIo = {
      stdout: (text) => void (out += text),
      stderr: (text) => {
        err += text;
        // The first progress line: a page has arrived. Abort as SIGINT would.
        if (text.startsWith('\r')) controller.abort();
      },
      // A fresh data folder: nothing remembered, so the scan starts after detection (and cannot end before the first progress line).
      env: { LOCKSMITH_DATA_DIR: data },
      interactive: true,
      signal: controller.signal,
    };
    const code = await main(['audit', '--endpoint', endpoint, '--table', cleanTable, '--preset', 'uniq', '--segments', '4', '--json'], io);
    expect(controller.signal.aborted).toBe(true);
    expect(code).toBe(2);
    expect(JSON.parse(out)).toMatchObject({ complete: false, reason: 'cancelled' });
    expect(err).toContain('locksmith: incomplete: cancelled');
  });
});

describe('AWS profiles', () => {
  /** A throwaway HOME with an SSO profile whose token cache is absent (as after expiry), and a profile without region. */
  async function awsHome(): Promise<NodeJS.ProcessEnv> {
    const { mkdtemp, mkdir, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const home = await mkdtemp(join(tmpdir(), 'locksmith-home-'));
    await mkdir(join(home, '.aws'));
    const config = [
      '[profile dev]',
      'sso_session = corp',
      'sso_account_id = 123456789012',
      'sso_role_name = ReadOnly',
      'region = eu-west-1',
      '',
      '[sso-session corp]',
      'sso_start_url = https://example.awsapps.com/start',
      'sso_region = eu-west-1',
      '',
      '[profile noregion]',
      'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
      'aws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY',
      '',
    ].join('\n');
    await writeFile(join(home, '.aws', 'config'), config);
    return cleanEnv({
      HOME: home,
      AWS_CONFIG_FILE: join(home, '.aws', 'config'),
      AWS_SHARED_CREDENTIALS_FILE: join(home, '.aws', 'credentials'),
    });
  }

  it('turns an expired SSO session into one line with the login command, exit 2', async () => {
    const run = await runCli(['audit', '--profile', 'dev', '--table', 'accounts'], await awsHome());
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('locksmith: the SSO session of profile dev has expired — to fix: aws sso login --profile dev\n');
  });

  it('honours AWS_PROFILE the same way', async () => {
    const run = await runCli(['tables'], { ...(await awsHome()), AWS_PROFILE: 'dev' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('aws sso login --profile dev');
  });

  it('asks for a region when neither flag, environment nor profile has one', async () => {
    const run = await runCli(['tables', '--profile', 'noregion'], await awsHome());
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('locksmith: no region: pass --region or set AWS_REGION (profile noregion has none)\n');
    expect(run.stderr).not.toContain('wJalrXUtnFEMI');
  });

  it('a table command with no connection at all says to pass --endpoint or --profile', async () => {
    const run = await runCli(['audit', '--table', 'accounts'], {
      ...(await awsHome()),
      AWS_CONFIG_FILE: '/nonexistent',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^locksmith: no connection given .* — to fix: pass --endpoint http:\/\/localhost:8000 \(DynamoDB Local\) or --profile NAME \(AWS\)\n$/,
    );
  });
});

describe('detect through bin/locksmith', () => {
  it.each(PRESET_TABLES)('proposes the rules of a $preset table with evidence', async (t) => {
    const run = await runCli(['detect', '--endpoint', endpoint, '--table', tables.get(t.preset)!, '--json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as {
      convention: { preset: string; rules: { name: string }[] };
      evidence: string[];
      confidence: number;
    };
    // marker and aws-blog tables look alike (`<TAG>#value` on a hash key): only the rules are certain there.
    if (t.keys.range) expect(out.convention.preset).toBe(t.preset);
    expect(out.convention.rules.map((r) => r.name).sort()).toEqual([...t.rules].sort());
    expect(out.evidence.length).toBeGreaterThan(0);
  });

  it('writes a file that audit --convention accepts', async () => {
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const t = PRESET_TABLES[0]!;
    const detected = await runCli(['detect', '--endpoint', endpoint, '--table', tables.get(t.preset)!, '--json']);
    const path = join(await mkdtemp(join(tmpdir(), 'locksmith-')), 'convention.json');
    await writeFile(path, JSON.stringify((JSON.parse(detected.stdout) as { convention: unknown }).convention));
    const run = await runCli(['audit', '--endpoint', endpoint, '--table', tables.get(t.preset)!, '--convention', path, '--json']);
    expect(run.code).toBe(1);
    expect(comparable((JSON.parse(run.stdout) as AuditReport).problems)).toEqual(comparable(t.problems));
  });
});
