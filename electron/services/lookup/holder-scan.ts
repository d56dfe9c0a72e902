/** The projection and filter of lookup's holder scan: only what finds and recognises accounts. */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Convention, LockRule } from '../../../shared/model';
import type { ScanFilter, ScanProjection } from '../scanner/scanner';
import { isScoped } from '../../../shared/conventions/scope';
import { compileHash, holdsValue } from '../../../shared/conventions/template';

/** One rule the holder scan searches for. */
export interface HolderScanRule {
  readonly rule: LockRule;
  readonly index: number;
  readonly normalized: string;
  /** Distinct stored forms worth matching exactly (normalized and raw). */
  readonly forms: readonly string[];
}

/** Table keys, the rules' attributes and whatever the account matcher reads. */
export function holderScanProjection(convention: Convention, rules: readonly HolderScanRule[]): ScanProjection {
  const attributes = new Set<string>([convention.keys.hash.name]);
  if (convention.keys.range) attributes.add(convention.keys.range.name);
  if (convention.account.kind === 'attribute-equals') attributes.add(convention.account.attribute);
  for (const r of rules) {
    attributes.add(r.rule.attribute);
    // A scoped rule's value joins only with its scope: classifying an account needs those attributes.
    for (const attribute of Object.values(r.rule.scope ?? {})) attributes.add(attribute);
  }
  const names: Record<string, string> = {};
  const parts = [...attributes].map((name, i) => {
    names[`#p${i}`] = name;
    return `#p${i}`;
  });
  return { expression: parts.join(', '), names };
}

/**
 * Server-side filter: an exact match for rules without normalization (string or number form);
 * for normalizing rules only `attribute_exists`, because DynamoDB cannot compare case-insensitively —
 * the normalized comparison then happens on the projected attributes.
 */
export function holderScanFilter(rules: readonly HolderScanRule[], convention?: Convention): ScanFilter {
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  const clauses = rules.map((r, i) => {
    names[`#f${i}`] = r.rule.attribute;
    if (r.rule.normalize.length > 0) return `attribute_exists(#f${i})`;
    const alternatives: string[] = [];
    r.forms.forEach((form, j) => {
      values[`:f${i}s${j}`] = { S: form };
      alternatives.push(`#f${i} = :f${i}s${j}`);
      if (form.trim() !== '' && Number.isFinite(Number(form))) {
        values[`:f${i}n${j}`] = { N: form };
        alternatives.push(`#f${i} = :f${i}n${j}`);
      }
    });
    return `(${alternatives.join(' OR ')})`;
  });
  // A scoped rule asked in every scope: its locks come from the same scan (their keys begin with the
  // template's literal prefix and contain the value); the scope in between is read client-side.
  rules.forEach((r, i) => {
    if (!convention || !isScoped(r.rule)) return;
    names['#lh'] = convention.keys.hash.name;
    const range = convention.keys.range?.name;
    const contains = (attribute: string): string =>
      r.forms
        .map((form, j) => {
          values[`:l${i}v${j}`] = { S: form };
          return `contains(${attribute}, :l${i}v${j})`;
        })
        .join(' OR ');
    // Per template: its partition key's literal prefix, and the value inside whichever key attribute holds it.
    const alternatives = r.rule.lockKeys.map((t, k) => {
      const prefix = compileHash(t.hash).prefix;
      const inRange = !holdsValue(t.hash) && range !== undefined;
      if (inRange) names['#lr'] = range;
      const inside = `(${contains(inRange ? '#lr' : '#lh')})`;
      if (prefix === '') return inside;
      values[`:l${i}p${k}`] = { S: prefix };
      return `(begins_with(#lh, :l${i}p${k}) AND ${inside})`;
    });
    clauses.push(`(${alternatives.join(' OR ')})`);
  });
  return Object.keys(values).length > 0 ? { expression: clauses.join(' OR '), names, values } : { expression: clauses.join(' OR '), names };
}
