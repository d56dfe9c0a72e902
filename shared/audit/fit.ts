/**
 * How well a convention explains a table, per rule, and the warnings of the write interlock: a rule
 * the table contradicts (its locks are written in another layout than the convention says) must not
 * be repaired by machine, or a repair writes hundreds of locks at keys nothing ever checks.
 *
 * The measure is a pure function of what every audit reports (problems, and per rule the number of
 * distinct values accounts hold) plus a bounded sample of the key texts of items that are neither
 * accounts nor readable locks (see KeySample), so the live audit and the export audit compute it alike.
 */
import { ruleNormalizer } from '../conventions/parse';
import type { Convention, Problem } from '../model';

/** The fit of one rule: where its held values' locks are, and what else the table says about them. */
export interface RuleFit {
  readonly rule: string;
  /** Distinct values accounts hold under the rule. */
  readonly held: number;
  /** Held values whose lock is where the convention says. */
  readonly healthy: number;
  /** Held values with no lock where the convention says (the rule's missing-lock problems). */
  readonly missing: number;
  /** Lock-shaped items the convention attributes to the rule but cannot read (e.g. a wrong sort key). */
  readonly malformed: number;
  /** Missing values found inside the key of an item of another layout (a malformed or unrecognised item). */
  readonly embedded: number;
  /** Lock-shaped items of the whole table that match no rule (the same figure for every rule). */
  readonly unmatched: number;
}

/** Why a rule is warned about. */
export type ConventionWarningKind =
  /** Many of the rule's missing values stand in the keys of other items: the locks exist, in another layout. */
  | 'values-elsewhere'
  /** The rule's own lock-shaped items cannot be read and most held values read as unprotected. */
  | 'locks-misread';

/** A rule the table contradicts: the JSON report's `warnings[]` entry. */
export interface ConventionWarning {
  readonly rule: string;
  readonly kind: ConventionWarningKind;
  readonly counts: RuleFit;
  /** One sentence for people: what was measured and what it means for writes. */
  readonly message: string;
}

/**
 * Below this many unexplained values (missing, malformed, embedded) a rule never warns: a handful is
 * ordinary drift, which is what repair is for. At this many the same misreading repeats and is a pattern.
 */
export const MIN_EVIDENCE = 5;
/**
 * values-elsewhere: at least MIN_EVIDENCE missing values are found embedded in other items' keys, and
 * they are at least this share of the rule's held values. A table whose other items embed a few
 * values (an audit-log item `LOG#{email}#…` beside nine planted missing locks) stays far below it;
 * a convention off by one character finds nearly every held value elsewhere.
 */
export const EMBEDDED_SHARE = 0.25;
/**
 * locks-misread: at least MIN_EVIDENCE malformed locks of the rule, and malformed + missing at least
 * this many times the healthy values ("the convention explains a third or less of what it touches").
 */
export const MISREAD_RATIO = 2;

/** Key texts kept for the embedding test; beyond that the first ones stand for the rest (a scan's order is the hash order, unrelated to layouts). */
export const KEY_SAMPLE_LIMIT = 20_000;
/** Characters of a key text kept (DynamoDB keys reach 2 KB; a value inside a longer key is not looked for). */
const KEY_TEXT_MAX = 1024;
/** Boundaries used per key text: substrings between any two of them are looked up, so the cost is quadratic in this. */
const MAX_BOUNDARIES = 24;

/**
 * A bounded sample of key texts from items that are neither accounts nor locks (and from malformed
 * locks): at most KEY_SAMPLE_LIMIT texts of at most 1 KB each, about 20 MB at worst, whatever the
 * table's size. `seen` counts every text offered, so a report can say how much was sampled.
 */
export class KeySample {
  private readonly kept: string[] = [];
  seen = 0;

  /** Offers one key (hash text, and range text on a composite table). */
  add(hash: string, range?: string): void {
    this.seen++;
    if (this.kept.length >= KEY_SAMPLE_LIMIT) return;
    this.kept.push(hash.length > KEY_TEXT_MAX ? hash.slice(0, KEY_TEXT_MAX) : hash);
    if (range !== undefined && range !== '') this.kept.push(range.length > KEY_TEXT_MAX ? range.slice(0, KEY_TEXT_MAX) : range);
  }

