/**
 * Auto-detection of a table's convention from a bounded sample of items: find the lock
 * keys of each preset's shape, pair every lock tag with an account attribute by value
 * overlap, find an owner attribute, and say why in evidence lines.
 */
import type { Convention, Item, KeySchema, PresetName } from '../model';
import { PRESET_NAMES } from '../model';
import { err, ok, type Result } from '../result';
import { scalarText } from './classify';
import { attributeValues, fmt, pairTag } from './detect-overlap';
import { ONETABLE_LEGACY_PREFIX, ONETABLE_PREFIX, presetConvention, UNIQ_PREFIX, type PresetOptions, type PresetRuleSpec } from './presets';
import { findLocks, findLocksForced, type LockObservation, type LockScan } from './detect-shapes';

/** A proposed convention with the reasons for it. */
export interface Detection {
  readonly convention: Convention;
  /** Human-readable evidence, one finding per line. */
  readonly evidence: readonly string[];
  /** 0..1: share of lock-looking keys covered by rules × share of rules paired by value overlap. */
  readonly confidence: number;
}

/** Detection options: force a preset's structure (rules are still detected from the sample). */
export interface DetectOptions {
  readonly preset?: PresetName;
}

const SHAPES: Readonly<Record<PresetName, string>> = {
  uniq: `${UNIQ_PREFIX}<RULE>#…`,
  marker: '<RULE>#…',
  onetable: `${ONETABLE_PREFIX}<Model>#<attr>#… / ${ONETABLE_LEGACY_PREFIX}<Model>:<attr>:…`,
  'aws-blog': '<attr>#…',
};

interface Candidate {
  readonly detection: Detection;
  readonly covered: number;
}

/** Proposes a convention for a table from `sample` (e.g. the first pages of a scan). */
export function detectConvention(keys: KeySchema, sample: readonly Item[], options: DetectOptions = {}): Result<Detection> {
  if (keys.hash.type !== 'S') {
    return err('validation', `the hash key ${keys.hash.name} is of type ${keys.hash.type}: lock items need a string (S) hash key, so no lock convention can be detected`);
  }
  if (sample.length === 0) return err('validation', 'the table is empty: nothing to detect a convention from; pass --preset or a convention file');
  const presets = options.preset ? [options.preset] : applicablePresets(keys);
  const candidates: Candidate[] = [];
  const misses: string[] = [];
  for (const preset of presets) {
    const scan = options.preset ? findLocksForced(preset, keys, sample) : findLocks(preset, keys, sample);
    if (scan.locks.length === 0) {
      misses.push(`no sampled key looks like \`${SHAPES[preset]}\``);
      continue;
    }
    const candidate = build(preset, keys, sample, scan);
    if (candidate) candidates.push(candidate);
    else misses.push(`${fmt(scan.locks.length)} keys look like \`${SHAPES[preset]}\` but none of their values appear on other items`);
  }
  candidates.sort((a, b) => b.covered - a.covered || b.detection.confidence - a.detection.confidence);
  const best = candidates[0];
  if (!best) {
    return err('validation', `no lock convention fits ${fmt(sample.length)} sampled items of this table: ${misses.join('; ')}. Pass --preset ${PRESET_NAMES.join('|')} or a convention file.`);
  }
  return ok(best.detection);
}

function applicablePresets(keys: KeySchema): PresetName[] {
  return keys.range ? ['uniq', 'onetable', 'marker', 'aws-blog'] : ['marker', 'aws-blog', 'uniq', 'onetable'];
}

