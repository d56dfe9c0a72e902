/**
 * The flags `locksmith audit --export` adds to audit, in a module of their own: audit loads the export audit
 * only when --export is given, so a live audit and `audit --help` read none of its code.
 */
/** The export-audit flags audit adds. */
export const EXPORT_FLAGS = {
  export: {
    type: 'string',
    valueName: 'PATH',
    multiple: true,
    description: 'audit a DynamoDB export (a local folder) instead of scanning; repeat for incrementals, in time order',
  },
  memory: {
    type: 'string',
    valueName: 'MB',
    description: 'with --export: DuckDB memory limit in MB (default 512; the rest spills to disk)',
  },
  engine: {
    type: 'string',
    valueName: 'E',
    description: 'with --export: duckdb (default, local) or athena (an s3:// export read by Athena in place; --athena-output s3://…)',
  },
  'athena-output': { type: 'string', valueName: 'URL', description: 'with --engine athena: the s3:// location for query results' },
  'athena-workgroup': {
    type: 'string',
    valueName: 'W',
    description: 'with --engine athena: the workgroup to run the queries in (default: primary)',
  },
  'athena-database': {
    type: 'string',
    valueName: 'D',
    description: 'with --engine athena: the Glue database of the temporary external table (default: default)',
  },
  'print-sql': {
    type: 'string',
    valueName: 'E',
    description: 'with --export: print the SQL of the checks for duckdb or athena (DDL included) instead of auditing',
  },
  's3-endpoint': {
    type: 'string',
    valueName: 'URL',
    description: 'with --export s3://…: an S3-compatible endpoint (path-style; e.g. MinIO), credentials from AWS_ACCESS_KEY_ID/…',
  },
} as const;
