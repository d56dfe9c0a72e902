/**
 * The GSI that lets a lookup find a rule's holders with one Query instead of a scan: partition key =
 * the rule's attribute, keys-only projection (the lookup reads what it needs by key). Pure: the exact
 * UpdateTable input and the AWS CLI line to run it; nothing is created here.
 */
import type { Convention, KeySchema, LockRule } from '../model';

/** The table facts a suggestion needs (from DescribeTable). */
export interface IndexedTable {
  readonly name: string;
  readonly keys: KeySchema;
  readonly gsis: readonly {
    readonly name: string;
    readonly hash: { readonly name: string; readonly type: string };
    readonly status?: string;
  }[];
  readonly billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
}

/** One rule's suggestion: the index that already serves it, or the UpdateTable that would add one. */
export interface IndexSuggestion {
  readonly rule: string;
  readonly attribute: string;
  /** An active GSI whose partition key is already the rule's attribute. */
  readonly existing?: string;
  /** When none exists: the UpdateTable input (AWS JSON) and the same as an AWS CLI command. */
  readonly updateTable?: Readonly<Record<string, unknown>>;
  readonly awsCli?: string;
  readonly notes: readonly string[];
}

/** Placeholder capacity for a provisioned table's new index (the input needs one; size it like the table's). */
export const SUGGESTED_CAPACITY = { ReadCapacityUnits: 5, WriteCapacityUnits: 5 } as const;

/** A GSI name DynamoDB accepts: [a-zA-Z0-9_.-], 3–255 characters. */
export function suggestedIndexName(attribute: string): string {
  return `locksmith-by-${attribute.replace(/[^a-zA-Z0-9_.-]/g, '_')}`.slice(0, 255);
}

/** Quotes text for a POSIX shell (single quotes; an embedded ' becomes '\''). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function attributeType(table: IndexedTable, rule: LockRule): 'S' | 'N' | 'B' {
  // A key attribute keeps the type the table already declares for it.
  const key = [table.keys.hash, table.keys.range].find((k) => k?.name === rule.attribute);
  return key?.type ?? (rule.valueType === 'N' ? 'N' : 'S');
}

/** The suggestion for each rule of `convention` (or only `ruleName`); throws on an unknown rule name. */
export function suggestIndexes(table: IndexedTable, convention: Convention, ruleName?: string): IndexSuggestion[] {
  const rules = ruleName === undefined ? convention.rules : convention.rules.filter((r) => r.name === ruleName);
  if (rules.length === 0)
    throw new Error(
      ruleName === undefined
        ? 'the convention has no rules'
        : `unknown rule ${ruleName} (rules: ${convention.rules.map((r) => r.name).join(', ') || 'none'})`,
    );
  return rules.map((rule) => {
    const notes: string[] = [];
    if (rule.normalize.length > 0) {
      notes.push(
        `the index holds ${rule.attribute} as stored; a lookup queries the value as typed and its normalized form (${rule.normalize.join(', ')}), so an account storing another spelling is found only by a scan or an audit`,
      );
    }
    if (rule.scope !== undefined)
      notes.push(`rule ${rule.name} is scoped: the index finds holders in every scope and the lookup keeps those in the scope asked`);
    const existing = table.gsis.find(
      (g) => g.hash.name === rule.attribute && g.hash.type !== 'B' && (g.status === undefined || g.status === 'ACTIVE'),
    );
    if (existing) return { rule: rule.name, attribute: rule.attribute, existing: existing.name, notes };
    const create: Record<string, unknown> = {
      IndexName: suggestedIndexName(rule.attribute),
      KeySchema: [{ AttributeName: rule.attribute, KeyType: 'HASH' }],
      Projection: { ProjectionType: 'KEYS_ONLY' },
    };
    if (table.billingMode === 'PROVISIONED') {
      create.ProvisionedThroughput = { ...SUGGESTED_CAPACITY };
      notes.push(
        `the table is provisioned: the index needs its own capacity (${SUGGESTED_CAPACITY.ReadCapacityUnits} read / ${SUGGESTED_CAPACITY.WriteCapacityUnits} write units here: size it like the table's writes, or the table's writes are throttled while it builds)`,
      );
    }
    const updateTable = {
      TableName: table.name,
      AttributeDefinitions: [{ AttributeName: rule.attribute, AttributeType: attributeType(table, rule) }],
      GlobalSecondaryIndexUpdates: [{ Create: create }],
    };
    notes.push(
      'building the index reads the whole table once (backfill) and every later write to the attribute costs one more index write',
    );
    return {
      rule: rule.name,
      attribute: rule.attribute,
      updateTable,
      awsCli: `aws dynamodb update-table --cli-input-json ${shellQuote(JSON.stringify(updateTable))}`,
      notes,
    };
  });
}
