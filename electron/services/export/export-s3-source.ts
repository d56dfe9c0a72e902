/**
 * Where the app's audit from an export reads an s3:// export from, and with which credentials: the
 * connection's own, to AWS S3 or (a local connection only) to an S3-compatible server on this machine.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { endpointTrust } from '../../../shared/endpoint-trust';
import { err, ok, type Result } from '../../../shared/result';
import type { ConnectionContext } from '../context/request-context';
import { endpointCredentials } from '../dynamo/client';
import { awsDataEndpoint } from './aws-data-endpoint';

/** What of `audit.startExport`'s arguments says where the export is. */
export interface S3SourceArgs {
  readonly path: string;
  readonly s3Endpoint?: string | undefined;
}

/**
 * How an s3:// export is read: with the connection's own credentials and region (never seen by the
 * page). A connection to AWS (no endpoint, or an AWS endpoint) reads AWS S3 and may not redirect its
 * credentials elsewhere. A local endpoint (DynamoDB Local, the sandbox) has no S3 of its own: it needs
 * `s3Endpoint`, an S3-compatible server on this machine (path-style), and may not sign with a profile:
 * the page chooses that address, so nothing but this machine ever receives a signed request.
 */
export function s3Source(
  ctx: ConnectionContext,
  args: S3SourceArgs,
  env?: NodeJS.ProcessEnv,
): Result<(() => Promise<S3Client>) | undefined> {
  if (!args.path.startsWith('s3://'))
    return args.s3Endpoint ? err('validation', 's3Endpoint is for s3:// paths only', { field: 's3Endpoint' }) : ok(undefined);
  const { target } = ctx;
  const toAws = target.endpoint === undefined || endpointTrust(target.endpoint) === 'aws';
  if (toAws && args.s3Endpoint)
    return err(
      'validation',
      `${ctx.label} reads s3:// exports from AWS S3 with its own credentials; s3Endpoint is for DynamoDB Local connections`,
      { field: 's3Endpoint' },
    );
  if (!toAws) {
    if (endpointTrust(target.endpoint!) !== 'loopback')
      return err('validation', `${ctx.label} is neither AWS nor this machine: copy the export to a local folder and audit that`, {
        field: 'path',
      });
    if (!args.s3Endpoint)
      return err(
        'validation',
        `${ctx.label} is a local endpoint, not AWS: give the S3-compatible endpoint the export is on (s3Endpoint), or a local folder`,
        { field: 's3Endpoint' },
      );
    if (endpointTrust(args.s3Endpoint) !== 'loopback')
      return err(
        'validation',
        `s3Endpoint must be on this machine (localhost, 127.0.0.1, ::1): requests to it are signed with the connection's keys; copy the export to a local folder instead`,
        { field: 's3Endpoint' },
      );
    if (target.profile !== undefined)
      return err(
        'validation',
        `${ctx.label} signs with the AWS profile ${target.profile}: its keys are not sent to another S3 endpoint; copy the export to a local folder instead`,
        { field: 's3Endpoint' },
      );
  }
  // AWS S3 where the connection's own profile says (never another profile's or a non-AWS endpoint).
  const aws = args.s3Endpoint ? ok(undefined) : awsDataEndpoint('s3', target.profile, env ?? process.env);
  if (!aws.ok) return aws;
  return ok(async () => {
    const { S3Client } = await import('@aws-sdk/client-s3');
    return args.s3Endpoint
      ? new S3Client({
          endpoint: args.s3Endpoint,
          region: target.region,
          forcePathStyle: true,
          credentials: target.credentials ?? endpointCredentials(env),
          ignoreConfiguredEndpointUrls: true,
        })
      : new S3Client({
          region: target.region,
          ...(target.credentials ? { credentials: target.credentials } : {}),
          ...(aws.value ? { endpoint: aws.value } : {}),
          ignoreConfiguredEndpointUrls: true,
        });
  });
}
