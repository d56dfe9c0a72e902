/**
 * Auto-detection of a table's convention from a bounded sample of items: find the lock
 * keys of each preset's shape, pair every lock tag with an account attribute by value
 * overlap, find an owner attribute, and say why in evidence lines.
 */
import type { Convention, Item, KeySchema, PresetName } from '../model';
import { PRESET_NAMES } from '../model';
import { err, ok, type Result } from '../result';
import { chooseNormalization } from './detect-normalize';
import { attributeValues, fmt, overlap, pairTag } from './detect-overlap';
import { ONETABLE_LEGACY_PREFIX, ONETABLE_PREFIX, presetConvention, UNIQ_PREFIX, type PresetOptions, type PresetRuleSpec } from './presets';
import { findLocks, findLocksForced } from './detect-shapes';
import type { LockObservation, LockScan } from './detect-scan';
import { detectOwner } from './detect-owner';
import { learnLayout } from './detect-layout';
import { learnedWins } from './detect-compare';
import { accountTags, addDocumentedRules, compositeLocks, groupByTag, numberTyped, pairEach, scopeOf, tagLockRange } from './detect-tags';

/** A proposed convention with the reasons for it. */
export interface Detection {
  readonly convention: Convention;
  /** Human-readable evidence, one finding per line. */
  readonly evidence: readonly string[];
  /** 0..1: share of lock-looking keys covered by rules × share of rules paired by value overlap (half for a rule whose normalization is in doubt). */
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
  electrodb: '$<service>#value_… / $<constraint>_<v>#name_<name>#entity_<entity>',
};

interface Candidate {
  readonly detection: Detection;
  readonly covered: number;
}

/** Proposes a convention for a table from `sample` (e.g. the first pages of a scan). */
export function detectConvention(keys: KeySchema, sample: readonly Item[], options: DetectOptions = {}): Result<Detection> {
  if (keys.hash.type !== 'S') {
    return err(
      'validation',
      `the hash key ${keys.hash.name} is of type ${keys.hash.type}: lock items need a string (S) hash key, so no lock convention can be detected`,
    );
  }
  if (keys.range && keys.range.type !== 'S') {
    // Lock sort keys are literals such as `LOCK`; a numeric or binary sort key cannot hold one (file.ts refuses it too).
    return err(
      'validation',
      `the sort key ${keys.range.name} is of type ${keys.range.type}: lock items need string (S) keys, so no lock convention can be detected`,
    );
  }
  if (sample.length === 0)
    return err('validation', 'the table is empty: nothing to detect a convention from; pass --preset or a convention file');
  const presets = options.preset ? [options.preset] : applicablePresets(keys);
  const candidates: Candidate[] = [];
  const misses: string[] = [];
  for (const preset of presets) {
    const scan = options.preset ? findLocksForced(preset, keys, sample) : findLocks(preset, keys, sample);
    if (scan.locks.length === 0) {
      misses.push(`no sampled key looks like \`${SHAPES[preset]}\``);
      continue;
    }
    const candidate = build(preset, keys, sample, scan, options.preset !== undefined);
    if (typeof candidate === 'string') misses.push(candidate);
    else candidates.push(candidate);
  }
  candidates.sort((a, b) => b.covered - a.covered || b.detection.confidence - a.detection.confidence);
  let best = candidates[0];
  if (!options.preset) {
    // The layout learned from the data competes with the presets; a preset keeps a tie (its name says more).
    const learned = learnLayout(keys, sample);
    if (typeof learned === 'string') misses.push(`learned from the data: ${learned}`);
    else if (
      !best ||
      learnedWins(
        keys,
        learned,
        { convention: best.detection.convention, confidence: best.detection.confidence, covered: best.covered },
        sample,
      )
    ) {
      best = {
        detection: { convention: learned.convention, evidence: learned.evidence, confidence: learned.confidence },
        covered: learned.covered,
      };
    }
  }
  if (!best) {
    return err(
      'validation',
      `no lock convention fits ${fmt(sample.length)} sampled items of this table: ${misses.join('; ')}. Pass --preset ${PRESET_NAMES.join('|')} or a convention file.`,
    );
  }
  return ok(best.detection);
}

function applicablePresets(keys: KeySchema): PresetName[] {
  return keys.range ? ['uniq', 'electrodb', 'onetable', 'marker', 'aws-blog'] : ['marker', 'aws-blog', 'uniq', 'onetable'];
}

