/**
 * "Verified" means verified: what an executed TransactWriteItems must have left in the table, and
 * how a consistent re-read of each written item compares. Put → the item exists with every
 * attribute written; Delete → gone; Update → exists with each `SET name = value` applied (other
 * update clauses are said to be unchecked, never claimed); ConditionCheck writes nothing. Pure.
 */
import type { ActionMeta, AttributeValueJson, ItemJson, TransactWriteInputJson } from './types';

/** One written item and what it must look like now. */
export interface ExpectedWrite {
  readonly index: number;
  readonly operation: 'Put' | 'Delete' | 'Update';
  readonly table: string;
  readonly key: ItemJson;
  readonly keyText: string;
  readonly present: boolean;
  /** Attributes that must hold exactly these values. */
  readonly attributes: ItemJson;
  /** Parts of an UpdateExpression that could not be checked. */
  readonly unchecked?: string;
}

/** The verdict of the re-reads. */
export interface Verification {
  /** True only when every written item was re-read and matched, and nothing was left unchecked. */
  readonly verified: boolean;
  /** What differs, one line per item. */
  readonly differences: readonly string[];
  /** What could not be checked (an UpdateExpression clause other than a plain SET). */
  readonly unchecked: readonly string[];
}

function sameValue(a: AttributeValueJson, b: AttributeValueJson | undefined): boolean {
  if (b === undefined) return false;
  // DynamoDB may return a number in another spelling (1.50 → 1.5).
  if ('N' in a && 'N' in b) return a.N === b.N || Number(a.N) === Number(b.N);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `SET #a = :v, #b = :w` → { a: v, b: w }; undefined when the expression is anything else. */
function plainSets(expression: string, names: Readonly<Record<string, string>> = {}, values: ItemJson = {}): ItemJson | undefined {
  const match = /^\s*SET\s+(.+)$/i.exec(expression);
  if (!match?.[1]) return undefined;
  const out: Record<string, AttributeValueJson> = {};
  for (const part of match[1].split(',')) {
    const assignment = /^\s*(#?[A-Za-z0-9_]+)\s*=\s*(:[A-Za-z0-9_]+)\s*$/.exec(part);
    if (!assignment?.[1] || !assignment[2]) return undefined;
    const name = assignment[1].startsWith('#') ? names[assignment[1]] : assignment[1];
    const value = values[assignment[2]];
    if (name === undefined || value === undefined) return undefined;
    out[name] = value;
  }
  return out;
}

/** The items an executed request wrote, with what each must look like. */
export function expectedWrites(input: TransactWriteInputJson, actions: readonly ActionMeta[]): ExpectedWrite[] {
  const out: ExpectedWrite[] = [];
  input.TransactItems.forEach((action, index) => {
    const meta = actions[index];
    const keyText = meta?.keyText ?? `action ${index + 1}`;
    if ('Put' in action) {
      const keyNames = Object.keys(meta?.key ?? {});
      const key = Object.fromEntries(Object.entries(action.Put.Item).filter(([name]) => keyNames.includes(name)));
      out.push({ index, operation: 'Put', table: action.Put.TableName, key, keyText, present: true, attributes: action.Put.Item });
    } else if ('Delete' in action) {
      out.push({
        index,
        operation: 'Delete',
        table: action.Delete.TableName,
        key: action.Delete.Key,
        keyText,
        present: false,
        attributes: {},
      });
    } else if ('Update' in action) {
      const u = action.Update;
      const sets = plainSets(u.UpdateExpression, u.ExpressionAttributeNames, u.ExpressionAttributeValues);
      out.push({
        index,
        operation: 'Update',
        table: u.TableName,
        key: u.Key,
        keyText,
        present: true,
        attributes: sets ?? {},
        ...(sets ? {} : { unchecked: `${keyText}: ${u.UpdateExpression}` }),
      });
    }
  });
  return out;
}

/** Compares re-read items (aligned with `expected`; undefined = not found) and says what differs. */
export function verifyWrites(expected: readonly ExpectedWrite[], reread: readonly (ItemJson | undefined)[]): Verification {
  const differences: string[] = [];
  const unchecked: string[] = [];
  expected.forEach((e, i) => {
    const item = reread[i];
    if (e.unchecked) unchecked.push(e.unchecked);
    if (!e.present) {
      if (item !== undefined) differences.push(`${e.keyText} still exists (the ${e.operation} should have removed it)`);
      return;
    }
    if (item === undefined) {
      differences.push(`${e.keyText} is missing (the ${e.operation} should have written it)`);
      return;
    }
    const wrong = Object.entries(e.attributes).filter(([name, value]) => !sameValue(value, item[name]));
    if (wrong.length > 0)
      differences.push(
        `${e.keyText}: ${wrong.map(([name, value]) => `${name} is ${JSON.stringify(item[name] ?? null)}, expected ${JSON.stringify(value)}`).join('; ')}`,
      );
  });
  return { verified: differences.length === 0 && unchecked.length === 0, differences, unchecked };
}
