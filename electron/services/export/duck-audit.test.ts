import { cp, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditEngine } from '../../../shared/audit/engine';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../shared/conventions/presets';
import { layoutFor, S } from '../../../shared/conventions/test-layouts';
import type { Convention, Item, KeySchema, PresetName } from '../../../shared/model';
import { PRESET_TABLES } from '../../cli/testing/preset-tables';
import { HOSTILE_VALUES, markerCorpus, oddKeyCorpus, uniqCorpus } from '../../testing/reliability/hostile-corpus';
import { duckAudit, workingStorage, type WorkingStorage } from './duck-audit';
import { openExport, verifyExport } from './read-export';
import { exportLine, writeExport } from './write-export';

let work = '';
let n = 0;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-duck-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A fresh export of `items` under the test's folder. */
async function exportOf(keys: KeySchema, items: readonly Item[], partitions = 4): Promise<string> {
  const out = join(work, `e${n++}`);
  await writeExport({ out, keys, tableArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/parity', partitions }, items);
  return out;
}

/** The live audit's report on the same items, and the export audit's, as the CLI prints them. */
async function both(
  convention: Convention,
  items: readonly Item[],
  storage?: WorkingStorage,
): Promise<{ live: string; fromExport: string; pulled: number }> {
  const engine = new AuditEngine(convention, { trackDeltas: false });
  engine.addItems(items);
  const live = JSON.stringify(engine.report({ table: 'parity', complete: true }));
  const opened = await openExport(await exportOf(convention.keys, items));
  await verifyExport(opened);
  const result = await duckAudit({
    exports: [opened],
    convention,
    table: 'parity',
    dbPath: join(work, `db${n++}.duckdb`),
    memoryMb: 128,
    threads: 2,
    ...(storage ? { storage } : {}),
  });
  return { live, fromExport: JSON.stringify(result.report), pulled: result.pulled };
}

const preset = (name: PresetName, keys: KeySchema, extra: object = {}): Convention =>
  presetConvention(name, keys, { ...PRESET_DEFAULTS[name], ...extra });

describe('audit from an export (DuckDB) equals the live audit, byte for byte', { timeout: 30_000 }, () => {
  for (const table of PRESET_TABLES) {
    it(`preset ${table.preset}, in temporary and in persistent working tables`, async () => {
      for (const storage of ['temp', 'persistent'] as const) {
        const { live, fromExport, pulled } = await both(preset(table.preset, table.keys), table.items, storage);
        expect(fromExport).toBe(live);
        // Only the rows behind problems reach the JS engine, not the table.
        expect(pulled).toBeLessThan(table.items.length);
      }
    });
  }

  it('a convention the table contradicts warns from an export exactly as it does live (held values from SQL, key sample pulled)', async () => {
    const layout = layoutFor('uniq');
    const items: Item[] = [];
    for (let i = 0; i < 40; i++) {
      const email = `user${i}@example.com`;
      // The email locks one character off the convention's template; the value in the sort key for the handles.
      items.push(
        layout.account(`a${i}`, { email, username: `u${i}` }),
        layout.raw(`UNIQ#EMAI#${email}`, 'LOCK'),
        layout.raw(`UNIQ#HANDLE#u${i}`, `UNIQ#HANDLE#u${i}`),
      );
    }
    // Healthy values never reach the JS engine: their count must come from SQL, or the share would read as everything.
    for (let i = 0; i < 100; i++)
      items.push(layout.account(`h${i}`, { email: `h${i}@example.com` }), layout.lock('EMAIL', `h${i}@example.com`));
    const { live, fromExport } = await both(layout.convention, items);
    expect(fromExport).toBe(live);
    const warnings = (JSON.parse(live) as { warnings: { rule: string; kind: string; counts: { held: number } }[] }).warnings;
    expect(warnings.map((w) => [w.rule, w.kind, w.counts.held])).toEqual([
      ['EMAIL', 'values-elsewhere', 140],
      ['HANDLE', 'values-elsewhere', 40],
    ]);
  });

  it('ordinary drift beside many healthy values warns neither live nor from the export (the healthy ones count, though never pulled)', async () => {
    const layout = layoutFor('uniq');
    const items: Item[] = [];
    for (let i = 0; i < 200; i++)
      items.push(layout.account(`h${i}`, { email: `h${i}@example.com` }), layout.lock('EMAIL', `h${i}@example.com`));
    // Ten accounts without their lock, and an audit-log item keyed by each of their emails.
    for (let i = 0; i < 10; i++)
      items.push(layout.account(`m${i}`, { email: `m${i}@example.com` }), layout.raw(`LOG#m${i}@example.com`, '2026-12-01'));
    const { live, fromExport } = await both(layout.convention, items);
    expect(fromExport).toBe(live);
    expect((JSON.parse(fromExport) as { warnings: unknown[] }).warnings).toEqual([]);
  });

  it("refuses a data file whose lines differ from its manifest line, naming that file (each row's file kept by index)", async () => {
    const table = PRESET_TABLES[0]!;
    const convention = preset(table.preset, table.keys);
    const opened = await openExport(await exportOf(convention.keys, table.items, 5));
    // The middle file's count is off by one: only its own count can say so.
    const k = opened.files.findIndex((f, i) => i >= 2 && f.itemCount > 0);
    const files = opened.files.map((f, i) => (i === k ? { ...f, itemCount: f.itemCount + 1 } : f));
    for (const storage of ['temp', 'persistent'] as const) {
      const run = duckAudit({
        exports: [{ ...opened, files }],
        convention,
        table: 'parity',
        dbPath: join(work, `db${n++}.duckdb`),
        memoryMb: 128,
        threads: 2,
        storage,
      });
      await expect(run).rejects.toThrow(
        `data file holds ${files[k]!.itemCount - 1} items, manifest-files.json says ${files[k]!.itemCount}: ${files[k]!.path}`,
      );
    }
  });

  it('refuses an export whose items lack the partition key given (another table, or keys re-created since) instead of a clean report', async () => {
    const table = PRESET_TABLES[0]!;
    const convention = preset(table.preset, table.keys);
    const opened = await openExport(await exportOf(convention.keys, table.items));
    // The same items read as if the table's partition key had another name: no item has it.
    const renamed: Convention = { ...convention, keys: { ...convention.keys, hash: { ...convention.keys.hash, name: 'id' } } };
    const run = duckAudit({
      exports: [opened],
      convention: renamed,
      table: 'parity',
      dbPath: join(work, `db${n++}.duckdb`),
      memoryMb: 128,
      threads: 2,
    });
    await expect(run).rejects.toThrow(`${table.items.length} of ${table.items.length} exported items have no \`id\` attribute`);
  });

  it('keeps working tables in memory while the export fits in the memory limit, on disk beyond', () => {
    expect(workingStorage(1_000_000, 512)).toBe('temp');
    expect(workingStorage(2_000_002, 512)).toBe('temp');
    expect(workingStorage(2_200_000, 512)).toBe('persistent');
    expect(workingStorage(1_000_000, 128)).toBe('persistent');
    expect(workingStorage(10_000_000, 512)).toBe('persistent');
    expect(workingStorage(10_000_000, 8192)).toBe('temp');
    expect(workingStorage(0, 64)).toBe('temp');
  });

  it('hostile values: unicode, #, NFD/NFC, whitespace, non-ASCII case folding, malformed locks, odd types (uniq, trim+lowercase)', async () => {
    const corpus = uniqCorpus();
    const folding = ['İstanbul', 'ΣΑΣ', 'ǅemal', 'Straße', 'ＡＢＣ', '\u00a0nbsp\u00a0', '\ufeffbom'];
    const extra: Item[] = folding.flatMap((v, i): Item[] => [
      { PK: { S: `ACCT#fold${i}` }, SK: { S: 'PROFILE' }, username: { S: v } },
      { PK: { S: `UNIQ#HANDLE#${v.trim().toLowerCase()}` }, SK: { S: 'LOCK' } },
      // A second holder whose spelling folds to the same value: a duplicate only JS semantics see.
      { PK: { S: `ACCT#fold${i}b` }, SK: { S: 'PROFILE' }, username: { S: v.toLowerCase() } },
    ]);
    const { live, fromExport } = await both(preset('uniq', corpus.keys), [...corpus.items, ...extra]);
    expect(fromExport).toBe(live);
    expect(JSON.parse(live).summary['duplicate-value']).toBeGreaterThan(0);
  });

  it('ASCII control characters (uniq, trim+lowercase): only the whitespace JS trims is stripped, and only at the ends', async () => {
    const keys: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
    const spellings = ['\tTab@X', 'Nl@X\n', ' \v vt@x \f', '\rcr ', 'A\u0001B', ' \u0001 Ctl ', '\u007fDel ', 'in\tside', '  \u001f  '];
    // Each spelling and its JS-normalized form held by two accounts, one lock: a duplicate in JS. A SQL fast path that
    // normalized a spelling differently would see a healthy pair and a lone account instead.
    const items: Item[] = spellings.flatMap((v, i): Item[] => [
      { PK: { S: `ACCT#c${i}` }, SK: { S: 'PROFILE' }, username: { S: v } },
      { PK: { S: `ACCT#d${i}` }, SK: { S: 'PROFILE' }, username: { S: v.trim().toLowerCase() } },
      { PK: { S: `UNIQ#HANDLE#${v.trim().toLowerCase()}` }, SK: { S: 'LOCK' } },
    ]);
    const { live, fromExport } = await both(preset('uniq', keys), items);
    expect(fromExport).toBe(live);
    expect(JSON.parse(live).summary['duplicate-value']).toBe(spellings.length);
  });

  it('hostile values under NFC (marker): NFD and NFC spellings are one value', async () => {
    const corpus = markerCorpus();
    const { live, fromExport } = await both(preset('marker', corpus.keys), corpus.items);
    expect(fromExport).toBe(live);
  });

  it('owner attribute: owner-mismatch, and holders with number keys', async () => {
    const keys: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
    const items: Item[] = [
      { PK: { S: 'ACCT#a' }, SK: { S: 'PROFILE' }, email: { S: 'a@x' } },
      { PK: { S: 'UNIQ#EMAIL#a@x' }, SK: { S: 'LOCK' }, owner: { S: 'ACCT#b' } },
      { PK: { S: 'ACCT#c' }, SK: { S: 'PROFILE' }, email: { S: 'C@x ' } },
      { PK: { S: 'UNIQ#EMAIL#c@x' }, SK: { S: 'LOCK' }, owner: { S: 'ACCT#c' } },
      { PK: { S: 'ACCT#d' }, SK: { S: 'PROFILE' }, email: { N: '42' } },
      { PK: { S: 'UNIQ#EMAIL#42' }, SK: { S: 'LOCK' } },
      { PK: { S: 'UNIQ#EMAIL#   ' }, SK: { S: 'LOCK' } },
    ];
    const { live, fromExport } = await both(preset('uniq', keys, { ownerAttribute: 'owner' }), items);
    expect(fromExport).toBe(live);
    expect(JSON.parse(live).summary['owner-mismatch']).toBe(1);
  });

  it('onetable scoped and legacy locks, and rules sharing an attribute', async () => {
    const keys: KeySchema = { hash: { name: 'pk', type: 'S' }, range: { name: 'sk', type: 'S' } };
    const base = preset('onetable', keys);
    const items: Item[] = [
      { pk: { S: 'User#1' }, sk: { S: 'User#1' }, _type: { S: 'User' }, email: { S: 'a@x' } },
      { pk: { S: '_unique#org1#User#email#a@x' }, sk: { S: '_unique#' } },
      { pk: { S: '_unique#User#email#a@x' }, sk: { S: '_unique#' } },
      { pk: { S: '_Unique:User:email:b@x' }, sk: { S: '_unique#' } },
      { pk: { S: '_unique#User#email#' }, sk: { S: '_unique#' } },
      { pk: { S: '_unique#User#nick#zed' }, sk: { S: '_unique#' } },
      { pk: { S: 'User#2' }, sk: { S: 'User#2' }, _type: { S: 'User' }, email: { S: 'b@x' } },
      { pk: { S: 'User#3' }, sk: { S: 'User#3' }, _type: { S: 'Post' }, email: { S: 'c@x' } },
    ];
    const { live, fromExport } = await both(base, items);
    expect(fromExport).toBe(live);
    const shared: Convention = {
      ...base,
      rules: [
        ...base.rules,
        { name: 'User.emailLower', attribute: 'email', lockKeys: [{ hash: 'EL#{value}', range: '_unique#' }], normalize: ['lowercase'] },
      ],
    };
    const more: Item[] = [
      ...items,
      { pk: { S: 'EL#a@x' }, sk: { S: '_unique#' } },
      { pk: { S: 'User#4' }, sk: { S: 'User#4' }, _type: { S: 'User' }, email: { S: 'A@X' } },
    ];
    const second = await both(shared, more);
    expect(second.fromExport).toBe(second.live);
  });

  it('tables with number and binary keys', async () => {
    for (const corpus of oddKeyCorpus()) {
      const convention = presetConvention('aws-blog', corpus.keys, { rules: [{ attribute: 'name', normalize: ['lowercase'] }] });
      const { live, fromExport } = await both(convention, corpus.items);
      expect(fromExport).toBe(live);
    }
  });

  it('every hostile value as an orphan and as a missing lock (aws-blog, lowercase)', async () => {
    const keys: KeySchema = { hash: { name: 'pk', type: 'S' } };
    const values = [...HOSTILE_VALUES, '\ufeffBOM first', 'ÉCOLE'];
    const items: Item[] = values.flatMap((v, i): Item[] => [{ pk: { S: `u${i}` }, email: { S: v } }, { pk: { S: `email#orphan${v}` } }]);
    // A leading U+FEFF survives lowercase (no trim): held and locked under exactly that value, healthy.
    items.push({ pk: { S: 'bom' }, email: { S: '\ufeffHeld' } }, { pk: { S: 'email#\ufeffheld' } });
    // aws-blog's default is the reference code's (no normalization): lowercase is asked for here.
    const { live, fromExport } = await both(preset('aws-blog', keys, { rules: [{ attribute: 'email', normalize: ['lowercase'] }] }), items);
    expect(fromExport).toBe(live);
  });

  it('scoped rules (OneTable orgId, uniq tenant in the key) join on (scope, value); a value without its scope joins nothing', async () => {
    const ot = layoutFor('onetable', { rules: [{ attribute: 'nickname', scope: 'orgId' }, { attribute: 'email' }] });
    const lock = (org: string, v: string): Item => ot.raw(`_unique#${org}#User#nickname#${v}`, '_unique#', { _type: S('_Unique') });
    const items: Item[] = [
      ot.account('u1', { orgId: 'acme', nickname: 'ada', email: 'a@x' }),
      lock('acme', 'ada'),
      ot.account('u2', { orgId: 'globex', nickname: 'ada' }),
      lock('globex', 'ada'),
      ot.account('u3', { orgId: 'acme', nickname: 'ada' }),
      lock('initech', 'ada'),
      lock('a#b', 'x#y'),
      ot.account('u4', { nickname: 'noscope' }),
      ot.account('u5', { orgId: '', nickname: 'emptyscope' }),
      ot.raw('_unique#User#email#a@x', '_unique#'),
    ];
    const first = await both(ot.convention, items);
    expect(first.fromExport).toBe(first.live);
    const uniq = layoutFor('uniq', {
      rules: [
        { attribute: 'email', tag: 'EMAIL', scope: 'tenantId', normalize: ['lowercase'] },
        { attribute: 'tenantId', tag: 'TENANT' },
      ],
    });
    const second = await both(uniq.convention, [
      uniq.account('a1', { email: 'Ada@X.io', tenantId: 't1' }),
      uniq.raw('UNIQ#EMAIL#t1#ada@x.io', 'LOCK'),
      uniq.raw('UNIQ#TENANT#t1', 'LOCK'),
      uniq.account('a2', { email: 'ÄDA@x.io', tenantId: 't2' }),
      uniq.raw('UNIQ#EMAIL#t2#äda@x.io', 'LOCK'),
      uniq.raw('UNIQ#EMAIL#t3#ada@x.io', 'LOCK'),
    ]);
    expect(second.fromExport).toBe(second.live);
  });

  it('values in the sort key or repeated in both keys (agreeing, disagreeing, wrong sort key), scoped in the sort key, bare under a literal sort key', async () => {
    const keys: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
    const convention: Convention = {
      preset: 'custom',
      keys,
      account: { kind: 'attribute-equals', attribute: '_et', value: 'User' },
      rules: [
        {
          name: 'EMAIL',
          attribute: 'email',
          lockKeys: [{ hash: 'User.email#{value}', range: 'User.email#{value}' }],
          normalize: ['lowercase'],
        },
        {
          name: 'NICK',
          attribute: 'nick',
          lockKeys: [{ hash: 'LOCKS', range: 'NICK#{org}#{value}' }],
          normalize: [],
          scope: { org: 'orgId' },
        },
        { name: 'PHONE', attribute: 'phone', lockKeys: [{ hash: '{value}', range: 'PHONE_LOCK' }], normalize: [] },
      ],
      lockPrefixes: [],
    };
    const k = (pk: string, sk: string): Item => ({ PK: S(pk), SK: S(sk) });
    const user = (id: string, attrs: Record<string, string>): Item => ({
      ...k(`User#${id}`, `User#${id}`),
      _et: S('User'),
      ...Object.fromEntries(Object.entries(attrs).map(([a, v]) => [a, S(v)])),
    });
    const items: Item[] = [
      user('1', { email: 'Ada@X.io', nick: 'ada', orgId: 'acme', phone: '+1' }),
      k('User.email#ada@x.io', 'User.email#ada@x.io'),
      k('LOCKS', 'NICK#acme#ada'),
      k('+1', 'PHONE_LOCK'),
      user('2', { email: 'bob@x.io', nick: 'ada', orgId: 'globex', phone: '+2' }),
      k('LOCKS', 'NICK#initech#ada'),
      k('User.email#gone@x.io', 'User.email#gone@x.io'),
      k('User.email#a@x.io', 'User.email#b@x.io'),
      k('User.email#c@x.io', 'PROFILE'),
      k('LOCKS', 'NICK#acme#'),
      k('+3', 'PHONE_LOCK'),
      k('User#3', 'ORDER#1'),
    ];
    const run = await both(convention, items);
    expect(run.fromExport).toBe(run.live);
    const problems = (JSON.parse(run.live) as { problems: { kind: string; rule?: string; value: string }[] }).problems.map(
      (p) => `${p.kind} ${p.rule ?? '-'} ${p.value}`,
    );
    expect(problems.sort()).toEqual(
      [
        'orphan-lock EMAIL gone@x.io',
        'missing-lock EMAIL bob@x.io',
        'orphan-lock NICK ada',
        'missing-lock NICK ada',
        'orphan-lock PHONE +3',
        'missing-lock PHONE +2',
        'malformed-lock EMAIL User.email#a@x.io',
        'malformed-lock EMAIL User.email#c@x.io',
        'malformed-lock NICK LOCKS',
      ].sort(),
    );
  });

  it('number-typed values compare as DynamoDB numbers; the electrodb preset', async () => {
    const phone = layoutFor('marker', { rules: [{ attribute: 'phone', tag: 'PHONE', valueType: 'N' }] });
    const first = await both(phone.convention, [
      { userId: S('u1'), phone: { N: '4155550100' } },
      phone.raw('PHONE#4155550100'),
      { userId: S('u2'), phone: { N: '1.5' } },
      phone.raw('PHONE#1.50'),
      { userId: S('u3'), phone: { N: '15e-1' } },
      phone.raw('PHONE#-0007'),
    ]);
    expect(first.fromExport).toBe(first.live);
    const edb = layoutFor('electrodb', { service: 'MI6', accountEntity: 'agent', rules: [{ attribute: 'email' }] });
    const agent: Item = {
      pk: S('$mi6#designation_00'),
      sk: S('$agent_1#id_7'),
      email: S('James.Bond@MI6.gov'),
      __edb_e__: S('agent'),
      __edb_v__: S('1'),
    };
    const lonely: Item = {
      pk: S('$mi6#designation_01'),
      sk: S('$agent_1#id_8'),
      email: S('M@MI6.gov'),
      __edb_e__: S('agent'),
      __edb_v__: S('1'),
    };
    const second = await both(edb.convention, [
      agent,
      lonely,
      edb.lock('agent.email', 'james.bond@mi6.gov'),
      edb.lock('agent.email', 'q@mi6.gov'),
    ]);
    expect(second.fromExport).toBe(second.live);
  });
});

describe('data file paths are read literally, never as glob patterns', { timeout: 30_000 }, () => {
  it('audits the verified files of an export in a folder named users[1], not the sibling users1 the pattern would match', async () => {
    const convention = preset('uniq', PRESET_KEYS.uniq);
    const acct = (id: string, email: string): Item => ({ PK: S(`ACCT#${id}`), SK: S('PROFILE'), email: S(email), username: S(id) });
    const lock = (rule: string, v: string): Item => ({ PK: S(`UNIQ#${rule}#${v}`), SK: S('LOCK') });
    const clean = [
      acct('u1', 'a@x.io'),
      lock('EMAIL', 'a@x.io'),
      lock('HANDLE', 'u1'),
      acct('u2', 'b@x.io'),
      lock('EMAIL', 'b@x.io'),
      lock('HANDLE', 'u2'),
    ];
    const base = join(work, `glob${n++}`);
    const written = await writeExport(
      {
        out: join(base, 'users[1]'),
        keys: convention.keys,
        tableArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/users',
        partitions: 1,
      },
      clean,
    );
    // The sibling the pattern users[1] matches: same layout and count, a duplicate and an orphan in it.
    await cp(join(base, 'users[1]'), join(base, 'users1'), { recursive: true });
    const other = [
      acct('u1', 'a@x.io'),
      lock('EMAIL', 'a@x.io'),
      lock('HANDLE', 'u1'),
      acct('u2', 'a@x.io'),
      lock('EMAIL', 'zzz@x.io'),
      lock('HANDLE', 'u2'),
    ];
    await writeFile(join(base, 'users1', written.files[0]!.dataFileS3Key), gzipSync(`${other.map((i) => exportLine(i)).join('\n')}\n`));
    const opened = await openExport(join(base, 'users[1]'));
    await verifyExport(opened);
    const dbPath = join(work, `db${n++}.duckdb`);
    const result = await duckAudit({ exports: [opened], convention, table: 'users', dbPath, memoryMb: 128, threads: 2 });
    expect(result.report.problems).toEqual([]);
    expect(result.report.scanned).toBe(clean.length);
    await expect(stat(`${dbPath}.files`)).rejects.toThrow(/ENOENT/);
  });
});
