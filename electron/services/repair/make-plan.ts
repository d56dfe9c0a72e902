/**
 * Builds a repair plan with fresh consistent reads: each fix of `planRepairs` is resolved and built
 * exactly as a single claim or release preview is (same resolver, same builders and guards), fixes
 * whose problem is already gone are dropped, releases of values an account holds now and claims of
 * values someone else took since the audit are left for a person, and the rest is packed into transactions of at most 100 actions, each with its token.
 */
import { randomUUID } from 'node:crypto';
import type { ConventionWarning } from '../../../shared/audit/fit';
import type { RepairActionView, RepairFixView, RepairLeftView, RepairTransactionView } from '../../../shared/contract/repair-views';
import type { Convention, PlainKey, Problem } from '../../../shared/model';
import { formatKey, keyId } from '../../../shared/plain-key';
import { err, ok, type Result } from '../../../shared/result';
import { packFixes } from '../../../shared/repair/batch';
import { buildTransaction, keySchemas } from '../../../shared/transactions/build';
import { findRule } from '../../../shared/transactions/build-common';
import { awsCliCommand, sdkV3Snippet } from '../../../shared/transactions/copy-as';
import { planRepairs, type RepairFix } from '../../../shared/transactions/repair-plan';
import { actionParts, preflight } from '../../../shared/transactions/preflight';
import type {
  ActionMeta,
  AttributeValueJson,
  BuiltTransaction,
  ClaimSpec,
  ReleaseSpec,
  TransactItemJson,
} from '../../../shared/transactions/types';
import { findHoldersOfValues, readItem, storedText } from '../transactions/reads';
import { resolveSpec } from '../transactions/resolve';
import type { TransactionContext } from '../transactions/service';

/** One transaction as kept for execute: the exact request, its actions, and the releases to re-check. */
export interface PlannedTransaction {
  readonly view: RepairTransactionView;
  /** Action metadata renumbered to positions in this transaction. */
  readonly actions: readonly ActionMeta[];
  /** The releases in it, by fix index: their values are looked for again just before sending. */
  readonly releases: readonly { readonly fix: number; readonly spec: ReleaseSpec }[];
}

/** A built plan: the views to show and what execute needs. */
export interface BuiltPlan {
  readonly fixes: readonly RepairFixView[];
  readonly transactions: readonly PlannedTransaction[];
  readonly manual: readonly RepairLeftView[];
  readonly resolved: readonly RepairLeftView[];
  readonly actionCount: number;
}

/** Where to plan. */
export interface PlanInput {
  readonly table: string;
  readonly convention: Convention;
  readonly problems: readonly Problem[];
  /** The audit's convention warnings: their rules get no automatic fix (see planRepairs). */
  readonly warnings?: readonly ConventionWarning[];
  readonly signal?: AbortSignal;
}

/** Fixes resolved at once (each a couple of consistent GetItems). */
const CONCURRENCY = 8;

type Resolved =
  | { readonly fix: RepairFix; readonly built: BuiltTransaction; readonly release?: ReleaseSpec }
  | { readonly fix: RepairFix; readonly left: 'manual' | 'resolved'; readonly why: string }
  /** A claim whose lock was written since the audit: fixed only if nobody else took the value (see settleTaken). */
  | { readonly fix: RepairFix; readonly taken: { readonly spec: ClaimSpec; readonly lockText: string; readonly otherOwner?: string } };

