/**
 * The shape of a convention file, checked with zod: field by field, each bounded as the bridge's
 * convention schema is. Cross-field rules come after (file-rules.ts, file.ts).
 */
import { z } from 'zod';
import { MAX_NAME_LENGTH, MAX_TEMPLATE_LENGTH, tableNameSchema } from '../contract/arg-limits';
import type { Convention, NormalizationStep } from '../model';
import { PRESET_NAMES } from '../model';
import { isReservedPlaceholder, lockKeyProblem } from './template';

/** The current convention file format version: 2 adds scopes, lock item templates, number values and a lock table. */
export const CONVENTION_FILE_VERSION = 2 as const;

// The same bounds as the bridge's convention schema (shared/contract/arg-limits.ts): a convention
// file is user input too, and a 20 MB rule name must be refused, not carried into every report.
const name = () => z.string().min(1, 'must not be empty').max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`);
const text = () => z.string().max(MAX_TEMPLATE_LENGTH, `must be at most ${MAX_TEMPLATE_LENGTH} characters`);

const keyAttribute = z.strictObject({
  name: name(),
  type: z.enum(['S', 'N', 'B']),
});

const placeholderName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a placeholder name (letters, digits, _)')
  .refine((n) => !isReservedPlaceholder(n), 'is a name every JavaScript object already has: choose another');

// Each key attribute's template is read on its own, and {value} must stand in one of them (template.ts lockKeyProblem).
const lockKey = z
  .strictObject({
    hash: text(),
    range: text().min(1, 'must not be empty').optional(),
  })
  .superRefine((t, ctx) => {
    const problem = lockKeyProblem(t);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem.message, path: [problem.field] });
  });

/** One lock rule, shared by the convention file and the bridge's convention schema. */
export const lockRuleSchema = z.strictObject({
  name: name(),
  attribute: name(),
  lockKeys: z.array(lockKey).min(1, 'needs at least one lock key template').max(8, 'at most 8 lock key templates').readonly(),
  normalize: z
    .array(z.enum(['trim', 'lowercase', 'nfc'] satisfies readonly NormalizationStep[]))
    .max(3)
    .readonly()
    .default([]),
  scope: z
    .record(placeholderName, name())
    .refine((s) => Object.keys(s).length <= 4, 'at most 4 scope placeholders')
    .readonly()
    .optional(),
  lockItem: z
    .record(name(), text())
    .refine((s) => Object.keys(s).length <= 16, 'at most 16 lock item attributes')
    .readonly()
    .optional(),
  valueType: z.enum(['S', 'N']).optional(),
});

/** How account items are recognised, shared by the convention file and the bridge's convention schema. */
export const accountMatcherSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({ kind: z.literal('key-prefix'), prefix: text(), range: text().min(1, 'must not be empty').optional() })
    // An empty prefix is meaningful only with a range (accounts keyed by bare ids, told apart by `SK = PROFILE`).
    .refine((a) => a.prefix !== '' || a.range !== undefined, {
      path: ['prefix'],
      message: 'must not be empty without a range (use {"kind": "not-lock"} for every item that is not a lock)',
    }),
  z.strictObject({ kind: z.literal('attribute-equals'), attribute: name(), value: text() }),
  z.strictObject({ kind: z.literal('not-lock') }),
]);

/** A table's key schema, shared by the convention file and the bridge's convention schema. */
export const keySchemaSchema = z.strictObject({ hash: keyAttribute, range: keyAttribute.optional() });

/** Preset names a convention may carry. */
export const presetOrCustomSchema = z.enum(['custom', ...PRESET_NAMES] as [Convention['preset'], ...Convention['preset'][]]);

/** The JSON schema of a convention file (zod). */
export const conventionFileSchema = z.strictObject({
  version: z
    .union([z.literal(1), z.literal(CONVENTION_FILE_VERSION)], {
      error: (issue) =>
        typeof issue.input === 'number' && issue.input > CONVENTION_FILE_VERSION
          ? `${issue.input} is a newer format than this Locksmith reads (versions 1 and ${CONVENTION_FILE_VERSION}): update Locksmith, or save the convention again from this version`
          : `must be 1 or ${CONVENTION_FILE_VERSION}`,
    })
    .default(CONVENTION_FILE_VERSION),
  preset: presetOrCustomSchema.default('custom'),
  keys: keySchemaSchema.optional(),
  account: accountMatcherSchema,
  rules: z.array(lockRuleSchema).min(1, 'needs at least one rule').max(32, 'at most 32 rules'),
  lockPrefixes: z.array(name()).max(16, 'at most 16 lock prefixes').default([]),
  ownerAttribute: name().optional(),
  lockTable: tableNameSchema.optional(),
});

/** A convention file as written on disk. */
export type ConventionFile = z.input<typeof conventionFileSchema>;
