/**
 * What detection learns of one lock tag from the sample: its locks grouped, the tags that are
 * really thin accounts, the literal sort key of its locks, its scope, and the preset's documented
 * rules kept when no lock of theirs was sampled.
 */
import type { Item, KeySchema, NormalizationStep, PresetName } from '../model';
import { scalarText } from './classify';
import { normalizeValue } from './normalize';
import { defaultRuleTag } from './detect-normalize';
import { attributeValues, fmt, pairTag, type Pairing } from './detect-overlap';
import { PRESET_DEFAULTS, type PresetRuleSpec } from './presets';
import type { LockObservation, LockScan } from './detect-scan';

/** Groups lock observations by tag. */
export function groupByTag(locks: readonly LockObservation[]): Map<string, LockObservation[]> {
  const byTag = new Map<string, LockObservation[]>();
  for (const lock of locks) {
    let list = byTag.get(lock.tag);
    if (!list) byTag.set(lock.tag, (list = []));
    list.push(lock);
  }
  return byTag;
}

/** Each tag's pairing with the candidates' attribute values (pairTag), by tag. */
export function pairEach(
  scan: LockScan,
  byTag: ReadonlyMap<string, readonly LockObservation[]>,
  attributes: ReadonlyMap<string, readonly string[]>,
): Map<string, Pairing | undefined> {
  const out = new Map<string, Pairing | undefined>();
  for (const [tag, locks] of byTag)
    out.set(
      tag,
      pairTag(
        scan.tagName(tag),
        locks.map((l) => l.value),
        attributes,
      ),
    );
  return out;
}

/**
 * Tags whose "locks" are really thin accounts (e.g. `USER#42` with `email` and `name` looks like a
 * `<TAG>#…` lock): once their items count as account candidates, their items hold an attribute
 * that another tag pairs with. `pairings` are the tags' pairings with the candidates' values (pairEach).
 */
export function accountTags(
  scan: LockScan,
  byTag: ReadonlyMap<string, readonly LockObservation[]>,
  pairings: ReadonlyMap<string, Pairing | undefined>,
  candidates: readonly Item[],
  skip: ReadonlySet<string>,
): Set<string> {
  const unpaired = [...byTag].filter(([tag]) => !pairings.get(tag));
  if (unpaired.length === 0) return new Set();
  const widened = attributeValues([...candidates, ...unpaired.flatMap(([, locks]) => locks.map((l) => l.item))], skip);
  const paired = new Set<string>();
  for (const [tag, locks] of byTag) {
    const pairing = pairTag(
      scan.tagName(tag),
      locks.map((l) => l.value),
      widened,
    );
    if (pairing && !pairing.byName) paired.add(pairing.attribute);
  }
  return new Set(unpaired.filter(([, locks]) => locks.some((l) => [...paired].some((a) => l.item[a] !== undefined))).map(([tag]) => tag));
}

/** The literal sort key shared by most tag-shaped locks on a table with a sort key; a reason when there is none. */
export function tagLockRange(keys: KeySchema, locks: readonly LockObservation[]): { range: string; count: number } | string {
  const range = keys.range;
  if (!range) return 'no sort key';
  const counts = new Map<string, number>();
  for (const l of locks) {
    const r = l.item[range.name]?.S;
    // A sort key repeating the hash key (`email#x` / `email#x`) is no literal a template can hold.
    if (r !== undefined && r !== l.item[keys.hash.name]?.S) counts.set(r, (counts.get(r) ?? 0) + 1);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (!best || best[1] * 2 <= locks.length)
    return `their sort keys vary (${range.name} is not one literal value such as \`LOCK\`), which a lock key template cannot describe`;
  return { range: best[0], count: best[1] };
}

/**
 * With a forced preset, its documented rules whose attribute sampled accounts hold stay even when
 * no lock of theirs was sampled (a small table, or every such lock missing): otherwise the audit
 * could not report those missing locks and `--rule` could not name them.
 */
export function addDocumentedRules(
  preset: PresetName,
  rules: PresetRuleSpec[],
  attributes: ReadonlyMap<string, readonly string[]>,
  evidence: string[],
): void {
  for (const spec of PRESET_DEFAULTS[preset].rules) {
    const tag = defaultRuleTag(preset, spec);
    const holders = attributes.get(spec.attribute)?.length ?? 0;
    if (holders === 0 || rules.some((r) => r.tag === tag || r.attribute === spec.attribute)) continue;
    const normalize = spec.normalize ?? [];
    rules.push({ attribute: spec.attribute, tag, normalize });
    const norm = normalize.length ? ` (normalized: ${normalize.join(', ')})` : '';
    evidence.push(
      `rule ${tag} ↔ attribute \`${spec.attribute}\`${norm}: no sampled locks; kept from the ${preset} preset's defaults (${fmt(holders)} sampled accounts hold \`${spec.attribute}\`)`,
    );
  }
}

/**
 * The scope attribute of a tag whose locks carry a scope (`_unique#<scope>#User#nickname#…`): the
 * account attribute that, together with the value attribute, reproduces the most (scope, value)
 * pairs of the sampled locks. Undefined when the locks are unscoped; when no attribute fits, the
 * evidence says so (the locks will read as malformed until a scope is declared).
 */
export function scopeOf(
  locks: readonly LockObservation[],
  attribute: string,
  steps: readonly NormalizationStep[],
  accounts: readonly Item[],
  skip: ReadonlySet<string>,
  ruleName: string,
  evidence: string[],
): string | undefined {
  const scoped = locks.filter((l) => l.scope !== undefined);
  if (scoped.length * 2 <= locks.length) return undefined;
  const pairs = new Set(scoped.map((l) => JSON.stringify([l.scope, normalizeValue(l.value, steps)])));
  const tally = new Map<string, number>();
  for (const account of accounts) {
    const value = scalarText(account[attribute]);
    if (value === undefined) continue;
    const normalized = normalizeValue(value, steps);
    for (const name in account) {
      if (name === attribute || skip.has(name)) continue;
      const scope = scalarText(account[name]);
      if (scope !== undefined && pairs.has(JSON.stringify([scope, normalized]))) tally.set(name, (tally.get(name) ?? 0) + 1);
    }
  }
  const best = [...tally].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  if (!best) {
    evidence.push(
      `rule ${ruleName}: ${fmt(scoped.length)} sampled locks are scoped (\`${scoped[0]?.scope ?? ''}\`…) but no account attribute holds their scope: add "scope" to the rule by hand`,
    );
    return undefined;
  }
  evidence.push(
    `rule ${ruleName} is unique within \`${best[0]}\`: ${fmt(best[1])} sampled accounts hold a (${best[0]}, ${attribute}) pair that a scoped lock protects (${fmt(scoped.length)} scoped locks)`,
  );
  return best[0];
}

/** The tag's locks read as `<scope>#<value>`, when most of their values have a `#` to split at. */
export function compositeLocks(locks: readonly LockObservation[]): LockObservation[] | undefined {
  const split = locks.flatMap((l) => {
    const at = l.value.indexOf('#');
    return at > 0 && at < l.value.length - 1 ? [{ ...l, scope: l.value.slice(0, at), value: l.value.slice(at + 1) }] : [];
  });
  return split.length * 2 > locks.length ? split : undefined;
}

/** True when every sampled account holding `attribute` stores it as a number. */
export function numberTyped(accounts: readonly Item[], attribute: string): boolean {
  let numbers = 0;
  for (const a of accounts) {
    const v = a[attribute];
    if (v === undefined) continue;
    if (v.N === undefined) return false;
    numbers++;
  }
  return numbers > 0;
}
