/**
 * The first half of learning a lock layout from a sample: where account values stand inside OTHER
 * items' keys. Every sampled value is indexed once (folded: NFC, lower-case, trimmed; numbers in
 * canonical text); each key text is then cut only at separator boundaries and each cut is one hash
 * lookup — no substring search of every value in every key. Each hit becomes a candidate reading
 * of the item as a lock (the key attributes as templates with `{value}` and scope placeholders),
 * and readings that many items share are grouped: a group is a rule the data suggests.
 */
import type { Item, KeySchema } from '../model';
import { scalarText } from './classify';
import { canonicalNumber } from './scope';
import { isReservedPlaceholder, VALUE_PLACEHOLDER } from './template';

/** One account attribute's value as the index holds it. */
interface Held {
  readonly item: Item;
  readonly attribute: string;
}

/** A group of sampled items that read as locks of one attribute under one pair of templates. */
export interface LayoutGroup {
  readonly attribute: string;
  /** The hash template (`User.email#{value}`), or a literal when the value stands in the sort key only. */
  readonly hash: string;
  /** The range template or literal; undefined on hash-only tables. */
  readonly range: string | undefined;
  /** Scope placeholder → the holder attribute that fills it. */
  readonly scope: Readonly<Record<string, string>>;
  /** Lock item → the value as written in its key and one holder. */
  readonly members: Map<Item, { readonly written: string; readonly holder: Item }>;
}

/** Values held by more items than this are shared labels (a plan, a country), not protected values. */
const MAX_HOLDERS = 8;
/** Longest value text considered (keys are at most 2 KB; protected values are far shorter). */
const MAX_VALUE = 256;
const WORD = /[\p{L}\p{N}]/u;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER_LIKE = /\{[A-Za-z_][A-Za-z0-9_]*\}/;

/** The folded form both sides of a hit are compared in. */
export const fold = (text: string): string => text.normalize('NFC').toLowerCase().trim();

/** An attribute's value as text the way a key would hold it (numbers in DynamoDB's canonical text). */
export function heldText(item: Item, attribute: string): string | undefined {
  const v = item[attribute];
  const text = scalarText(v);
  if (text === undefined || text === '' || text.length > MAX_VALUE) return undefined;
  return v?.N !== undefined ? canonicalNumber(text) : text;
}

/** Whether the UTF-16 unit at `i` is a letter or digit: ASCII by its code (keys are mostly ASCII), the rest by WORD. */
function isWord(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return WORD.test(text[i]!);
}

/** Positions in `text` where a value may start or end: the edges and either side of every non-letter, non-digit. */
function boundaries(text: string): number[] {
  const out = [0];
  let before = text.length > 0 && isWord(text, 0);
  for (let i = 1; i < text.length; i++) {
    const here = isWord(text, i);
    if (!before || !here) out.push(i);
    before = here;
  }
  if (text.length > 0) out.push(text.length);
  return out;
}

/** Where the first boundary after `from` lies in `text` (its length when there is none). */
function nextBoundary(text: string, from: number): number {
  let before = isWord(text, from);
  for (let i = from + 1; i < text.length; i++) {
    const here = isWord(text, i);
    if (!before || !here) return i;
    before = here;
  }
  return text.length;
}

/** The sample's values by folded text, and the first word of each (of those held few enough times to count). */
interface ValueIndex {
  readonly values: ReadonlyMap<string, readonly Held[]>;
  /** A cut past its first word whose first word is none of these holds no indexed value: it is not looked up. */
  readonly heads: ReadonlySet<string>;
}