function build(preset: PresetName, keys: KeySchema, sample: readonly Item[], scan: LockScan): Candidate | undefined {
  const lockItems = new Set(scan.locks.map((l) => l.item));
  const accountCandidates = sample.filter((item) => !lockItems.has(item) && !scan.ignored.has(item));
  const skip = new Set([keys.hash.name, ...(keys.range ? [keys.range.name] : []), ...(scan.typeAttribute ? [scan.typeAttribute] : [])]);
  const attributes = attributeValues(accountCandidates, skip);
  const byTag = new Map<string, LockObservation[]>();
  for (const lock of scan.locks) {
    let list = byTag.get(lock.tag);
    if (!list) byTag.set(lock.tag, (list = []));
    list.push(lock);
  }
  const evidence: string[] = [`${fmt(scan.locks.length)} of ${fmt(sample.length)} sampled items have lock keys shaped \`${SHAPES[preset]}\`${scan.note ? ` (${scan.note})` : ''}`];
  const rules: PresetRuleSpec[] = [];
  const unpaired: string[] = [];
  let covered = 0;
  let pairedByValue = 0;
  for (const [tag, locks] of [...byTag].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const pairing = pairTag(scan.tagName(tag), locks.map((l) => l.value), attributes);
    const name = scan.ruleName(tag);
    if (!pairing) {
      unpaired.push(tag);
      evidence.push(`lock tag ${name}: ${fmt(locks.length)} sampled locks, no attribute holds their values — they will be reported as malformed-lock`);
      continue;
    }
    covered += locks.length;
    const norm = pairing.normalize.length ? ` (normalized: ${pairing.normalize.join(', ')})` : '';
    if (pairing.byName) evidence.push(`rule ${name} ↔ attribute \`${pairing.attribute}\`: no values in common in the sample; paired by name only`);
    else {
      pairedByValue++;
      evidence.push(`rule ${name} ↔ attribute \`${pairing.attribute}\`${norm}: ${fmt(pairing.common)} values in common (${fmt(locks.length)} sampled locks)`);
    }
    rules.push({ attribute: pairing.attribute, tag: scan.tagName(tag), normalize: pairing.normalize });
  }
  if (rules.length === 0) return undefined;
  const options: PresetOptions = { rules, ...scan.presetOptions(accountCandidates, rules.map((r) => r.attribute), evidence), extraLockPrefixes: scan.extraPrefixes(unpaired) };
  const owner = detectOwner(keys, scan.locks, accountCandidates, skip);
  if (owner) evidence.push(owner.evidence);
  const convention = presetConvention(preset, keys, owner ? { ...options, ownerAttribute: owner.attribute } : options);
  const confidence = Math.round((covered / scan.locks.length) * (pairedByValue / rules.length) * 100) / 100;
  return { detection: { convention, evidence, confidence }, covered };
}

/** An attribute on lock items whose values are the hash keys of sampled accounts. */
function detectOwner(keys: KeySchema, locks: readonly LockObservation[], accounts: readonly Item[], skip: ReadonlySet<string>): { attribute: string; evidence: string } | undefined {
  const accountHashes = new Set<string>();
  for (const a of accounts) {
    const h = scalarText(a[keys.hash.name]);
    if (h !== undefined) accountHashes.add(h);
  }
  const tally = new Map<string, { present: number; named: number }>();
  for (const lock of locks) {
    for (const name in lock.item) {
      if (skip.has(name)) continue;
      const text = scalarText(lock.item[name]);
      if (text === undefined) continue;
      const t = tally.get(name) ?? { present: 0, named: 0 };
      t.present++;
      if (accountHashes.has(text)) t.named++;
      tally.set(name, t);
    }
  }
  let best: { attribute: string; present: number; named: number } | undefined;
  for (const [attribute, t] of tally) {
    // Half the locks carrying it must name a sampled account (the sample may miss the rest).
    if (t.named === 0 || t.named * 2 < t.present) continue;
    if (!best || t.named > best.named) best = { attribute, ...t };
  }
  if (!best) return undefined;
  return { attribute: best.attribute, evidence: `owner attribute \`${best.attribute}\`: ${fmt(best.named)} of ${fmt(best.present)} sampled locks carrying it name a sampled account's ${keys.hash.name}` };
}
