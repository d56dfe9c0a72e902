import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { detectConvention } from '../../../shared/conventions/detect';
import { asPlanted, plantedLines } from '../../../shared/conventions/gen-judge';
import { layoutArb, type GenLayout } from '../../../shared/conventions/gen-layout';
import { buildTable, type GenTable, type PlantedProblem } from '../../../shared/conventions/gen-table';
import { referenceSignup } from '../../../shared/conventions/reference-writer';
import type { Convention, Item } from '../../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { runAudit } from '../audit/run-audit';
import { lookupValue } from '../lookup/lookup';
import type { TransactionContext } from '../transactions/service';
import { RepairService } from './repair-service';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
/** A handful of generated layouts, each with one of every kind of drift. */
const LAYOUTS: readonly GenLayout[] = fc
  .sample(layoutArb, { seed: 24, numRuns: 4 })
  .map((l) => ({ ...l, size: 12, drift: { orphans: 1, missing: 1, duplicates: 1, malformed: 1 } }));
const tables: string[] = [];
let dataDir = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'locksmith-generated-'));
});
afterAll(async () => {
  await Promise.all(tables.map((t) => deleteTable(admin, t)));
  await rm(dataDir, { recursive: true, force: true });
  admin.destroy();
});

const context = (): TransactionContext => ({
  connectionId: 'test-local',
  client: admin,
  connection: { label: 'test-local', region: 'us-east-1', endpoint },
  writable: true,
  deps: { retry: { maxAttempts: 8, baseMs: 5, capMs: 50 }, holderSegments: 2 },
});

/** Writes the table as its library would: each healthy account with its locks in one guarded transaction; the drift item by item. */
async function writeTable(layout: GenLayout, table: GenTable): Promise<string> {
  const name = await createTempTable(admin, layout.keys, 'generated');
  tables.push(name);
  for (const account of table.healthy)
    await admin.send(new TransactWriteItemsCommand({ TransactItems: referenceSignup(name, layout, account) }));
  const written = new Set(
    [...table.healthy, ...table.healthy.flatMap((a) => referenceSignup(name, layout, a).map((w) => w.Put?.Item))].map((i) =>
      JSON.stringify(i),
    ),
  );
  await putItems(
    admin,
    name,
    table.items.filter((i) => !written.has(JSON.stringify(i))),
  );
  return name;
}

async function scanAll(name: string): Promise<Item[]> {
  const out: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await admin.send(
      new ScanCommand({ TableName: name, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }),
    );
    out.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** The signup of a new account holding only `problem`'s value (and its scope), as the layout's library sends it. */
function newcomer(layout: GenLayout, table: GenTable, problem: PlantedProblem, id: string): Item {
  const template = table.healthy[0]!;
  const rule = layout.rules.find((r) => r.attribute === problem.attribute)!;
  const account: Item = {};
  for (const [name, value] of Object.entries(template)) if (!layout.rules.some((r) => r.attribute === name)) account[name] = value;
  account[layout.keys.hash.name] = { S: `${template[layout.keys.hash.name]?.S ?? ''}${id}` };
  account[rule.attribute] = rule.kind === 'number' ? { N: problem.value } : { S: problem.value };
  if (rule.scope !== undefined && problem.scope !== undefined) account[rule.scope] = { S: problem.scope };
  return account;
}

async function signup(layout: GenLayout, name: string, account: Item): Promise<'accepted' | 'refused'> {
  try {
    await admin.send(new TransactWriteItemsCommand({ TransactItems: referenceSignup(name, layout, account) }));
    return 'accepted';
  } catch (error) {
    if (error instanceof Error && error.name === 'TransactionCanceledException') return 'refused';
    throw error;
  }
}

describe.each(LAYOUTS.map((l, i) => [i, l] as const))('generated layout #%i against DynamoDB Local', (_index, layout) => {
  const table = buildTable(layout);
  let name = '';
  let convention: Convention;

  beforeAll(async () => {
    name = await writeTable(layout, table);
    const detected = detectConvention(layout.keys, await scanAll(name));
    if (!detected.ok) throw new Error(`${JSON.stringify(layout.rules)}: ${detected.error.message}`);
    expect(detected.value.confidence, detected.value.evidence.join('\n')).toBe(1);
    convention = detected.value.convention;
  });

  it('the audit under the detected convention reports exactly the planted problems', async () => {
    const run = await runAudit({ client: admin, table: name, convention });
    expect(run.report.complete).toBe(true);
    expect(asPlanted(convention, run.report.problems)).toEqual(plantedLines(table.problems));
  });

  it('lookups: held, orphan, unprotected, duplicate and free values get their verdicts', async () => {
    const rule = layout.rules[0]!;
    const ruleName = convention.rules.find((r) => r.attribute === rule.attribute)!.name;
    const planted = (kind: PlantedProblem['kind']): PlantedProblem | undefined =>
      table.problems.find((p) => p.kind === kind && p.attribute === rule.attribute);
    const healthy = table.healthy[0]!;
    const cases: [string, string | undefined, string][] = [
      [
        healthy[rule.attribute]?.S ?? healthy[rule.attribute]?.N ?? '',
        rule.scope === undefined ? undefined : healthy[rule.scope]?.S,
        'held',
      ],
      ...[
        ['orphan-lock', 'orphan'],
        ['missing-lock', 'unprotected'],
        ['duplicate-value', 'duplicate'],
      ].flatMap(([kind, verdict]) => {
        const p = planted(kind as PlantedProblem['kind']);
        return p ? [[p.value, p.scope, verdict] as [string, string | undefined, string]] : [];
      }),
      [rule.kind === 'number' ? '424242' : 'nobody-has-this', rule.scope === undefined ? undefined : 'acme', 'free'],
    ];
    for (const [value, scope, verdict] of cases) {
      const answer = await lookupValue({
        client: admin,
        table: { name, gsis: [] },
        convention,
        value,
        rule: ruleName,
        ...(rule.scope !== undefined && scope !== undefined ? { scope: { [rule.scope]: scope } } : {}),
      });
      if (!answer.ok) throw new Error(answer.error.message);
      expect(answer.value.rules[0]?.verdict, `${value} ${scope ?? ''}`).toBe(verdict);
    }
  });

  it('a repair makes the library refuse the value it claimed and accept the value it released', async () => {
    const run = await runAudit({ client: admin, table: name, convention });
    const fixable = run.report.problems.filter((p) => p.kind === 'orphan-lock' || p.kind === 'missing-lock');
    const service = new RepairService({ dataDir });
    const plan = await service.plan(context(), { owner: 'c1', table: name, convention, problems: fixable });
    if (!plan.ok) throw new Error(plan.error.message);
    const started = service.start(context(), { owner: 'c1', planId: plan.value.planId, confirmation: plan.value.confirmText });
    if (!started.ok) throw new Error(started.error.message);
    expect((await started.value.done).phase).toBe('done');
    const claimed = table.problems.find((p) => p.kind === 'missing-lock')!;
    const released = table.problems.find((p) => p.kind === 'orphan-lock')!;
    expect(await signup(layout, name, newcomer(layout, table, claimed, 'claimed'))).toBe('refused');
    expect(await signup(layout, name, newcomer(layout, table, released, 'released'))).toBe('accepted');
  });
});
