/** What an audit's scan reads: the projection of a convention. */
import type { Convention } from '../model';

/** The ProjectionExpression a scan needs for `convention`: keys, rule and scope attributes, owner and account-type attributes only. */
export function projectionFor(convention: Convention): { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> } {
  const names = new Set<string>([convention.keys.hash.name]);
  if (convention.keys.range) names.add(convention.keys.range.name);
  for (const rule of convention.rules) {
    names.add(rule.attribute);
    for (const attribute of Object.values(rule.scope ?? {})) names.add(attribute);
  }
  if (convention.ownerAttribute !== undefined) names.add(convention.ownerAttribute);
  if (convention.account.kind === 'attribute-equals') names.add(convention.account.attribute);
  const ExpressionAttributeNames: Record<string, string> = {};
  const parts: string[] = [];
  [...names].forEach((name, i) => {
    ExpressionAttributeNames[`#p${i}`] = name;
    parts.push(`#p${i}`);
  });
  return { ProjectionExpression: parts.join(', '), ExpressionAttributeNames };
}