/** Indexes every non-key scalar value of the sample by its folded text. */
function indexValues(keys: KeySchema, sample: readonly Item[]): ValueIndex {
  const index = new Map<string, Held[]>();
  for (const item of sample) {
    for (const attribute in item) {
      if (attribute === keys.hash.name || attribute === keys.range?.name) continue;
      const text = heldText(item, attribute);
      if (text === undefined) continue;
      const key = fold(text);
      if (key === '') continue;
      let list = index.get(key);
      if (!list) index.set(key, (list = []));
      if (list.length <= MAX_HOLDERS) list.push({ item, attribute });
    }
  }
  const heads = new Set<string>();
  for (const [key, list] of index) if (list.length <= MAX_HOLDERS) heads.add(key.slice(0, nextBoundary(key, 0)));
  return { values: index, heads };
}

/** A value found inside one key text. */
interface Cut {
  readonly start: number;
  readonly end: number;
  readonly held: Held;
}

/** Every cut of `text` at boundaries whose folded text some OTHER item holds. */
function cutsOf(text: string, self: Item, index: ValueIndex): Cut[] {
  const out: Cut[] = [];
  const at = boundaries(text);
  // Fold the key once when folding keeps every position (almost always): each cut is then a slice.
  const folded = text.normalize('NFC').toLowerCase();
  const aligned = folded.length === text.length;
  for (let a = 0; a < at.length - 1; a++) {
    const start = at[a]!;
    // A cut reaching past its first word holds a value only if some value starts with that word: most starts end here.
    const head = aligned ? nextBoundary(folded, start) : text.length;
    const known = !aligned || index.heads.has(folded.slice(start, head));
    for (let b = a + 1; b < at.length; b++) {
      const end = at[b]!;
      if (end - start > MAX_VALUE || (end > head && !known)) break;
      const held = index.values.get(aligned ? folded.slice(start, end) : fold(text.slice(start, end)));
      if (!held || held.length > MAX_HOLDERS) continue;
      for (const h of held) if (h.item !== self) out.push({ start, end, held: h });
    }
  }
  return out;
}

/** A template with `{value}` at [start, end) of `text`; undefined when the literal part looks like a placeholder. */
function templateOf(text: string, start: number, end: number): string | undefined {
  const before = text.slice(0, start);
  const after = text.slice(end);
  if (PLACEHOLDER_LIKE.test(before) || PLACEHOLDER_LIKE.test(after)) return undefined;
  return `${before}${VALUE_PLACEHOLDER}${after}`;
}

/** Whether [at, at+length) of a template stands at boundaries (a placeholder's braces count as one). */
function atBoundary(template: string, at: number, length: number): boolean {
  const left = at === 0 || !WORD.test(template[at - 1]!) || template[at - 1] === '}';
  const right = at + length === template.length || !WORD.test(template[at + length]!) || template[at + length] === '{';
  return left && right;
}

/** `template` with the first boundary occurrence of `text` in its literal parts replaced by `{name}`, or undefined. */
function substitute(template: string, text: string, name: string): string | undefined {
  let from = 0;
  for (;;) {
    const at = template.indexOf(text, from);
    if (at < 0) return undefined;
    const inside = template.lastIndexOf('{', at) > template.lastIndexOf('}', at);
    if (!inside && atBoundary(template, at, text.length)) return `${template.slice(0, at)}{${name}}${template.slice(at + text.length)}`;
    from = at + 1;
  }
}

interface Reading {
  readonly hash: string;
  readonly range: string | undefined;
  readonly scope: Readonly<Record<string, string>>;
}

/**
 * The readings with the holder's other attributes (a tenant) as scope placeholders: each attribute
 * whose value stands in a literal part gives a variant; at most two scope parts, eight variants.
 */
function scopedVariants(base: Reading, holder: Item, attribute: string, keys: KeySchema): Reading[] {
  const out: Reading[] = [base];
  for (const other in holder) {
    if (other === attribute || other === keys.hash.name || other === keys.range?.name) continue;
    if (!NAME.test(other) || other === 'value' || isReservedPlaceholder(other)) continue;
    const text = heldText(holder, other);
    if (text === undefined) continue;
    for (const r of [...out]) {
      if (out.length >= 8 || Object.keys(r.scope).length >= 2) break;
      const hash = substitute(r.hash, text, other);
      const range = r.range === undefined ? undefined : substitute(r.range, text, other);
      if (hash === undefined && range === undefined) continue;
      out.push({ hash: hash ?? r.hash, range: range ?? r.range, scope: { ...r.scope, [other]: other } });
    }
  }
  return out;
}

