/**
 * Confirming an export audit's findings against the live table. An export is not transactionally
 * consistent (a transaction can be torn between files, the export time is ±1 min), so before anyone
 * acts on a finding, the lock and accounts it names (and, for a missing lock, every key the rule's
 * unscoped templates would give the value) are read again with consistent BatchGetItem — never a
 * scan — and the finding is re-derived by the same engine on those items. Still true: it stays in
 * `problems`; no longer true: it moves to `stale`, out of `summary`.
 * Limit: a holder that appeared since the export cannot be found by key; an orphan whose value was
 * claimed since stays an orphan until a live audit or lookup says otherwise.
 */
import { BatchGetItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AuditEngine } from '../../../shared/audit/engine';
import type { GroupRow } from '../../../shared/audit/types';
import { formatLockKey } from '../../../shared/conventions/format';
import { scopeFromRecord, type ScopeValues } from '../../../shared/conventions/scope';
import { PROBLEM_KINDS, type Convention, type Item, type PlainKey, type Problem, type ProblemKind } from '../../../shared/model';
import { keyId, keyOf, toTypedKey } from '../../../shared/plain-key';
import { err, ok, type Result } from '../../../shared/result';
import { toAppError, type ErrorContext } from '../dynamo/errors';
import { withRetry } from '../dynamo/retry';
import type { ExportAuditReport } from './export-audit-types';
import { exportConventionRefusal } from './export-prepare';
import { isProblemRow } from './pulled-report';

/** The report after confirmation: findings no longer true in `stale`, same shape as `problems`. */
export type ConfirmedReport = ExportAuditReport & { readonly stale: readonly Problem[] };

/** Options of one confirmation. */
export interface ConfirmOptions {
  readonly client: DynamoDBClient;
  readonly table: string;
  readonly report: ExportAuditReport;
  readonly signal?: AbortSignal;
  readonly errorContext?: ErrorContext;
}

/** The keys to read again for one finding. */
function keysOf(convention: Convention, problem: Problem): PlainKey[] {
  const out: PlainKey[] = [];
  if (problem.lock) out.push(problem.lock);
  for (const a of problem.accounts ?? []) out.push(a);
  if (problem.kind === 'missing-lock' || problem.kind === 'duplicate-value') {
    const rule = convention.rules.find((r) => r.name === problem.rule);
    const { hash, range } = convention.keys;
    const scope = rule ? scopeFromRecord(rule, problem.scope) : undefined;
    for (const template of rule && typeof scope !== 'string' ? rule.lockKeys : []) {
      let text;
      try {
        text = formatLockKey(rule!, problem.value, template, scope as ScopeValues);
      } catch {
        // A template with a placeholder the rule's scope does not map cannot be written: no key to read.
        continue;
      }
      if (range && text.range === undefined) continue;
      out.push(range ? { [hash.name]: text.hash, [range.name]: text.range! } : { [hash.name]: text.hash });
    }
  }
  return out;
}

/** Reads items by key with consistent reads, 100 per request, unprocessed keys retried. */
async function readKeys(options: ConfirmOptions, keys: readonly PlainKey[]): Promise<Map<string, Item>> {
  const convention = options.report.convention;
  const unique = new Map(keys.map((k) => [keyId(k, convention.keys), k]));
  const found = new Map<string, Item>();
  const all = [...unique.values()];
  for (let i = 0; i < all.length; i += 100) {
    let pending: Item[] = all.slice(i, i + 100).map((k) => toTypedKey(k, convention.keys));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 20) throw new Error(`${pending.length} keys stayed unprocessed after 20 attempts`);
      const batch = pending;
      const out = await withRetry(
        () =>
          options.client.send(new BatchGetItemCommand({ RequestItems: { [options.table]: { Keys: batch, ConsistentRead: true } } }), {
            abortSignal: options.signal,
          }),
        { signal: options.signal },
      );
      for (const item of out.Responses?.[options.table] ?? []) found.set(keyId(keyOf(item, convention.keys), convention.keys), item);
      pending = (out.UnprocessedKeys?.[options.table]?.Keys ?? []) as Item[];
    }
  }
  return found;
}

