/**
 * Learning a lock layout from the data, for tables no preset describes: which account attributes
 * stand inside other items' keys and where (detect-layout-hits.ts), which readings are locks rather
 * than children of a parent (locks are about one per value and rule, carry little, and their value
 * is not their holder's own id), how accounts are recognised, and each rule's normalization. The
 * learned convention is then read back over the sample: its confidence is the share of the locks
 * it reads exactly as they were written.
 */
import type { Convention, Item, KeySchema, LockKeyTemplate, LockRule } from '../model';
import { classifyItem, type ItemClass } from './classify';
import { joinKey } from './scope';
import { fmt } from './detect-overlap';
import { findLayoutGroups, heldText, type LayoutGroup } from './detect-layout-hits';
import { learnAccounts } from './detect-layout-accounts';
import { ambiguous, chooseGroups, MIN_SUPPORT } from './detect-layout-choose';
import { inferNormalization } from './detect-normalize';
import { detectOwner } from './detect-owner';
import { compileConvention } from './parse';

/** A learned convention, its evidence and how many sampled items it reads as locks. */
export interface LearnedLayout {
  readonly convention: Convention;
  readonly evidence: readonly string[];
  readonly confidence: number;
  /** Sampled items the convention reads as locks of its rules (well-formed or not). */
  readonly covered: number;
}

