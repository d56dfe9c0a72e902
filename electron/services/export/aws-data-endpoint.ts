/**
 * Where an export's S3 and Athena requests go for a connection that signs with real credentials (a
 * profile, or keys from the environment). Left to itself the SDK follows AWS_ENDPOINT_URL_S3,
 * AWS_ENDPOINT_URL and the `[default]` profile's `endpoint_url`/`services`, whatever profile the
 * connection uses: profile `prod`'s keys would be signed over to wherever another profile or the
 * environment points, and a fabricated "prod" export could come back. So: only the connection's own
 * profile's configuration counts (as for DynamoDB, see effectiveEndpoint), the environment's too,
 * each only when it is AWS itself; a configured endpoint that is not AWS is refused, never followed.
 */
import { endpointTrust } from '../../../shared/endpoint-trust';
import { err, ok, type Result } from '../../../shared/result';
import { profileEndpoint } from '../connections/profiles';

/** The AWS services an export audit calls besides DynamoDB. */
export type AwsDataService = 's3' | 'athena';

const ENV_NAME: Readonly<Record<AwsDataService, string>> = { s3: 'AWS_ENDPOINT_URL_S3', athena: 'AWS_ENDPOINT_URL_ATHENA' };

/**
 * The endpoint for `service` (undefined: AWS's default for the region), or a refusal naming where a
 * non-AWS endpoint was configured. `profile` is the connection's own (undefined for environment keys:
 * no profile's configuration applies then). The client must also set `ignoreConfiguredEndpointUrls`.
 */
export function awsDataEndpoint(
  service: AwsDataService,
  profile: string | undefined,
  env: NodeJS.ProcessEnv,
  home?: string,
): Result<string | undefined> {
  const configured = profile === undefined ? { ignore: false } : profileEndpoint(profile, env, home, service);
  const flag = env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS;
  const ignore = flag === 'true' || flag === 'false' ? flag === 'true' : configured.ignore;
  if (ignore) return ok(undefined);
  const candidates: readonly (readonly [string, string | undefined])[] = [
    [ENV_NAME[service], env[ENV_NAME[service]]],
    ['AWS_ENDPOINT_URL', env.AWS_ENDPOINT_URL],
    [`profile ${profile ?? ''}'s ${configured.from === 'services' ? `services ${service}.endpoint_url` : 'endpoint_url'}`, configured.url],
  ];
  const found = candidates.find(([, url]) => url !== undefined && url !== '');
  if (!found) return ok(undefined);
  const [source, url] = found;
  if (endpointTrust(url!) === 'aws') return ok(url);
  return err(
    'validation',
    `${source} points ${service.toUpperCase()} requests at ${url}, which is not AWS: the connection's ${profile === undefined ? 'keys' : `profile ${profile} credentials`} are not sent there`,
    {
      fix: `unset ${source.startsWith('profile') ? 'that setting' : source}, or set AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true to read AWS ${service.toUpperCase()}`,
    },
  );
}
