/** The zod schema of a Convention as it crosses the bridge (the renderer edits and saves conventions). */
import { z } from 'zod';
import type { Convention } from '../model';
import { accountMatcherSchema, checkConvention, keySchemaSchema, lockRuleSchema, presetOrCustomSchema } from '../conventions/file';
import { MAX_NAME_LENGTH, nameSchema, tableNameSchema } from './arg-limits';

/** Splits a field name such as `rules[1].lockKeys[0].hash` into a zod path. */
export function fieldPath(field: string): (string | number)[] {
  return field
    .split(/\.|\[(\d+)\]/)
    .filter((part): part is string => part !== undefined && part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * A convention: key schema, account matcher, lock rules, lock prefixes, optional owner attribute
 * and lock table. The pieces are the convention file's own schemas (one schema per concept).
 * Beyond the shape, the convention file's cross-field checks run against the convention's own key
 * schema (a `{value}` template without a literal prefix, templates vs. sort key, duplicate rules…);
 * the checks against the real table's keys need DescribeTable and run in the bridge handlers.
 */
export const conventionSchema = z
  .strictObject({
    preset: presetOrCustomSchema,
    keys: keySchemaSchema,
    account: accountMatcherSchema,
    rules: z.array(lockRuleSchema).min(1).max(32).readonly(),
    lockPrefixes: z.array(z.string().min(1).max(MAX_NAME_LENGTH)).max(16).readonly(),
    ownerAttribute: nameSchema.optional(),
    lockTable: tableNameSchema.optional(),
  })
  .superRefine((convention, ctx) => {
    const checked = checkConvention(convention);
    if (checked.ok) return;
    const field = checked.error.field;
    // checkConvention's messages start with the field; the bridge puts the (prefixed) path back in front.
    const message =
      field && checked.error.message.startsWith(`${field}: `) ? checked.error.message.slice(field.length + 2) : checked.error.message;
    ctx.addIssue({ code: 'custom', message, path: field ? fieldPath(field) : [] });
  });

// Compile-time proof that a parsed convention is a model Convention (the schema cannot drift from the type).
type ParsedConvention = z.infer<typeof conventionSchema>;
const _assignable = (c: ParsedConvention): Convention => c;
void _assignable;
