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
import { findLayoutGroups, fold, heldText, type LayoutGroup } from './detect-layout-hits';
import { learnAccounts } from './detect-layout-accounts';
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

/** A reading shared by fewer items than this is chance, not a layout. */
const MIN_SUPPORT = 2;
/** Locks carry their key and little else: at most this many attributes that vary from lock to lock (owner, TTL, raw value). */
const MAX_PAYLOAD = 3;

const simplify = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
const placeholders = (g: LayoutGroup): number => Object.keys(g.scope).length;
/** Whether the group's literal text names its attribute (`EMAIL#` for `email`): a tie-breaker only. */
const named = (g: LayoutGroup): boolean => simplify(`${g.hash}${g.range ?? ''}`).includes(simplify(g.attribute));

/** The median number of attributes that vary across a group's items (besides the keys). */
function payload(keys: KeySchema, members: readonly Item[]): number {
  const seen = new Map<string, Set<string>>();
  for (const item of members) {
    for (const name in item) {
      if (name === keys.hash.name || name === keys.range?.name) continue;
      let values = seen.get(name);
      if (!values) seen.set(name, (values = new Set()));
      values.add(JSON.stringify(item[name]));
    }
  }
  const varying = new Set([...seen].filter(([, v]) => v.size > 1).map(([n]) => n));
  const counts = members.map((item) => Object.keys(item).filter((n) => varying.has(n)).length).sort((a, b) => a - b);
  return counts[Math.floor(counts.length / 2)] ?? 0;
}

/** Whether most holders of `attribute` carry its value in their own key: an id, not a protected value. */
function isOwnId(keys: KeySchema, sample: readonly Item[], attribute: string): boolean {
  let holders = 0;
  let own = 0;
  for (const item of sample) {
    const value = heldText(item, attribute);
    if (value === undefined) continue;
    holders++;
    const needle = fold(value);
    const texts = [item[keys.hash.name]?.S, keys.range ? item[keys.range.name]?.S : undefined];
    if (texts.some((t) => t !== undefined && fold(t).includes(needle))) own++;
  }
  return holders > 0 && own * 2 > holders;
}

/** Distinct values of `attribute` per sampled item holding it (1: every holder its own). */
function distinctShare(sample: readonly Item[], attribute: string): number {
  const values = new Set<string>();
  let holders = 0;
  for (const item of sample) {
    const v = heldText(item, attribute);
    if (v === undefined) continue;
    holders++;
    values.add(v);
  }
  return holders === 0 ? 0 : values.size / holders;
}

/** Whether most of a group's values are held by several items: a shared label (a tenant, a plan), not a protected value. */
function isLabel(sample: readonly Item[], group: LayoutGroup, counts: Map<string, Map<string, number>>): boolean {
  let byValue = counts.get(group.attribute);
  if (!byValue) {
    counts.set(group.attribute, (byValue = new Map()));
    for (const item of sample) {
      const v = heldText(item, group.attribute);
      if (v !== undefined) byValue.set(fold(v), (byValue.get(fold(v)) ?? 0) + 1);
    }
  }
  let shared = 0;
  for (const m of group.members.values()) if ((byValue.get(fold(m.written)) ?? 0) > 1) shared++;
  return shared * 2 > group.members.size;
}

