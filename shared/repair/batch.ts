/**
 * Packs a repair plan's fixes into TransactWriteItems requests. DynamoDB takes at most 100 actions
 * per transaction and refuses one that touches the same item twice (ValidationException), so:
 * fixes are taken in plan order; each goes whole (its actions must commit together) into the first
 * of the last few open transactions that has room for all its actions and touches none of its
 * items, else into a new transaction. Deterministic: the same fixes give the same transactions.
 */
import { err, ok, type Result } from '../result';
import { MAX_TRANSACT_ACTIONS } from '../transactions/preflight';

/** DynamoDB's limit of actions in one TransactWriteItems (the one constant, from preflight). */
export const MAX_TRANSACTION_ACTIONS = MAX_TRANSACT_ACTIONS;
/**
 * How many of the newest transactions are still offered room. Bounds packing to O(fixes) for big
 * plans; a fix that conflicts with all of them (two fixes on one account, say) opens a new one.
 */
export const OPEN_TRANSACTIONS = 8;

/** What packing needs of one fix: the items its actions touch, one identity per action (table + key). */
export interface PackableFix {
  readonly items: readonly string[];
}

/** One packed transaction: the fixes in it (plan indexes, in order) and its action count. */
export interface PackedTransaction {
  readonly fixes: readonly number[];
  readonly actions: number;
}

/** Packs `fixes` into transactions of at most `limit` actions with no item touched twice in one. */
export function packFixes(fixes: readonly PackableFix[], limit: number = MAX_TRANSACTION_ACTIONS): Result<PackedTransaction[]> {
  const packed: { fixes: number[]; actions: number; items: Set<string> }[] = [];
  for (const [index, fix] of fixes.entries()) {
    const own = new Set(fix.items);
    if (fix.items.length === 0) return err('validation', `fix ${index + 1} has no actions`);
    if (own.size !== fix.items.length)
      return err('validation', `fix ${index + 1} touches one item twice: DynamoDB refuses such a transaction`);
    if (fix.items.length > limit)
      return err('validation', `fix ${index + 1} has ${fix.items.length} actions, more than the ${limit} of one transaction`);
    const fits = (t: (typeof packed)[number]): boolean =>
      t.actions + fix.items.length <= limit && fix.items.every((item) => !t.items.has(item));
    const target = packed.slice(-OPEN_TRANSACTIONS).find(fits);
    if (target) {
      target.fixes.push(index);
      target.actions += fix.items.length;
      for (const item of fix.items) target.items.add(item);
    } else {
      packed.push({ fixes: [index], actions: fix.items.length, items: own });
    }
  }
  return ok(packed.map(({ fixes: f, actions }) => ({ fixes: f, actions })));
}
