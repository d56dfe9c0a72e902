import { describe, expect, it } from 'vitest';
import type { Item, NormalizationStep, PresetName } from '../model';
import { detectConvention } from './detect';
import { chooseNormalization, inferNormalization, presetDefaultNormalization } from './detect-normalize';
import { PRESET_KEYS } from './presets';
import { layoutFor } from './test-layouts';

const NFD = (s: string): string => s.normalize('NFD');

describe('inferNormalization', () => {
  it.each<[string, string[], string[], readonly NormalizationStep[], NormalizationStep[]]>([
    ['no evidence: the preset default stands', ['ada', 'bob'], ['ada', 'bob'], ['trim', 'lowercase'], ['trim', 'lowercase']],
    ['no evidence and no default: none', ['ada', 'bob'], ['ada', 'bob'], [], []],
    ['locks lower-case, accounts mixed, pairs match → lowercase', ['ada@x.io', 'bob@x.io'], ['Ada@X.io', 'bob@x.io'], [], ['lowercase']],
    ['locks lower-case, mixed-case accounts unmatched → lowercase', ['bob@x.io'], ['Ada@X.io', 'bob@x.io'], [], ['lowercase']],
    ['a lock keeps upper case → no lowercase, even against the default', ['Ada', 'bob'], ['Ada', 'bob'], ['trim', 'lowercase'], ['trim']],
    ['a mixed-case account with a verbatim lock → no lowercase', ['Ada', 'bob'], ['Ada', 'bob'], ['lowercase'], []],
    ['decomposed account, composed lock → nfc', ['José'], [NFD('José')], [], ['nfc']],
    ['decomposed lock → no nfc, even against the default', [NFD('José')], [NFD('José')], ['nfc'], []],
    ['account with spaces, trimmed lock → trim', ['ada'], [' ada '], [], ['trim']],
    ['a lock with surrounding spaces → no trim', [' ada '], [' ada '], ['trim'], []],
    ['trim and lowercase together', ['ada'], ['  Ada'], [], ['trim', 'lowercase']],
    ['junk lock values are no evidence', ['undefined', 'null', '', 'ada'], ['ada'], ['lowercase'], ['lowercase']],
  ])('%s', (_label, locks, accounts, defaults, expected) => {
    expect(inferNormalization(locks, accounts, defaults).steps).toEqual(expected);
  });

  it('marks a step kept only because the locks are in its form as unproven, and a step a lock proves as proven', () => {
    const weak = inferNormalization(['bob@x.io'], ['Ada@X.io', 'bob@x.io'], []);
    expect([weak.steps, weak.unproven, weak.provenFor]).toEqual([['lowercase'], ['lowercase'], []]);
    expect(weak.reasons.join('; ')).toMatch(/lowercase: unproven \(confidence lowered\)/);
    const proven = inferNormalization(['ada@x.io', 'bob@x.io'], ['Ada@X.io', 'bob@x.io'], []);
    expect([proven.steps, proven.unproven, proven.provenFor]).toEqual([['lowercase'], [], ['lowercase']]);
  });

  it('says why each step was chosen', () => {
    const { reasons } = inferNormalization(['ada@x.io'], ['Ada@X.io'], ['trim', 'lowercase']);
    expect(reasons.join('; ')).toMatch(/lowercase: .*lower-case/);
    expect(reasons.join('; ')).toMatch(/trim: preset default/);
  });
});

describe('presetDefaultNormalization', () => {
  it.each<[PresetName, string, string, NormalizationStep[]]>([
    ['uniq', 'EMAIL', 'email', ['trim', 'lowercase']],
    ['uniq', 'HANDLE', 'username', ['trim', 'lowercase']],
    ['uniq', 'HANDLE', 'handle', ['trim', 'lowercase']],
    ['uniq', 'PHONE', 'phone', []],
    ['marker', 'NAME', 'name', ['nfc']],
    ['aws-blog', 'email', 'email', []],
    ['aws-blog', 'userName', 'userName', []],
    ['onetable', 'email', 'email', []],
  ])('%s %s ↔ %s → %j', (preset, tag, attribute, expected) => {
    expect(presetDefaultNormalization(preset, tag, attribute)).toEqual(expected);
  });
});