/** Resolves and builds one fix the way a single preview does; a fix whose problem is gone says so. */
async function resolveFix(ctx: TransactionContext, input: PlanInput, fix: RepairFix): Promise<Resolved> {
  const where = { client: ctx.client, table: input.table, convention: input.convention, ...(input.signal ? { signal: input.signal } : {}) };
  const spec = await resolveSpec(where, fix.operation);
  if (!spec.ok) {
    // No lock left to release: someone (or an earlier repair) already did.
    if (fix.operation.kind === 'release' && spec.error.kind === 'not-found')
      return { fix, left: 'resolved', why: `fresh read: ${spec.error.message}` };
    return { fix, left: 'manual', why: spec.error.message };
  }
  const built = buildTransaction(input.table, input.convention, spec.value);
  if (!built.ok) return { fix, left: 'manual', why: built.error.message };
  if (fix.operation.kind === 'claim') {
    // A lock written since the audit: the claim would fail its condition and cancel every fix packed with it.
    const putIndex = built.value.actions.findIndex((a) => a.role === 'put-lock');
    const put = built.value.actions[putIndex];
    const lock = put
      ? await readItem(ctx.client, input.convention.lockTable ?? input.table, input.convention, put.key, input.signal)
      : undefined;
    if (put && lock && spec.value.kind === 'claim') {
      // With an owner attribute the lock says whose it is: another name means someone else took the value.
      const ownerAttribute = input.convention.ownerAttribute;
      const wanted =
        ownerAttribute === undefined
          ? undefined
          : ownerText((built.value.items[putIndex] as { Put?: { Item: Record<string, AttributeValueJson> } }).Put?.Item[ownerAttribute]);
      const found = ownerAttribute === undefined ? undefined : storedText(lock, ownerAttribute);
      const otherOwner = found !== undefined && found !== wanted ? found : undefined;
      return { fix, taken: { spec: spec.value, lockText: put.keyText, ...(otherOwner !== undefined ? { otherOwner } : {}) } };
    }
  }
  return { fix, built: built.value, ...(spec.value.kind === 'release' ? { release: spec.value } : {}) };
}

/** The plan for `problems`: fresh reads, guarded fixes, packed transactions. */
export async function makePlan(ctx: TransactionContext, input: PlanInput): Promise<Result<BuiltPlan>> {
  const planned = planRepairs(input.problems, input.warnings);
  const manual: RepairLeftView[] = planned.manual.map((m) => ({ problem: m.problem, why: m.why }));
  const resolved: RepairLeftView[] = [];
  const results: Resolved[] = new Array(planned.fixes.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, planned.fixes.length) }, async () => {
      while (next < planned.fixes.length) {
        const i = next++;
        results[i] = await resolveFix(ctx, input, planned.fixes[i]!);
      }
    }),
  );
  // Who holds the released values, and the values of claims whose lock appeared since the audit, right now (one consistent scan for all).
  const releases = results.flatMap((r, i) => ('release' in r && r.release ? [{ i, spec: r.release }] : []));
  const taken = results.flatMap((r, i) => ('taken' in r ? [{ i, taken: r.taken }] : []));
  const held = await holdersOf(ctx, input, [...releases.map((r) => r.spec), ...taken.map((t) => t.taken.spec)]);
  const names = (holders: readonly PlainKey[]) => holders.map((h) => formatKey(h, input.convention.keys)).join(', ');
  releases.forEach((r, j) => {
    const holders = held[j] ?? [];
    if (holders.length === 0) return;
    results[r.i] = {
      fix: results[r.i]!.fix,
      left: 'manual',
      why: `fresh read: ${names(holders)} holds \`${r.spec.value}\` now; releasing its lock would let someone else take it`,
    };
  });
  taken.forEach((t, j) => {
    results[t.i] = { fix: results[t.i]!.fix, ...settleTaken(t.taken, held[releases.length + j] ?? [], input.convention, names) };
  });
  const kept: { fix: RepairFix; built: BuiltTransaction; release?: ReleaseSpec }[] = [];
  for (const r of results) {
    if ('built' in r) kept.push(r);
    else if ('left' in r) (r.left === 'manual' ? manual : resolved).push({ problem: r.fix.problem, why: r.why });
  }
  const keys = input.convention.keys;
  const packed = packFixes(
    kept.map((k) => ({
      items: k.built.items.map((item, i) => `${actionParts(item).body.TableName}\u0000${keyId(k.built.actions[i]?.key ?? {}, keys)}`),
    })),
  );
  if (!packed.ok) return err('internal', `the repair plan could not be packed: ${packed.error.message}`);
  const fixes: RepairFixView[] = [];
  const schemas = keySchemas(input.table, input.convention);
  const transactions: PlannedTransaction[] = [];
  for (const [index, t] of packed.value.entries()) {
    const items: TransactItemJson[] = [];
    const actions: ActionMeta[] = [];
    const views: RepairActionView[] = [];
    const releaseSpecs: { fix: number; spec: ReleaseSpec }[] = [];
    const fixIndexes: number[] = [];
    for (const k of t.fixes) {
      const { fix, built, release } = kept[k]!;
      const fixIndex = fixes.length;
      const operation = fix.operation.kind === 'claim' || fix.operation.kind === 'release' ? fix.operation : undefined;
      if (!operation) throw new Error(`a repair fix is a claim or a release, not ${fix.operation.kind}`);
      fixes.push({ index: fixIndex, kind: operation.kind, summary: fix.summary, problem: fix.problem, operation, transaction: index });
      fixIndexes.push(fixIndex);
      if (release) releaseSpecs.push({ fix: fixIndex, spec: release });
      built.items.forEach((item, i) => {
        const meta = built.actions[i]!;
        const at = items.length;
        items.push(item);
        actions.push({ ...meta, index: at });
        views.push({ index: at, type: actionParts(item).op, keyText: meta.keyText, explanation: meta.explanation, fix: fixIndex });
      });
    }
    const input_ = { TransactItems: items, ClientRequestToken: randomUUID() };
    // Each fix passed the pre-flight alone; packed together they must too (e.g. DynamoDB's 4 MB per transaction).
    const checked = preflight(input_, schemas);
    if (!checked.ok) return err('internal', `repair transaction ${index + 1} would be refused by DynamoDB: ${checked.error.message}`);
    const target = {
      region: ctx.connection.region,
      ...(ctx.connection.endpoint ? { endpoint: ctx.connection.endpoint } : {}),
      ...(ctx.connection.profile ? { profile: ctx.connection.profile } : {}),
    };
    transactions.push({
      view: {
        index,
        clientRequestToken: input_.ClientRequestToken,
        input: input_,
        actions: views,
        fixes: fixIndexes,
        copyAs: { awsCli: awsCliCommand(input_, target), sdkV3: sdkV3Snippet(input_, target) },
      },
      actions,
      releases: releaseSpecs,
    });
  }
  return ok({ fixes, transactions, manual, resolved, actionCount: transactions.reduce((n, t) => n + t.actions.length, 0) });
}

