/**
 * A generator of lock layouts (fast-check), the judge of detection and the audit: prefixes and
 * separators, the value in the partition key, the sort key or both, hash-only and composite tables,
 * literal suffixes, entity attributes, scope parts, case folding or not, Unicode and numbers. A
 * layout is described in the generator's own terms and written by its own reference writer
 * (reference-writer.ts), never through the engine it judges. Test support only.
 */
import fc from 'fast-check';
import type { KeySchema, NormalizationStep } from '../model';

/** What kind of values a generated rule protects. */
export type GenValueKind = 'email' | 'handle' | 'number' | 'unicode';

/** One protected attribute of a generated layout. */
export interface GenRule {
  readonly attribute: string;
  readonly kind: GenValueKind;
  /** The library lower-cases the value in the key. */
  readonly fold: boolean;
  /** The library writes the NFC form of the value (accounts may store it decomposed). */
  readonly nfc: boolean;
  /** Key templates in the model's terms: `{value}` and `{<scope attribute>}`. */
  readonly hash: string;
  readonly range?: string;
  /** The account attribute the value is unique within (its placeholder is `{<attribute>}`). */
  readonly scope?: string;
}

/** How accounts look. */
export type GenAccounts =
  | { readonly kind: 'entity'; readonly attribute: string; readonly value: string; readonly keyWord: string }
  | { readonly kind: 'prefix'; readonly prefix: string; readonly range?: string }
  | { readonly kind: 'bare' };

/** A generated layout: a table's keys, its accounts and its rules. */
export interface GenLayout {
  readonly keys: KeySchema;
  readonly accounts: GenAccounts;
  readonly rules: readonly GenRule[];
  /** What else a lock carries: its holder's key (an owner pointer) or the value as the holder stores it. */
  readonly lockCarries: 'key-only' | 'owner' | 'raw';
  /** A constant attribute the library writes on every lock (`__typename = Unique`). */
  readonly lockTag?: { readonly attribute: string; readonly value: string };
  /** Accounts carry their own `id` (in their key too) and own child items keyed under it (orders): parents, not locks. */
  readonly children: boolean;
  /** Accounts in the table and planted drift per rule. */
  readonly size: number;
  readonly drift: { readonly orphans: number; readonly missing: number; readonly duplicates: number; readonly malformed: number };
}

/** The steps a rule's values go through before the key (canonical order, as the model lists them). */
export function genSteps(rule: GenRule): NormalizationStep[] {
  return [...(rule.fold ? (['lowercase'] as const) : []), ...(rule.nfc ? (['nfc'] as const) : [])];
}

const SEPARATORS = ['#', ':', '|', '.', '$', '/', '~'] as const;
const LOCK_WORDS = ['UNIQUE', 'UNIQ', 'Lock', '_u', 'constraint', 'IDX', 'marker'] as const;
const ATTRIBUTES: Readonly<Record<GenValueKind, readonly string[]>> = {
  email: ['email', 'emailAddress', 'contact_email'],
  handle: ['username', 'handle', 'nick'],
  number: ['employeeNo', 'badge', 'memberNumber'],
  unicode: ['displayName', 'name', 'alias'],
};
const ENTITY_ATTRIBUTES = ['__typename', '_et', 'entity', '_type'] as const;
const ENTITY_VALUES = ['Account', 'Member', 'Customer', 'Person'] as const;
const SCOPES = ['tenantId', 'orgId', 'realm'] as const;

const pick = <T>(list: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...list);