describe('chooseNormalization', () => {
  it.each<[PresetName, string[], string[], NormalizationStep[], boolean]>([
    // The libraries' own steps, whatever the sample suggests: lower-case locks and one mixed-case account without a lock.
    ['onetable', ['ada@x.io', 'bob@x.io'], ['ada@x.io', 'bob@x.io', 'Dan@X.io'], [], false],
    ['aws-blog', ['ada@x.io', 'bob@x.io'], ['ada@x.io', 'bob@x.io', 'Dan@X.io'], [], false],
    ['electrodb', ['ada@x.io', 'bob@x.io'], ['Ada@X.io', 'bob@x.io'], ['lowercase'], false],
    // A sample that contradicts the library keeps the library's steps, in doubt.
    ['onetable', ['ada@x.io'], ['Ada@X.io'], [], true],
    ['electrodb', ['Ada@X.io'], ['Ada@X.io'], ['lowercase'], true],
    ['onetable', ['ada'], [' ada'], [], true],
    // uniq infers: proven by a lock, or unproven (in doubt).
    ['uniq', ['ada@x.io'], ['Ada@X.io'], ['lowercase'], false],
    ['uniq', ['ada@x.io'], ['ada@x.io', 'Dan@X.io'], ['lowercase'], true],
  ])('%s locks %j, accounts %j → %j, doubtful %s', (preset, locks, accounts, steps, doubtful) => {
    const chosen = chooseNormalization(
      preset,
      preset === 'uniq' ? 'PHONE' : 'email',
      preset === 'uniq' ? 'phone' : 'email',
      locks,
      accounts,
    );
    expect([chosen.steps, chosen.doubtful]).toEqual([steps, doubtful]);
  });

  it('names the library and, when the sample disagrees, what it shows', () => {
    expect(chooseNormalization('onetable', 'email', 'email', ['ada@x.io'], ['ada@x.io', 'Dan@X.io']).reasons).toEqual([
      'no normalization: dynamodb-onetable writes the value as given',
    ]);
    const doubt = chooseNormalization('onetable', 'email', 'email', ['ada@x.io'], ['Ada@X.io']).reasons.join('; ');
    expect(doubt).toMatch(
      /writes the value as given, but the sample disagrees on lowercase \(lowercase: 1 account values match their lock only as lower-case\).*confidence lowered/,
    );
  });
});

describe('detectConvention normalization', () => {
  it('with --preset uniq on a tiny table, keeps the documented trim+lowercase so ADA folds into ada', () => {
    const l = layoutFor('uniq');
    const items: Item[] = [l.account('a1', { email: 'ada@x.io', username: 'ada' }), l.lock('EMAIL', 'ada@x.io'), l.lock('HANDLE', 'ada')];
    const result = detectConvention(PRESET_KEYS.uniq, items, { preset: 'uniq' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.rules.map((r) => [r.name, r.normalize.join('+')])).toEqual([
      ['EMAIL', 'trim+lowercase'],
      ['HANDLE', 'trim+lowercase'],
    ]);
  });

  it('drops lowercase when the sampled locks keep upper case', () => {
    const l = layoutFor('uniq');
    const items: Item[] = [
      l.account('a1', { email: 'ada@x.io', username: 'Ada' }),
      l.lock('EMAIL', 'ada@x.io'),
      l.raw('UNIQ#HANDLE#Ada', 'LOCK'),
    ];
    const result = detectConvention(PRESET_KEYS.uniq, items);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.rules.map((r) => [r.name, r.normalize.join('+')])).toEqual([
      ['EMAIL', 'trim+lowercase'],
      ['HANDLE', 'trim'],
    ]);
  });

  it('infers lowercase for a rule with no preset default from lower-case locks and mixed-case accounts', () => {
    const l = layoutFor('uniq', { rules: [{ attribute: 'phone', tag: 'PHONE' }] });
    const items: Item[] = [
      l.account('a1', { phone: 'ext-ABC' }),
      l.account('a2', { phone: 'ext-def' }),
      l.raw('UNIQ#PHONE#ext-abc', 'LOCK'),
      l.raw('UNIQ#PHONE#ext-def', 'LOCK'),
    ];
    const result = detectConvention(PRESET_KEYS.uniq, items);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.rules.map((r) => [r.name, r.normalize.join('+')])).toEqual([['PHONE', 'lowercase']]);
  });
});

describe('detectConvention with a forced preset and rules without sampled locks', () => {
  it('keeps a documented uniq rule whose attribute accounts hold, though no lock of it was sampled', () => {
    const l = layoutFor('uniq');
    const items: Item[] = [l.account('a1', { email: 'ada@x.io', username: 'ada' }), l.lock('EMAIL', 'ada@x.io')];
    const result = detectConvention(PRESET_KEYS.uniq, items, { preset: 'uniq' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.rules.map((r) => [r.name, r.attribute, r.normalize.join('+')])).toEqual([
      ['EMAIL', 'email', 'trim+lowercase'],
      ['HANDLE', 'username', 'trim+lowercase'],
    ]);
    expect(result.value.evidence.join('\n')).toMatch(
      /rule HANDLE ↔ attribute `username` \(normalized: trim, lowercase\): no sampled locks; kept from the uniq preset's defaults \(1 sampled accounts hold `username`\)/,
    );
  });

  it('does not invent documented rules without --preset, nor when no account holds the attribute', () => {
    const l = layoutFor('uniq');
    const items: Item[] = [l.account('a1', { email: 'ada@x.io' }), l.lock('EMAIL', 'ada@x.io')];
    for (const options of [{}, { preset: 'uniq' as const }]) {
      const result = detectConvention(PRESET_KEYS.uniq, items, options);
      expect(result.ok && result.value.convention.rules.map((r) => r.name)).toEqual(['EMAIL']);
    }
  });
});
