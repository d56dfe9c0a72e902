/**
 * The repair plan for an audit's problems: release for orphan locks, claim for missing locks, and
 * everything a machine should not decide (duplicates, owner mismatches, malformed locks) listed
 * for a human. Each fix is one small operation; shared/repair/batch.ts packs them into transactions.
 */
import type { ConventionWarning } from '../audit/fit';
import { UNDECLARED_SCOPE_REASON } from '../conventions/parse';
import { scopeWords } from '../conventions/scope';
import type { Problem } from '../model';
import { q } from './build-common';
import type { TransactionOperation } from './types';

/** One automatic fix: the problem and the operation that repairs it. */
export interface RepairFix {
  readonly problem: Problem;
  readonly operation: TransactionOperation;
  readonly summary: string;
}

/** A problem left to a person, with why. */
export interface ManualRepair {
  readonly problem: Problem;
  readonly why: string;
}

/** The plan: automatic fixes and problems for a human. */
export interface RepairPlan {
  readonly fixes: readonly RepairFix[];
  readonly manual: readonly ManualRepair[];
}

/**
 * Plans the repairs of an audit's problems (pure). A rule the audit warns about (the table contradicts
 * the convention, see audit/fit.ts) gets no automatic fix at all: each of its problems is left to a
 * person with the warning as the reason, so a misread convention never writes (or deletes) locks at scale.
 */
export function planRepairs(problems: readonly Problem[], warnings: readonly ConventionWarning[] = []): RepairPlan {
  const fixes: RepairFix[] = [];
  const manual: ManualRepair[] = [];
  const warned = new Map(warnings.map((w) => [w.rule, w]));
  // Scoped locks the convention cannot read: a "missing" lock of that rule may well exist under a
  // scope, and writing the unscoped key would protect nothing the library checks. Leave those to a person.
  const undeclared = new Set(
    problems
      .filter((p) => p.kind === 'malformed-lock' && p.rule !== undefined && p.reason?.startsWith(UNDECLARED_SCOPE_REASON))
      .map((p) => p.rule),
  );
  for (const problem of problems) {
    // The value comes from an item: its controls and bidi characters are marked (summaries reach terminals and pages).
    const label = `${problem.rule ? `${problem.rule.toLowerCase()} ${q(problem.value)}` : q(problem.value)}${scopeWords(problem.scope)}`;
    const warning = problem.rule === undefined ? undefined : warned.get(problem.rule);
    if (warning && (problem.kind === 'orphan-lock' || problem.kind === 'missing-lock')) {
      manual.push({
        problem,
        why: `${warning.message}. No automatic fix for rule ${warning.rule}: fix the convention and audit again, or claim or release single values by hand under a reviewed convention`,
      });
      continue;
    }
    switch (problem.kind) {
      case 'orphan-lock':
        if (problem.rule) {
          fixes.push({
            problem,
            summary: `release ${label} (orphan lock)`,
            operation: {
              kind: 'release',
              rule: problem.rule,
              value: problem.value,
              ...(problem.lock ? { lock: problem.lock } : {}),
              ...(problem.scope ? { scope: problem.scope } : {}),
            },
          });
        } else manual.push({ problem, why: 'the orphan lock names no rule' });
        break;
      case 'missing-lock': {
        const account = problem.accounts?.[0];
        const holders = problem.accounts?.length ?? 0;
        if (holders > 1) {
          // Several accounts hold the value (a duplicate): claiming it for one of them would pick who keeps it.
          manual.push({
            problem,
            why: `${holders} accounts hold ${label} and no lock protects it: a person must decide who keeps it, then claim it for that account`,
          });
        } else if (problem.rule && undeclared.has(problem.rule)) {
          manual.push({
            problem,
            why: `rule ${problem.rule} has scoped locks whose scope the convention does not declare: declare the rule's "scope" first, or a claim would write a key the library never checks`,
          });
        } else if (problem.rule && account)
          fixes.push({
            problem,
            summary: `claim ${label} for its holder (missing lock)`,
            operation: { kind: 'claim', rule: problem.rule, value: problem.value, account },
          });
        else manual.push({ problem, why: 'the missing lock names no rule or holder' });
        break;
      }
      case 'duplicate-value':
        manual.push({ problem, why: `${problem.accounts?.length ?? 2} accounts hold ${label}: a person must decide who keeps it` });
        break;
      case 'owner-mismatch':
        manual.push({ problem, why: `the lock of ${label} names another account than the holder: check who should hold it` });
        break;
      case 'malformed-lock':
        manual.push({ problem, why: problem.reason ?? 'the lock key cannot be read' });
        break;
    }
  }
  return { fixes, manual };
}