/** The constant attributes (or `{value}` / `{raw}` copies) every lock of a group carries: what the library writes on them. */
function lockItemOf(keys: KeySchema, group: LayoutGroup, skip: ReadonlySet<string>): Record<string, string> | undefined {
  const members = [...group.members];
  const first = members[0]?.[0];
  if (!first || members.length < MIN_SUPPORT) return undefined;
  const out: Record<string, string> = {};
  for (const name in first) {
    if (name === keys.hash.name || name === keys.range?.name || skip.has(name)) continue;
    const texts = members.map(([item]) => item[name]?.S);
    if (texts.some((t) => t === undefined)) continue;
    if (texts.every((t) => t === texts[0]) && !texts[0]!.includes('{')) out[name] = texts[0]!;
    else if (members.every(([item, m]) => item[name]?.S === m.written)) out[name] = '{value}';
    else if (members.every(([item, m]) => item[name]?.S === heldText(m.holder, group.attribute))) out[name] = '{raw}';
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** One rule per attribute: its chosen groups as lock keys (most locks first) when they share a scope. */
function ruleOf(
  keys: KeySchema,
  sample: readonly Item[],
  attribute: string,
  list: readonly LayoutGroup[],
  skip: ReadonlySet<string>,
  evidence: string[],
): { rule: LockRule; doubtful: boolean } {
  const main = list[0]!;
  const same = list.filter((g) => JSON.stringify(g.scope) === JSON.stringify(main.scope));
  const lockKeys: LockKeyTemplate[] = same.map((g) =>
    keys.range && g.range !== undefined ? { hash: g.hash, range: g.range } : { hash: g.hash },
  );
  const written = same.flatMap((g) => [...g.members.values()].map((m) => m.written));
  const accounts = sample.filter((item) => heldText(item, attribute) !== undefined && !same.some((g) => g.members.has(item)));
  const numeric = accounts.length > 0 && accounts.every((a) => a[attribute]?.N !== undefined);
  const inferred = numeric
    ? undefined
    : inferNormalization(
        written,
        accounts.map((a) => heldText(a, attribute) ?? ''),
        [],
      );
  const steps = inferred?.steps ?? [];
  const lockItem = lockItemOf(keys, main, skip);
  const rule: LockRule = {
    name: attribute,
    attribute,
    lockKeys,
    normalize: steps,
    ...(Object.keys(main.scope).length > 0 ? { scope: main.scope } : {}),
    ...(lockItem ? { lockItem } : {}),
    ...(numeric ? { valueType: 'N' as const } : {}),
  };
  const where = lockKeys
    .map((k) => `${keys.hash.name} \`${k.hash}\`${k.range === undefined ? '' : `, ${keys.range?.name ?? ''} \`${k.range}\``}`)
    .join(' or ');
  const norm =
    steps.length > 0 ? `normalized: ${steps.join(', ')}` : numeric ? 'numbers in canonical text' : 'case and spelling kept as stored';
  const why = inferred && inferred.reasons.length > 0 ? ` — ${inferred.reasons.join('; ')}` : '';
  evidence.push(
    `rule ${attribute} ↔ attribute \`${attribute}\`: ${where} (${norm}): ${fmt(written.length)} sampled locks embed a value another item holds${why}`,
  );
  for (const [placeholder, scopeAttribute] of Object.entries(main.scope))
    evidence.push(
      `rule ${attribute} is unique within \`${scopeAttribute}\`: the holder's \`${scopeAttribute}\` stands in the key as {${placeholder}}`,
    );
  if (numeric) evidence.push(`rule ${attribute}: sampled accounts store \`${attribute}\` as a number (N): values compare as numbers`);
  if (lockItem)
    evidence.push(
      `rule ${attribute}: every sampled lock carries ${Object.entries(lockItem)
        .map(([k, v]) => `\`${k}\` = \`${v}\``)
        .join(', ')}`,
    );
  return { rule, doubtful: (inferred?.unproven.length ?? 0) > 0 };
}

/** Learns a convention from where account values stand in other items' keys; a reason when nothing reads as a lock. */
export function learnLayout(keys: KeySchema, sample: readonly Item[]): LearnedLayout | string {
  const evidence: string[] = [];
  const groups = findLayoutGroups(keys, sample);
  const chosen = chooseGroups(keys, sample, groups, evidence);
  const unsure = ambiguous(chosen, groups, evidence);
  if (chosen.length === 0) return `no sampled key holds a value that ${MIN_SUPPORT} or more other items hold in the same place`;
  const lockItems = new Set(chosen.flatMap((g) => [...g.members.keys()]));
  const attributes = [...new Set(chosen.map((g) => g.attribute))].sort();
  const accounts = sample.filter((item) => !lockItems.has(item) && attributes.some((a) => heldText(item, a) !== undefined));
  const matcher = learnAccounts(keys, accounts, [...lockItems], sample);
  const skip = new Set([
    keys.hash.name,
    ...(keys.range ? [keys.range.name] : []),
    ...(matcher.account.kind === 'attribute-equals' ? [matcher.account.attribute] : []),
  ]);
  const owner = detectOwner(keys, [...lockItems], accounts, skip);
  const ruleSkip = new Set(owner ? [owner.attribute] : []);
  evidence.unshift(
    `${fmt(lockItems.size)} of ${fmt(sample.length)} sampled items hold, in their keys, a value ${fmt(accounts.length)} other items hold as an attribute`,
  );
  const rules: LockRule[] = [];
  let weight = 0;
  for (const attribute of attributes) {
    const { rule, doubtful } = ruleOf(
      keys,
      sample,
      attribute,
      chosen.filter((g) => g.attribute === attribute),
      ruleSkip,
      evidence,
    );
    rules.push(rule);
    weight += doubtful || unsure.has(attribute) ? 0.5 : 1;
  }
  evidence.push(matcher.evidence);
  if (owner) evidence.push(owner.evidence);
  // Items that start like a lock but read as none show up as malformed, unless an account key starts the same way.
  const prefixes = rules.flatMap((r) =>
    r.lockKeys.map((k) => k.hash.slice(0, k.hash.indexOf('{') < 0 ? k.hash.length : k.hash.indexOf('{'))),
  );
  const lockPrefixes = [...new Set(prefixes)].filter((p) => p !== '' && !accounts.some((a) => a[keys.hash.name]?.S?.startsWith(p)));
  const base: Convention = { preset: 'custom', keys, account: matcher.account, rules, lockPrefixes };
  const convention: Convention = owner ? { ...base, ownerAttribute: owner.attribute } : base;
  return finish(convention, sample, chosen, evidence, weight / rules.length);
}

/** Reads the sample back with the learned convention: every chosen lock must read as written, every holder as an account. */
function finish(
  convention: Convention,
  sample: readonly Item[],
  chosen: readonly LayoutGroup[],
  evidence: string[],
  ruleWeight: number,
): LearnedLayout {
  let compiled: ReturnType<typeof compileConvention>;
  try {
    compiled = compileConvention(convention);
  } catch (e) {
    // A template the engine cannot read is said, never used.
    evidence.push(`the learned templates cannot be read: ${e instanceof Error ? e.message : String(e)}`);
    return { convention, evidence, confidence: 0, covered: 0 };
  }
  // Each sampled item classified once; locks and holders are sampled items.
  const classes = new Map<Item, ItemClass>();
  let covered = 0;
  for (const item of sample) {
    const c = classifyItem(compiled, item);
    classes.set(item, c);
    if (c.kind === 'lock' || (c.kind === 'malformed' && c.rule !== undefined)) covered++;
  }
  let members = 0;
  let exact = 0;
  const holders = new Set<Item>();
  for (const g of chosen) {
    const ruleIndex = convention.rules.findIndex((r) => r.attribute === g.attribute);
    for (const [item, m] of g.members) {
      members++;
      holders.add(m.holder);
      const c = classes.get(item);
      if (c?.kind === 'lock' && c.ruleIndex === ruleIndex && c.value === m.written) exact++;
    }
  }
  let accounts = 0;
  for (const h of holders) if (classes.get(h)?.kind === 'account') accounts++;
  evidence.push(
    `read back: the learned convention reads ${fmt(exact)} of ${fmt(members)} sampled locks as written and ${fmt(accounts)} of ${fmt(holders.size)} holders as accounts`,
  );
  const share = members === 0 ? 0 : (exact / members) * (holders.size === 0 ? 1 : accounts / holders.size);
  return { convention, evidence, confidence: Math.round(share * ruleWeight * 100) / 100, covered };
}

/**
 * How many sampled locks a convention reads with a value exactly one sampled account holds: a lock
 * protects one holder's value, so a reading that pairs locks with a shared label (a tenant held by
 * every account of it) or with nothing scores low. Compares a learned layout with a preset's.
 */
export function uniquelyHeldLocks(convention: Convention, sample: readonly Item[]): number {
  const compiled = compileConvention(convention);
  const holders = new Map<string, number>();
  const locks: string[] = [];
  for (const item of sample) {
    const c = classifyItem(compiled, item);
    if (c.kind === 'lock') locks.push(`${c.ruleIndex}\u0001${joinKey(c.scope, c.normalized)}`);
    else if (c.kind === 'account')
      for (const v of c.values)
        holders.set(
          `${v.ruleIndex}\u0001${joinKey(v.scope, v.normalized)}`,
          (holders.get(`${v.ruleIndex}\u0001${joinKey(v.scope, v.normalized)}`) ?? 0) + 1,
        );
  }
  return locks.filter((k) => holders.get(k) === 1).length;
}