/** Picks the groups that are lock rules: largest first, each lock item read once, ids and parents refused. */
function chooseGroups(keys: KeySchema, sample: readonly Item[], groups: readonly LayoutGroup[], evidence: string[]): LayoutGroup[] {
  const ranked = groups
    .filter((g) => g.members.size >= MIN_SUPPORT && !g.hash.startsWith('{'))
    .sort(
      (a, b) =>
        b.members.size - a.members.size ||
        placeholders(a) - placeholders(b) ||
        Number(named(b)) - Number(named(a)) ||
        (a.attribute < b.attribute ? -1 : a.attribute > b.attribute ? 1 : 0) ||
        (a.hash < b.hash ? -1 : 1),
    );
  const taken = new Set<Item>();
  const chosen: LayoutGroup[] = [];
  const ids = new Map<string, boolean>();
  const counts = new Map<string, Map<string, number>>();
  for (const group of ranked) {
    const free = [...group.members.keys()].filter((item) => !taken.has(item));
    if (free.length < MIN_SUPPORT || free.length * 2 < group.members.size) continue;
    let id = ids.get(group.attribute);
    if (id === undefined) ids.set(group.attribute, (id = isOwnId(keys, sample, group.attribute)));
    const where = `\`${group.hash}\`${group.range === undefined ? '' : ` / \`${group.range}\``}`;
    if (id) {
      evidence.push(
        `\`${group.attribute}\` stands in ${fmt(group.members.size)} other items' keys (${where}), but most holders carry it in their own key: an id, not a protected value`,
      );
      continue;
    }
    const ownScope = Object.values(group.scope).find((a) => {
      let own = ids.get(a);
      if (own === undefined) ids.set(a, (own = isOwnId(keys, sample, a)));
      // A tenant stands in its accounts' keys too, but many accounts share it: only a value of one holder is its id.
      return own && distinctShare(sample, a) > 0.9;
    });
    if (ownScope !== undefined) {
      evidence.push(
        `${fmt(group.members.size)} items keyed ${where} sit under their holder's own \`${ownScope}\`: records of one account, not locks`,
      );
      continue;
    }
    if (isLabel(sample, group, counts)) {
      evidence.push(
        `\`${group.attribute}\` stands in ${fmt(group.members.size)} items' keys (${where}), but each value is held by several items: a shared label, not a protected value`,
      );
      continue;
    }
    if (payload(keys, free) > MAX_PAYLOAD) {
      evidence.push(
        `${fmt(group.members.size)} items keyed ${where} embed \`${group.attribute}\` values but carry data of their own: children of a parent, not locks`,
      );
      continue;
    }
    for (const item of free) taken.add(item);
    chosen.push(group);
  }
  // A value standing in several chosen items' keys is a parent's id (orders under `ACCT#<id>`), not a lock's value.
  const byAttribute = new Map<string, LayoutGroup[]>();
  for (const g of chosen) byAttribute.set(g.attribute, [...(byAttribute.get(g.attribute) ?? []), g]);
  const parents = new Set<string>();
  for (const [attribute, list] of byAttribute) {
    if (list.length < 2) continue;
    const perHolder = new Map<Item, number>();
    for (const g of list) for (const m of g.members.values()) perHolder.set(m.holder, (perHolder.get(m.holder) ?? 0) + 1);
    const many = [...perHolder.values()].filter((n) => n > 1).length;
    if (many * 5 > perHolder.size) {
      parents.add(attribute);
      evidence.push(
        `\`${attribute}\` values stand in the keys of several items each (${fmt(many)} of ${fmt(perHolder.size)} holders): a parent id, not a protected value`,
      );
    }
  }
  return chosen.filter((g) => !parents.has(g.attribute));
}

/**
 * Attributes whose chosen reading another attribute explains just as well (the same locks, both
 * named or neither by the key's literal text): the sample cannot tell which one the library protects.
 */
function ambiguous(chosen: readonly LayoutGroup[], groups: readonly LayoutGroup[], evidence: string[]): Set<string> {
  const out = new Set<string>();
  for (const g of chosen) {
    const rival = groups.find(
      (o) =>
        o.attribute !== g.attribute &&
        o.members.size === g.members.size &&
        named(o) === named(g) &&
        [...g.members.keys()].every((item) => o.members.has(item)),
    );
    if (!rival) continue;
    out.add(g.attribute);
    evidence.push(
      `rule ${g.attribute}: \`${rival.attribute}\` holds the same values in the sampled accounts; the sample cannot tell which attribute the locks protect (confidence lowered)`,
    );
  }
  return out;
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