/** One rule's templates: the tag, separator, prefix word, placement of the value and the scope. */
function ruleArb(composite: boolean, kind: GenValueKind, index: number, scope: string | undefined): fc.Arbitrary<GenRule> {
  const placements = composite ? (['hash', 'range', 'both'] as const) : (['hash'] as const);
  return fc
    .record({
      attribute: pick(ATTRIBUTES[kind]),
      sep: pick(SEPARATORS),
      word: fc.option(pick(LOCK_WORDS), { nil: undefined }),
      upperTag: fc.boolean(),
      suffix: fc.option(pick(['LOCK', 'u', 'taken']), { nil: undefined }),
      placement: pick(placements),
      literalRange: pick(['LOCK', 'UNIQUE', '#', 'lock#v1']),
      repeatSame: fc.boolean(),
      fold: kind === 'number' ? fc.constant(false) : fc.boolean(),
      nfc: kind === 'unicode' ? fc.boolean() : fc.constant(false),
    })
    .map((r): GenRule => {
      const attribute = `${r.attribute}${index === 0 ? '' : index + 1}`;
      const tag = r.upperTag ? attribute.toUpperCase() : attribute;
      // `email#{value}` alone is the AWS reference code's layout, which writes values as given: a folding library gets a word in front.
      const word = r.word ?? (r.fold && !r.upperTag && r.sep === '#' ? 'Lock' : undefined);
      const head = `${word === undefined ? '' : `${word}${r.sep}`}${tag}${r.sep}`;
      const scoped = scope === undefined ? '' : `{${scope}}${r.sep}`;
      const tail = r.suffix === undefined ? '' : `${r.sep}${r.suffix}`;
      const valued = `${head}${scoped}{value}${tail}`;
      const base = { attribute, kind, fold: r.fold, nfc: r.nfc, ...(scope === undefined ? {} : { scope }) };
      if (!composite) return { ...base, hash: valued };
      switch (r.placement) {
        case 'hash':
          return { ...base, hash: valued, range: r.literalRange };
        case 'range':
          // The partition key is all literal (plus the scope): every lock of the rule shares one partition.
          return { ...base, hash: `${head}${scoped}`.slice(0, -r.sep.length), range: r.repeatSame ? '{value}' : `v${r.sep}{value}` };
        case 'both':
          return { ...base, hash: valued, range: r.repeatSame ? valued : `${tag}${r.sep}{value}` };
      }
    });
}

/** The arbitrary of generated layouts. */
export const layoutArb: fc.Arbitrary<GenLayout> = fc
  .record({
    composite: fc.boolean(),
    keyNames: pick([
      ['PK', 'SK'],
      ['pk', 'sk'],
      ['id', 'sort'],
      ['userId', 'kind'],
    ] as const),
    kinds: fc.uniqueArray(pick(['email', 'handle', 'number', 'unicode'] as const), { minLength: 1, maxLength: 3 }),
    scope: fc.option(pick(SCOPES), { nil: undefined }),
    scopedRule: fc.nat(2),
    accountKind: pick(['entity', 'prefix', 'bare'] as const),
    entityAttribute: pick(ENTITY_ATTRIBUTES),
    entityValue: pick(ENTITY_VALUES),
    prefix: pick(['ACCT#', 'USER|', 'acct:', 'P~']),
    lockTag: fc.boolean(),
    children: fc.boolean(),
    lockCarries: pick(['key-only', 'owner', 'raw'] as const),
    size: fc.integer({ min: 12, max: 40 }),
    drift: fc.record({ orphans: fc.nat(2), missing: fc.nat(2), duplicates: fc.nat(2), malformed: fc.nat(2) }),
  })
  .chain((c) => {
    const keys: KeySchema = c.composite
      ? { hash: { name: c.keyNames[0], type: 'S' }, range: { name: c.keyNames[1], type: 'S' } }
      : { hash: { name: c.keyNames[0], type: 'S' } };
    const scopedIndex = c.scope === undefined ? -1 : c.scopedRule % c.kinds.length;
    const rules = c.kinds.map((kind, i) => ruleArb(c.composite, kind, i, i === scopedIndex ? c.scope : undefined));
    return fc.tuple(...rules).map((list): GenLayout => {
      const accounts: GenAccounts =
        c.accountKind === 'entity'
          ? { kind: 'entity', attribute: c.entityAttribute, value: c.entityValue, keyWord: 'Person' }
          : c.accountKind === 'prefix'
            ? { kind: 'prefix', prefix: c.prefix, ...(c.composite ? { range: 'PROFILE' } : {}) }
            : { kind: 'bare' };
      const lockTag = c.lockTag ? { attribute: c.accountKind === 'entity' ? c.entityAttribute : '__typename', value: 'Unique' } : undefined;
      return {
        keys,
        accounts,
        rules: list,
        children: c.children,
        lockCarries: c.lockCarries,
        size: c.size,
        drift: c.drift,
        ...(lockTag ? { lockTag } : {}),
      };
    });
  });
