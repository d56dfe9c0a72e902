/**
 * Bounded building blocks for bridge argument schemas: every string has a max length,
 * every object is strict, so a hostile renderer cannot smuggle extra fields or huge payloads.
 * (DynamoDB's own key size limits, counted in UTF-8 bytes, are in shared/key-limits.ts.)
 */
import { z } from 'zod';

/** Longest lock key template, account prefix or literal accepted in a convention (a key is at most 2048 bytes anyway). */
export const MAX_TEMPLATE_LENGTH = 1024;

/** Longest protected value accepted: DynamoDB's partition key limit is 2048 UTF-8 bytes. */
export const MAX_VALUE_LENGTH = 2048;
/** Longest attribute or rule name accepted (DynamoDB allows 64 KB, nobody needs it here). */
export const MAX_NAME_LENGTH = 255;
/** Longest free text accepted (pasted cancellation messages, requests). */
export const MAX_TEXT_LENGTH = 256 * 1024;

/** A connection id: `sandbox`, `endpoint:<id>` or `profile:<profile name>`. */
export const connectionIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^(sandbox|endpoint:[A-Za-z0-9-]{1,64}|profile:[A-Za-z0-9_.@+=,/-]{1,128})$/, 'not a connection id');

/** A DynamoDB table name (3–255 characters of `[A-Za-z0-9_.-]`). */
export const tableNameSchema = z
  .string()
  .min(3)
  .max(255)
  .regex(/^[A-Za-z0-9_.-]+$/, 'not a DynamoDB table name');

/** An AWS region name such as `eu-central-1` (DynamoDB Local accepts any, so only the shape is checked). */
export const regionSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9-]+$/, 'not a region name');

/** An attribute, rule or index name. */
export const nameSchema = z.string().min(1).max(MAX_NAME_LENGTH);

/** A protected value as typed by a person (may be empty only where a schema says so). */
export const valueSchema = z.string().min(1).max(MAX_VALUE_LENGTH);

/** An opaque id handed out by main (run id, preview id, prompt id). */
export const opaqueIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'not an id');

/** A plain key value: string or a finite number. */
export const plainValueSchema = z.union([z.string().max(MAX_VALUE_LENGTH), z.number().finite()]);

/** An item key as plain values (one or two attributes). */
export const plainKeySchema = z.record(nameSchema, plainValueSchema).refine((key) => {
  const size = Object.keys(key).length;
  return size >= 1 && size <= 2;
}, 'a key has one or two attributes');

/** A DynamoDB Local (or any DynamoDB-compatible) endpoint: an http(s) URL without credentials. */
export const endpointUrlSchema = z
  .string()
  .min(1)
  .max(2048)
  .refine((text) => {
    if (!URL.canParse(text)) return false;
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  }, 'an http(s) URL without user name or password, e.g. http://localhost:8000');

/** An external link the app may open: https only. */
export const externalUrlSchema = z
  .string()
  .max(2048)
  .refine((text) => URL.canParse(text) && new URL(text).protocol === 'https:', 'only https links are opened');

/** The empty argument object of methods that take nothing. */
export const noArgsSchema = z.strictObject({});

/** What an endpoint connection signs with (contract input; the view type is CredentialSource). */
export const credentialSourceSchema = z.discriminatedUnion('source', [
  z.strictObject({ source: z.literal('dummy') }),
  z.strictObject({ source: z.literal('env') }),
  z.strictObject({ source: z.literal('profile'), profile: z.string().min(1).max(MAX_NAME_LENGTH) }),
]);

/** Longest export location accepted from the page. */
export const MAX_EXPORT_PATH_LENGTH = 1024;

/**
 * Where an export is (`audit.startExport`): an absolute local folder (POSIX, or a Windows drive path)
 * or `s3://bucket[/prefix]`. No control characters and no `..` segments: a path still comes from the
 * page, and only the export layout's files below it are ever read (read-export.ts).
 */
export const exportPathSchema = z
  .string()
  .min(1)
  .max(MAX_EXPORT_PATH_LENGTH)
  .refine((text) => ![...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), 'no control characters in a path')
  .refine((text) => !text.split(/[\\/]/).includes('..'), 'no ".." in an export path: give the folder itself')
  .refine(
    (text) =>
      text.startsWith('s3://')
        ? /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(text)
        : text.startsWith('/') || /^[A-Za-z]:[\\/]/.test(text),
    'an absolute folder (/…) or s3://bucket/prefix',
  );