  /** The texts kept. */
  texts(): readonly string[] {
    return this.kept;
  }
}

/** A character that separates parts of a key: anything but a letter or a digit. */
const isBoundary = (ch: string): boolean => !/[\p{L}\p{N}]/u.test(ch);

/**
 * Every substring of `text` that starts at its beginning or right after a separator and ends at its
 * end or right before one: where a value can stand in a key of any layout (`UNIQ#EMAI#ada@x.io` gives
 * `ada@x.io`, `EMAI#ada@x.io`, `ada`, …). Values with separators inside (emails) are found whole.
 */
export function boundarySubstrings(text: string): string[] {
  const starts = [0];
  const ends: number[] = [];
  for (let i = 0; i < text.length && starts.length < MAX_BOUNDARIES; i++) {
    if (isBoundary(text[i]!)) {
      ends.push(i);
      starts.push(i + 1);
    }
  }
  ends.push(text.length);
  const out: string[] = [];
  for (const s of starts) for (const e of ends) if (e > s) out.push(text.slice(s, e));
  return out;
}

/** What the fit is computed from: the report's problems, held values per rule, and the key sample. */
export interface FitInput {
  readonly convention: Convention;
  readonly problems: readonly Problem[];
  /** Per rule index: distinct values accounts hold. */
  readonly held: readonly number[];
  /** Key texts of items that are neither accounts nor locks (bounded, see KeySample); malformed locks' keys come from `problems`. */
  readonly otherKeys: readonly string[];
}

/** Per rule, how well the convention explains the table (pure). */
export function ruleFits(input: FitInput): RuleFit[] {
  const { convention, problems } = input;
  const texts = [...input.otherKeys];
  let unmatched = 0;
  for (const p of problems) {
    if (p.kind !== 'malformed-lock') continue;
    if (p.rule === undefined) unmatched++;
    if (p.lock) for (const v of Object.values(p.lock)) if (typeof v === 'string') texts.push(v);
  }
  const pieces = new Set<string>();
  for (const t of texts) for (const piece of boundarySubstrings(t)) pieces.add(piece);
  return convention.rules.map((rule, i) => {
    const normalize = ruleNormalizer(rule);
    // The table may write the value in another case or spelling than the rule normalizes to: compare normalized.
    const found = new Set<string>();
    for (const piece of pieces) found.add(normalize(piece));
    let missing = 0;
    let embedded = 0;
    let malformed = 0;
    for (const p of problems) {
      if (p.rule !== rule.name) continue;
      if (p.kind === 'missing-lock') {
        missing++;
        if (found.has(p.value)) embedded++;
      } else if (p.kind === 'malformed-lock') malformed++;
    }
    const held = input.held[i] ?? 0;
    return { rule: rule.name, held, healthy: Math.max(0, held - missing), missing, malformed, embedded, unmatched };
  });
}

/** The warnings for rules the table contradicts (thresholds above; pure). */
export function fitWarnings(fits: readonly RuleFit[]): ConventionWarning[] {
  const out: ConventionWarning[] = [];
  for (const f of fits) {
    if (f.embedded >= MIN_EVIDENCE && f.embedded >= EMBEDDED_SHARE * f.held) {
      out.push({
        rule: f.rule,
        kind: 'values-elsewhere',
        counts: f,
        message: `the convention does not explain this table for rule ${f.rule}: ${f.embedded} of its ${f.missing} missing values (of ${f.held} held) stand in keys of another layout${f.unmatched > 0 ? ` (${f.unmatched} lock-shaped items match no rule)` : ''}, so its locks are probably written in a form the convention does not describe; review the convention before writing`,
      });
    } else if (f.malformed >= MIN_EVIDENCE && f.malformed + f.missing >= MISREAD_RATIO * f.healthy) {
      out.push({
        rule: f.rule,
        kind: 'locks-misread',
        counts: f,
        message: `the convention does not explain this table for rule ${f.rule}: ${f.malformed} of its lock items cannot be read and ${f.missing} of ${f.held} held values read as unprotected, against ${f.healthy} found where the convention says; review the convention before writing`,
      });
    }
  }
  return out;
}

/** The names of the rules a report warns about. */
export function warnedRules(warnings: readonly ConventionWarning[] | undefined): ReadonlySet<string> {
  return new Set((warnings ?? []).map((w) => w.rule));
}