function build(preset: PresetName, keys: KeySchema, sample: readonly Item[], fullScan: LockScan, forced: boolean): Candidate | string {
  const skip = new Set([
    keys.hash.name,
    ...(keys.range ? [keys.range.name] : []),
    ...(fullScan.typeAttribute ? [fullScan.typeAttribute] : []),
  ]);
  const notAccounts = new Set([...fullScan.locks.map((l) => l.item), ...fullScan.ignored]);
  const candidates = sample.filter((item) => !notAccounts.has(item));
  const candidateValues = attributeValues(candidates, skip);
  const fullByTag = groupByTag(fullScan.locks);
  const fullPairings = pairEach(fullScan, fullByTag, candidateValues);
  const thin = accountTags(fullScan, fullByTag, fullPairings, candidates, skip);
  const scan: LockScan = thin.size === 0 ? fullScan : { ...fullScan, locks: fullScan.locks.filter((l) => !thin.has(l.tag)) };
  const lockItems = new Set(scan.locks.map((l) => l.item));
  // Without thin accounts the account candidates are the candidates above, in the same order: their values are read once.
  const accountCandidates = thin.size === 0 ? candidates : sample.filter((item) => !lockItems.has(item) && !scan.ignored.has(item));
  const attributes = thin.size === 0 ? candidateValues : attributeValues(accountCandidates, skip);
  const byTag = thin.size === 0 ? fullByTag : groupByTag(scan.locks);
  const evidence: string[] = [
    `${fmt(scan.locks.length)} of ${fmt(sample.length)} sampled items have lock keys shaped \`${SHAPES[preset]}\`${scan.note ? ` (${scan.note})` : ''}`,
  ];
  if (thin.size > 0)
    evidence.push(`items keyed ${[...thin].map((t) => `\`${t}#…\``).join(', ')} hold protected attributes: accounts, not locks`);
  const rules: PresetRuleSpec[] = [];
  const unpaired: string[] = [];
  let covered = 0;
  // Rules paired by value, each weighing 1, or ½ when its normalization is in doubt.
  let pairedByValue = 0;
  const pairedLocks: LockObservation[] = [];
  for (const [tag, tagLocks] of [...byTag].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let locks = tagLocks;
    // Without thin accounts, each tag's locks and the attribute values are those already paired above.
    let pairing =
      thin.size === 0
        ? fullPairings.get(tag)
        : pairTag(
            scan.tagName(tag),
            locks.map((l) => l.value),
            attributes,
          );
    const name = scan.ruleName(tag);
    // A composite key (`UNIQ#EMAIL#<tenant>#<value>`): the values pair once the part before the first `#` is read as a scope.
    const composite = (!pairing || pairing.byName) && preset === 'uniq' ? compositeLocks(locks) : undefined;
    if (composite) {
      const split = pairTag(
        scan.tagName(tag),
        composite.map((l) => l.value),
        attributes,
      );
      if (split && !split.byName) {
        locks = composite;
        pairing = split;
      }
    }
    if (!pairing) {
      unpaired.push(tag);
      evidence.push(
        `lock tag ${name}: ${fmt(locks.length)} sampled locks, no attribute holds their values — they will be reported as malformed-lock`,
      );
      continue;
    }
    covered += locks.length;
    pairedLocks.push(...locks);
    const lockValues = locks.map((l) => l.value);
    // Overlap picks the attribute; the steps are the library's, else from evidence, else the preset's documented default.
    const inferred = chooseNormalization(preset, scan.tagName(tag), pairing.attribute, lockValues, attributes.get(pairing.attribute) ?? []);
    const norm = inferred.steps.length ? ` (normalized: ${inferred.steps.join(', ')})` : '';
    const why = inferred.reasons.length ? ` — ${inferred.reasons.join('; ')}` : '';
    if (pairing.byName)
      evidence.push(
        `rule ${name} ↔ attribute \`${pairing.attribute}\`${norm}: no values in common in the sample; paired by name only${why}`,
      );
    else {
      pairedByValue += inferred.doubtful ? 0.5 : 1;
      const common = overlap(lockValues, attributes.get(pairing.attribute) ?? [], inferred.steps);
      evidence.push(
        `rule ${name} ↔ attribute \`${pairing.attribute}\`${norm}: ${fmt(common)} values in common (${fmt(locks.length)} sampled locks)${why}`,
      );
    }
    const scope = scopeOf(locks, pairing.attribute, inferred.steps, accountCandidates, skip, name, evidence);
    const numeric = numberTyped(accountCandidates, pairing.attribute);
    if (numeric) evidence.push(`rule ${name}: sampled accounts store \`${pairing.attribute}\` as a number (N): values compare as numbers`);
    rules.push({
      attribute: pairing.attribute,
      tag: scan.tagName(tag),
      normalize: inferred.steps,
      ...(scope ? { scope } : {}),
      ...(numeric ? { valueType: 'N' as const } : {}),
    });
  }
  if (forced) addDocumentedRules(preset, rules, attributes, evidence);
  if (rules.length === 0)
    return `${fmt(fullScan.locks.length)} keys look like \`${SHAPES[preset]}\` but none of their values appear on other items`;
  // uniq and onetable locks have their own sort key; tag-shaped ones take the one they share.
  let lockRange: Partial<PresetOptions> = {};
  if (keys.range && (preset === 'marker' || preset === 'aws-blog')) {
    const found = tagLockRange(keys, pairedLocks);
    if (typeof found === 'string') return `${fmt(pairedLocks.length)} keys look like \`${SHAPES[preset]}\` but ${found}`;
    lockRange = { lockRange: found.range };
    evidence.push(`lock sort key \`${found.range}\` on ${fmt(found.count)} of ${fmt(pairedLocks.length)} sampled locks`);
  }
  const options: PresetOptions = {
    rules,
    ...scan.presetOptions(
      accountCandidates,
      rules.map((r) => r.attribute),
      evidence,
    ),
    ...lockRange,
    extraLockPrefixes: scan.extraPrefixes(unpaired),
  };
  const owner = detectOwner(
    keys,
    scan.locks.map((l) => l.item),
    accountCandidates,
    skip,
  );
  if (owner) evidence.push(owner.evidence);
  const convention = presetConvention(preset, keys, owner ? { ...options, ownerAttribute: owner.attribute } : options);
  const confidence = Math.round((covered / scan.locks.length) * (pairedByValue / rules.length) * 100) / 100;
  return { detection: { convention, evidence, confidence }, covered };
}