/** Candidate readings of one item as a lock of each attribute whose value its keys embed. */
function readingsOf(item: Item, keys: KeySchema, index: ValueIndex): { held: Held; written: string; reading: Reading }[] {
  const hash = item[keys.hash.name]?.S;
  if (hash === undefined) return [];
  const range = keys.range ? item[keys.range.name]?.S : undefined;
  if (keys.range && range === undefined) return [];
  const hashCuts = cutsOf(hash, item, index);
  const rangeCuts = range === undefined ? [] : cutsOf(range, item, index);
  const out: { held: Held; written: string; reading: Reading }[] = [];
  // Cuts per holder and attribute: the same value may stand in the hash, the range, or both.
  const pairs = new Map<Item, Map<string, { held: Held; hash: Cut[]; range: Cut[] }>>();
  for (const [list, side] of [
    [hashCuts, 'hash'],
    [rangeCuts, 'range'],
  ] as const) {
    for (const cut of list) {
      let byAttribute = pairs.get(cut.held.item);
      if (!byAttribute) pairs.set(cut.held.item, (byAttribute = new Map()));
      let entry = byAttribute.get(cut.held.attribute);
      if (!entry) byAttribute.set(cut.held.attribute, (entry = { held: cut.held, hash: [], range: [] }));
      entry[side].push(cut);
    }
  }
  for (const { held, hash: hc, range: rc } of [...pairs.values()].flatMap((m) => [...m.values()])) {
    const hashOptions: { template: string; written?: string }[] = [{ template: hash }];
    for (const c of hc) {
      const t = templateOf(hash, c.start, c.end);
      if (t !== undefined) hashOptions.push({ template: t, written: hash.slice(c.start, c.end) });
    }
    const rangeOptions: { template: string | undefined; written?: string }[] = [{ template: range }];
    for (const c of rc) {
      const t = range === undefined ? undefined : templateOf(range, c.start, c.end);
      if (t !== undefined) rangeOptions.push({ template: t, written: range?.slice(c.start, c.end) ?? '' });
    }
    for (const h of hashOptions) {
      for (const r of rangeOptions) {
        const written = h.written ?? r.written;
        // The value must stand somewhere, and where it stands twice both copies must be the same text.
        if (written === undefined || (h.written !== undefined && r.written !== undefined && h.written !== r.written)) continue;
        for (const reading of scopedVariants({ hash: h.template, range: r.template, scope: {} }, held.item, held.attribute, keys))
          out.push({ held, written, reading });
      }
    }
  }
  return out;
}

/** Groups every candidate reading of every sampled item by (attribute, templates, scope). */
export function findLayoutGroups(keys: KeySchema, sample: readonly Item[]): LayoutGroup[] {
  const index = indexValues(keys, sample);
  const groups = new Map<string, LayoutGroup>();
  for (const item of sample) {
    for (const { held, written, reading } of readingsOf(item, keys, index)) {
      // U+0000 cannot stand in an attribute name or a template read from a key by accident.
      let id = `${held.attribute}\u0000${reading.hash}\u0000${reading.range ?? '\u0001'}`;
      for (const name in reading.scope) id += `\u0000${name}`;
      let group = groups.get(id);
      if (!group)
        groups.set(
          id,
          (group = { attribute: held.attribute, hash: reading.hash, range: reading.range, scope: reading.scope, members: new Map() }),
        );
      if (!group.members.has(item)) group.members.set(item, { written, holder: held.item });
    }
  }
  return [...groups.values()];
}