/**
 * A claim whose lock exists now is fixed only when that lock can be the claiming account's: the lock
 * names it (or names nobody) and no other account holds the value. Otherwise someone took the value
 * since the audit and the account is now a duplicate of it: a person decides, never "already fixed".
 */
function settleTaken(
  taken: { readonly spec: ClaimSpec; readonly lockText: string; readonly otherOwner?: string },
  holders: readonly PlainKey[],
  convention: Convention,
  names: (holders: readonly PlainKey[]) => string,
): { left: 'manual' | 'resolved'; why: string } {
  const claimant = keyId(taken.spec.account, convention.keys);
  const others = holders.filter((h) => keyId(h, convention.keys) !== claimant);
  if (taken.otherOwner !== undefined) {
    return {
      left: 'manual',
      why: `fresh read: the lock ${taken.lockText} exists now and names ${taken.otherOwner}, not ${formatKey(taken.spec.account, convention.keys)}, which still holds \`${taken.spec.value}\`: two owners of one value for a person to settle`,
    };
  }
  if (others.length > 0) {
    return {
      left: 'manual',
      why: `fresh read: the lock ${taken.lockText} exists now, and ${names(others)} also hold${others.length === 1 ? 's' : ''} \`${taken.spec.value}\` beside ${formatKey(taken.spec.account, convention.keys)}: a duplicate for a person to settle`,
    };
  }
  return { left: 'resolved', why: `fresh read: the lock ${taken.lockText} exists now` };
}

/** The text of an owner attribute as a lock item would store it (S, or N as its decimal text). */
function ownerText(value: AttributeValueJson | undefined): string | undefined {
  if (value === undefined) return undefined;
  return 'S' in value ? value.S : 'N' in value ? value.N : undefined;
}

/** Who holds each value now (consistent reads), in order. */
export async function holdersOf(
  ctx: TransactionContext,
  input: Pick<PlanInput, 'table' | 'convention' | 'signal'>,
  releases: readonly (ReleaseSpec | ClaimSpec)[],
): Promise<PlainKey[][]> {
  const queries = releases.map((spec) => {
    const rule = findRule(input.convention, spec.rule);
    if (!rule.ok) throw new Error(rule.error.message);
    return { rule: rule.value, value: spec.value, ...(spec.scope ? { scope: spec.scope } : {}) };
  });
  return findHoldersOfValues(
    {
      client: ctx.client,
      table: input.table,
      convention: input.convention,
      segments: ctx.deps?.holderSegments,
      ...(input.signal ? { signal: input.signal } : {}),
    },
    queries,
  );
}
