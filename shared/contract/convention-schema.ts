/** The zod schema of a Convention as it crosses the bridge (the renderer edits and saves conventions). */
import { z } from 'zod';
import type { Convention, NormalizationStep, PresetName } from '../model';
import { checkConvention } from '../conventions/file';
import { MAX_NAME_LENGTH, MAX_TEMPLATE_LENGTH, nameSchema } from './limits';

const keyAttributeSchema = z.strictObject({
  name: nameSchema,
  type: z.enum(['S', 'N', 'B']),
});

const keySchemaSchema = z.strictObject({
  hash: keyAttributeSchema,
  range: keyAttributeSchema.optional(),
});

const lockKeyTemplateSchema = z.strictObject({
  hash: z
    .string()
    .min(1)
    .max(MAX_TEMPLATE_LENGTH)
    .refine((text) => text.split('{value}').length === 2, 'the hash template contains `{value}` exactly once'),
  range: z.string().max(MAX_TEMPLATE_LENGTH).optional(),
});

const lockRuleSchema = z.strictObject({
  name: nameSchema,
  attribute: nameSchema,
  lockKeys: z.array(lockKeyTemplateSchema).min(1).max(8).readonly(),
  normalize: z.array(z.enum(['trim', 'lowercase', 'nfc'] satisfies readonly NormalizationStep[])).max(3).readonly(),
});

const accountMatcherSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('key-prefix'), prefix: z.string().max(MAX_TEMPLATE_LENGTH), range: z.string().max(MAX_TEMPLATE_LENGTH).optional() }),
  z.strictObject({ kind: z.literal('attribute-equals'), attribute: nameSchema, value: z.string().max(MAX_TEMPLATE_LENGTH) }),
  z.strictObject({ kind: z.literal('not-lock') }),
]);

/** Splits a field name such as `rules[1].lockKeys[0].hash` into a zod path. */
export function fieldPath(field: string): (string | number)[] {
  return field
    .split(/\.|\[(\d+)\]/)
    .filter((part): part is string => part !== undefined && part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * A convention: key schema, account matcher, lock rules, lock prefixes, optional owner attribute.
 * Beyond the shape, the convention file's cross-field checks run against the convention's own key
 * schema (a `{value}` template without a literal prefix, templates vs. sort key, duplicate rules…);
 * the checks against the real table's keys need DescribeTable and run in the bridge handlers.
 */
export const conventionSchema = z
  .strictObject({
    preset: z.enum(['uniq', 'marker', 'onetable', 'aws-blog', 'custom'] satisfies readonly (PresetName | 'custom')[]),
    keys: keySchemaSchema,
    account: accountMatcherSchema,
    rules: z.array(lockRuleSchema).min(1).max(32).readonly(),
    lockPrefixes: z.array(z.string().min(1).max(MAX_NAME_LENGTH)).max(16).readonly(),
    ownerAttribute: nameSchema.optional(),
  })
  .superRefine((convention, ctx) => {
    const checked = checkConvention(convention);
    if (checked.ok) return;
    const field = checked.error.field;
    // checkConvention's messages start with the field; the bridge puts the (prefixed) path back in front.
    const message = field && checked.error.message.startsWith(`${field}: `) ? checked.error.message.slice(field.length + 2) : checked.error.message;
    ctx.addIssue({ code: 'custom', message, path: field ? fieldPath(field) : [] });
  });

// Compile-time proof that a parsed convention is a model Convention (the schema cannot drift from the type).
type ParsedConvention = z.infer<typeof conventionSchema>;
const _assignable = (c: ParsedConvention): Convention => c;
void _assignable;
