/**
 * Which layout groups are lock rules: the largest first, each lock item read once, ids, shared
 * labels and parents refused, and the groups that stand for one another said in the evidence.
 */
import type { Item, KeySchema } from '../model';
import { fmt } from './detect-overlap';
import { fold, heldText, type LayoutGroup } from './detect-layout-hits';

/** A reading shared by fewer items than this is chance, not a layout. */
export const MIN_SUPPORT = 2;

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
export function chooseGroups(keys: KeySchema, sample: readonly Item[], groups: readonly LayoutGroup[], evidence: string[]): LayoutGroup[] {
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
export function ambiguous(chosen: readonly LayoutGroup[], groups: readonly LayoutGroup[], evidence: string[]): Set<string> {
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
