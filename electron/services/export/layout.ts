/**
 * The on-disk layout of a DynamoDB export to S3, as AWS writes it: `AWSDynamoDB/<ExportId>/` with
 * `manifest-summary.json`, `manifest-files.json` (one JSON line per data file), their `.md5`
 * checksum files, an empty `_started`, and gzipped DynamoDB-JSON data files under `data/`.
 */
import { createHash, randomBytes } from 'node:crypto';

/** The folder every export lives under, below the S3 prefix. */
export const EXPORT_ROOT = 'AWSDynamoDB';
/** The only output format Locksmith reads (ION exports are refused with a clear error). */
export const DYNAMODB_JSON = 'DYNAMODB_JSON';
/** The manifest format version AWS writes. */
export const MANIFEST_VERSION = '2020-06-30';

/** manifest-summary.json: the fields Locksmith reads and writes (AWS adds a few more). */
export interface ManifestSummary {
  readonly version: string;
  readonly exportArn: string;
  readonly startTime: string;
  readonly endTime: string;
  readonly tableArn: string;
  readonly tableId: string;
  readonly exportTime: string;
  readonly s3Bucket: string;
  readonly s3Prefix: string | null;
  readonly s3SseAlgorithm: string;
  readonly s3SseKmsKeyId: string | null;
  readonly manifestFilesS3Key: string;
  readonly billedSizeBytes: number;
  readonly itemCount: number;
  readonly outputFormat: string;
  readonly exportType?: 'FULL_EXPORT' | 'INCREMENTAL_EXPORT';
}

/** One line of manifest-files.json. */
export interface ManifestFileLine {
  readonly itemCount: number;
  /** Base64 of the MD5 of the gzipped file, as AWS writes it. */
  readonly md5Checksum: string;
  /** The S3 ETag (hex MD5 for single-part uploads). */
  readonly etag: string;
  readonly dataFileS3Key: string;
}

/** Base64 MD5 of a buffer (the manifests' `md5Checksum` form). */
export function md5Base64(data: Buffer | string): string {
  return createHash('md5').update(data).digest('base64');
}

/** A new export id in AWS's shape: 13-digit epoch milliseconds, a dash, 8 hex digits. */
export function newExportId(at: Date): string {
  return `${String(at.getTime()).padStart(13, '0')}-${randomBytes(4).toString('hex')}`;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A data file name in AWS's shape: 26 lower-case base32 characters + `.json.gz`. */
export function newDataFileName(): string {
  const bytes = randomBytes(26);
  let out = '';
  for (const b of bytes) out += BASE32[b % 32];
  return `${out}.json.gz`;
}

/** The table's ARN when DescribeTable gave none (DynamoDB Local): a well-formed stand-in. */
export function tableArnFor(table: string, region: string, account = '000000000000'): string {
  return `arn:aws:dynamodb:${region}:${account}:table/${table}`;
}

/** The table name inside a table or export ARN (`…:table/<name>/export/<id>`), if it has one. */
export function tableFromArn(arn: string): string | undefined {
  const match = /:table\/([^/]+)/.exec(arn);
  return match?.[1];
}

/** The path of a manifest key below the local folder holding `AWSDynamoDB/`: the S3 prefix is dropped. */
export function localKey(s3Key: string): string | undefined {
  const at = s3Key.startsWith(`${EXPORT_ROOT}/`) ? 0 : s3Key.indexOf(`/${EXPORT_ROOT}/`) + 1;
  if (at < 0 || (at === 0 && !s3Key.startsWith(`${EXPORT_ROOT}/`))) return undefined;
  const rest = s3Key.slice(at);
  // Never outside the export folder: a manifest is input, and input can be hostile.
  // Backslashes and NUL too: on Windows `join` would read a backslash as a separator (`..\\..\\x`).
  if (rest.split('/').some((part) => part === '..' || part === '') || /[\\\0]/.test(rest)) return undefined;
  return rest;
}
