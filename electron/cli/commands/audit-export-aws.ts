/**
 * Where `locksmith audit --export` reads from AWS: s3:// exports downloaded into the cache (with
 * --s3-endpoint, or AWS S3 as the profile configures it) and the Athena engine's target, from the flags.
 */
import { optionalString } from '../args';
import type { CliIo, FlagValues } from '../command';
import { unwrap } from '../command';

/** Downloads every s3:// export into the cache (resumable, MD5-verified) and returns local folders, in order. */
export async function localExports(
  paths: readonly string[],
  values: FlagValues,
  io: CliIo,
  cacheDir: string,
  sampleOnly: boolean,
): Promise<string[]> {
  if (!paths.some((p) => p.startsWith('s3://'))) return [...paths];
  const [{ S3Client }, prepare, { endpointCredentials }, { fromNodeProviderChain }, { awsDataEndpoint }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('../../services/export/export-prepare'),
    import('../../services/dynamo/client'),
    import('@aws-sdk/credential-providers'),
    import('../../services/export/aws-data-endpoint'),
  ]);
  const endpoint = optionalString(values, 's3-endpoint');
  const region = optionalString(values, 'region') ?? io.env.AWS_REGION ?? io.env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const profile = optionalString(values, 'profile') ?? (io.env.AWS_PROFILE || undefined);
  // Without --s3-endpoint: AWS S3 as the connection's own profile configures it, never elsewhere.
  const aws = endpoint ? undefined : unwrap(awsDataEndpoint('s3', profile, io.env));
  let client: InstanceType<typeof S3Client> | undefined;
  const s3 = (): InstanceType<typeof S3Client> =>
    (client = endpoint
      ? new S3Client({
          endpoint,
          region,
          forcePathStyle: true,
          credentials: endpointCredentials(io.env),
          ignoreConfiguredEndpointUrls: true,
        })
      : new S3Client({
          region,
          credentials: fromNodeProviderChain(profile ? { profile } : {}),
          ...(aws ? { endpoint: aws } : {}),
          ignoreConfiguredEndpointUrls: true,
        }));
  try {
    let shown = false;
    const out = await prepare.localExports(paths, {
      s3,
      cacheDir,
      // Athena reads the data on S3: only the manifests and the detection sample come down.
      sampleOnly,
      signal: io.signal,
      ...(io.interactive
        ? {
            onProgress: (path: string, p: { filesDone: number; files: number; filesKept: number; bytes: number }) => {
              shown = true;
              io.stderr(`\r${path}: ${p.filesDone}/${p.files} files (${p.filesKept} already cached), ${(p.bytes / 1e6).toFixed(1)} MB   `);
            },
          }
        : {}),
    });
    if (shown) io.stderr('\n');
    return out;
  } finally {
    client?.destroy();
  }
}

/** Where and how the Athena engine runs, from the flags (credentials as for S3: --profile, else the default chain). */
export function athenaTarget(
  values: FlagValues,
  io: CliIo,
): { region: string; profile?: string; env: NodeJS.ProcessEnv; outputLocation: string; workgroup?: string; database?: string } {
  const profile = optionalString(values, 'profile') ?? (io.env.AWS_PROFILE || undefined);
  const workgroup = optionalString(values, 'athena-workgroup');
  const database = optionalString(values, 'athena-database');
  return {
    region: optionalString(values, 'region') ?? io.env.AWS_REGION ?? io.env.AWS_DEFAULT_REGION ?? 'us-east-1',
    env: io.env,
    outputLocation: optionalString(values, 'athena-output')!,
    ...(profile ? { profile } : {}),
    ...(workgroup ? { workgroup } : {}),
    ...(database ? { database } : {}),
  };
}
