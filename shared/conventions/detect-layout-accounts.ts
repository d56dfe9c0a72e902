/**
 * How a learned layout recognises its accounts, from the items that hold the protected values:
 * an entity attribute they all carry with one value (`__typename = User`, `_et`, `entity`…), else
 * the literal start of their keys (`ACCT#` and a shared sort key such as `PROFILE`), else any item
 * that is not a lock.
 */
import type { AccountMatcher, Item, KeySchema } from '../model';
import { fmt } from './detect-overlap';

/** The matcher and the evidence line for it. */
export interface LearnedAccounts {
  readonly account: AccountMatcher;
  readonly evidence: string;
}

/** Attribute names that libraries use to name an item's entity type. */
const ENTITY_NAME = /^(_*(type|typename|entity|entitytype|et|kind|model|t)|__edb_e__)$/i;
const WORD = /[\p{L}\p{N}]/u;

/** The one value every holder has for `name`, when they all have the same S value. */
function constant(accounts: readonly Item[], name: string): string | undefined {
  const first = accounts[0]?.[name]?.S;
  if (first === undefined) return undefined;
  return accounts.every((a) => a[name]?.S === first) ? first : undefined;
}

/** The longest common start of `texts` that ends right after a separator (`ACCT#`), or ''. */
function commonPrefix(texts: readonly string[]): string {
  const first = texts[0];
  if (first === undefined) return '';
  let length = first.length;
  for (const t of texts) {
    let i = 0;
    while (i < length && i < t.length && t[i] === first[i]) i++;
    length = i;
  }
  // Cut back to a separator: `USER#1` and `USER#2` share `USER#`, not `USER#` plus a digit by chance.
  while (length > 0 && WORD.test(first[length - 1]!)) length--;
  return first.slice(0, length);
}

/** Learns the account matcher from the holders of protected values (`accounts`), the chosen lock items and the whole sample. */
export function learnAccounts(
  keys: KeySchema,
  accounts: readonly Item[],
  locks: readonly Item[],
  sample: readonly Item[],
): LearnedAccounts {
  if (accounts.length > 0) {
    const names = Object.keys(accounts[0] ?? {})
      .filter((n) => n !== keys.hash.name && n !== keys.range?.name && ENTITY_NAME.test(n))
      .sort();
    for (const name of names) {
      const value = constant(accounts, name);
      if (value === undefined || locks.some((l) => l[name]?.S === value)) continue;
      const matching = sample.filter((i) => i[name]?.S === value).length;
      return {
        account: { kind: 'attribute-equals', attribute: name, value },
        evidence: `accounts: ${fmt(matching)} sampled items with ${name} = \`${value}\` (every item holding a protected value has it)`,
      };
    }
    const prefix = commonPrefix(accounts.map((a) => a[keys.hash.name]?.S ?? ''));
    if (prefix !== '' && !locks.some((l) => l[keys.hash.name]?.S?.startsWith(prefix))) {
      const range = keys.range ? constant(accounts, keys.range.name) : undefined;
      const account: AccountMatcher = range === undefined ? { kind: 'key-prefix', prefix } : { kind: 'key-prefix', prefix, range };
      const where = `${keys.hash.name} \`${prefix}…\`${range === undefined ? '' : ` and ${keys.range?.name ?? ''} \`${range}\``}`;
      return { account, evidence: `accounts: ${fmt(accounts.length)} sampled items holding protected values, all keyed ${where}` };
    }
  }
  return {
    account: { kind: 'not-lock' },
    evidence: `accounts: any item that is not a lock (${fmt(accounts.length)} sampled items hold protected values; no entity attribute or key prefix sets them apart)`,
  };
}