/** The attributes a check of `rules` reads: keys, owner, account type, and those rules' attributes and scopes. */
function readAttributes(convention: Convention, rules: Iterable<string | undefined>): Set<string | undefined> {
  const keep = new Set([
    convention.keys.hash.name,
    convention.keys.range?.name,
    convention.ownerAttribute,
    convention.account.kind === 'attribute-equals' ? convention.account.attribute : undefined,
  ]);
  for (const name of rules) {
    const rule = convention.rules.find((r) => r.name === name);
    if (rule) for (const a of [rule.attribute, ...Object.values(rule.scope ?? {})]) keep.add(a);
  }
  return keep;
}

const project = (item: Item, keep: ReadonlySet<string | undefined>): Item =>
  Object.fromEntries(Object.entries(item).filter(([k]) => keep.has(k)));

/** Whether `problem` is still found among `items` re-read now. */
function stillTrue(convention: Convention, problem: Problem, items: readonly Item[]): boolean {
  const engine = new AuditEngine(convention, { trackDeltas: false });
  // Only this finding's rule: an account's other values would bring entries this check knows nothing about.
  const keep = readAttributes(convention, [problem.rule]);
  engine.addItems(items.map((item) => project(item, keep)));
  const same = (a: object | undefined, b: object | undefined): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  return engine
    .problems()
    .some(
      (p) =>
        p.kind === problem.kind &&
        p.rule === problem.rule &&
        p.value === problem.value &&
        same(p.scope, problem.scope) &&
        (problem.lock === undefined || (p.lock !== undefined && keyId(p.lock, convention.keys) === keyId(problem.lock, convention.keys))),
    );
}

/**
 * The groups of the confirmed findings, re-derived from the items read now: each item seen through
 * the rules of the confirmed findings that read it (as each finding was checked), so a rule no
 * finding read is not judged on half its items. Problem groups only, as an export run shows them.
 */
function confirmedRows(convention: Convention, problems: readonly Problem[], read: ReadonlyMap<string, Item>): GroupRow[] {
  const rulesOf = new Map<string, Set<string | undefined>>();
  for (const problem of problems) {
    for (const key of keysOf(convention, problem)) {
      const id = keyId(key, convention.keys);
      if (!read.has(id)) continue;
      const rules = rulesOf.get(id) ?? new Set();
      rules.add(problem.rule);
      rulesOf.set(id, rules);
    }
  }
  const engine = new AuditEngine(convention, { trackDeltas: false });
  engine.addItems([...rulesOf].map(([id, rules]) => project(read.get(id)!, readAttributes(convention, rules))));
  return engine.rows().filter(isProblemRow);
}

/** Re-checks every finding by key with consistent reads; resolves with the confirmed report, or the read error. */
export async function confirmFindings(options: ConfirmOptions): Promise<Result<ConfirmedReport>> {
  const confirmed = await confirmWithRows(options, false);
  return confirmed.ok ? ok(confirmed.value.report) : confirmed;
}

/** {@link confirmFindings}, plus (with `rows`) the groups of the confirmed findings re-derived from the live items: what the app's inspector shows. */
export async function confirmWithRows(
  options: ConfirmOptions,
  rows = true,
): Promise<Result<{ report: ConfirmedReport; rows?: GroupRow[] }>> {
  const { report } = options;
  const convention = report.convention;
  // Locks in another table: the keys below would be looked for in the accounts' table, and every missing lock would read as still true.
  const refused = exportConventionRefusal(convention, options.table);
  if (refused) return err('validation', refused);
  let read: Map<string, Item>;
  try {
    read = await readKeys(
      options,
      report.problems.flatMap((p) => keysOf(convention, p)),
    );
  } catch (error) {
    const e = toAppError(error, { ...options.errorContext, table: options.table });
    return err(e.kind, e.message);
  }
  const problems: Problem[] = [];
  const stale: Problem[] = [];
  for (const problem of report.problems) {
    const items = keysOf(convention, problem)
      .map((k) => read.get(keyId(k, convention.keys)))
      .filter((i): i is Item => i !== undefined);
    (stillTrue(convention, problem, items) ? problems : stale).push(problem);
  }
  const summary = Object.fromEntries(PROBLEM_KINDS.map((k) => [k, problems.filter((p) => p.kind === k).length])) as Record<
    ProblemKind,
    number
  >;
  const confirmed: ConfirmedReport = { ...report, summary, problems, stale };
  return ok(rows ? { report: confirmed, rows: confirmedRows(convention, problems, read) } : { report: confirmed });
}
