/**
 * The transaction requests the renderer may ask to preview (DESIGN.md "Transactions").
 * Main builds the exact TransactWriteItems from these with the table's convention; the renderer never sends raw requests.
 */
import { z } from 'zod';
import { MAX_TEXT_LENGTH, nameSchema, plainKeySchema, valueSchema } from './arg-limits';

/** Claim: put the missing lock for `value` of `rule`, guarded by the account still holding it. */
const claimSchema = z.strictObject({ kind: z.literal('claim'), rule: nameSchema, value: valueSchema, account: plainKeySchema });

/** A claim as the services take it: `stored` (the CLI's) is the value as the account holds it; it defaults to what it holds now. */
const claimOperationSchema = claimSchema.extend({ stored: valueSchema.optional() });

/** A scoped rule's scope, by account attribute (`{ "orgId": "acme" }`). */
export const scopeArgSchema = z.record(nameSchema, valueSchema).refine((s) => Object.keys(s).length <= 4, 'at most 4 scope attributes');

/**
 * Release: delete the lock for `value` of `rule`; `holder` is the last known holder, when there was one;
 * `lock` the exact key of the lock row (legacy or scoped forms); `scope` the scope of a scoped rule.
 */
const releaseSchema = z.strictObject({
  kind: z.literal('release'),
  rule: nameSchema,
  value: valueSchema,
  holder: plainKeySchema.optional(),
  lock: plainKeySchema.optional(),
  scope: scopeArgSchema.optional(),
});

/** Signup template: the account item and one lock per rule, all `attribute_not_exists`. */
const signupSchema = z.strictObject({
  kind: z.literal('signup'),
  account: plainKeySchema,
  /** Protected values by rule name. */
  values: z.record(nameSchema, valueSchema).refine((v) => Object.keys(v).length >= 1 && Object.keys(v).length <= 32, 'one to 32 values'),
});

/** A signup as the services take it: `attributes` (the CLI's) are other string attributes to store on the account. */
const signupOperationSchema = signupSchema.extend({ attributes: z.record(nameSchema, z.string()).optional() });

/** Change-value template: new lock guarded, old lock (`from`) deleted guarded, account updated to `to` only if it still holds `from`. */
const changeValueSchema = z.strictObject({
  kind: z.literal('change-value'),
  account: plainKeySchema,
  rule: nameSchema,
  from: valueSchema,
  to: valueSchema,
});

/** A change of value as the services take it: `from` (optional from the CLI) defaults to what the account holds when previewed. */
const changeValueOperationSchema = changeValueSchema.extend({ from: valueSchema.optional() });

/** Delete-account template: the account and all its locks, conditioned. */
const deleteAccountSchema = z.strictObject({ kind: z.literal('delete-account'), account: plainKeySchema });

/** Any transaction request the bridge accepts for preview. */
export const txRequestSchema = z.discriminatedUnion('kind', [
  claimSchema,
  releaseSchema,
  signupSchema,
  changeValueSchema,
  deleteAccountSchema,
]);

/**
 * A transaction request (inferred from the schema). It is an operation as the services and the pure
 * builders take it, as it is: the bridge passes it on unchanged.
 */
export type TxRequest = z.infer<typeof txRequestSchema>;

/**
 * Every transaction a person can ask for, as the services take it: the bridge's requests with the
 * CLI's optional extras. The one definition of the operation shapes (`TransactionOperation` is inferred from it).
 */
export const operationSchema = z.discriminatedUnion('kind', [
  claimOperationSchema,
  releaseSchema,
  signupOperationSchema,
  changeValueOperationSchema,
  deleteAccountSchema,
]);

/** What the decoder accepts: a pasted exception message or CancellationReasons JSON, optionally the request JSON. */
export const decodeInputSchema = z.strictObject({
  text: z.string().min(1).max(MAX_TEXT_LENGTH),
  request: z.string().max(MAX_TEXT_LENGTH).optional(),
});
