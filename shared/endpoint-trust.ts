/**
 * How far an endpoint URL is trusted. Loopback (this machine) is where DynamoDB Local runs; anything
 * else is another machine that could be a real database, and `*.amazonaws.com` / `*.api.aws` is AWS
 * itself. Pure: the same rule for the connections service, the CLI and the contract.
 */

/** The three trust levels of an endpoint. */
export type EndpointTrust = 'loopback' | 'remote' | 'aws';

/** The URL's host name, lower-cased, without brackets or a trailing dot (undefined when not a URL). */
export function endpointHost(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  return new URL(url).hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

const IPV4_LOOPBACK = /^127(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** True for `localhost`, 127.0.0.0/8 and ::1 — never for names that merely start like them (`127.0.0.1.nip.io`). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || IPV4_LOOPBACK.test(host) || host === '::1' || host === '0:0:0:0:0:0:0:1';
}

/** True for AWS's own service domains: `*.amazonaws.com`, `*.amazonaws.com.cn`, `*.api.aws`. */
export function isAwsHost(host: string): boolean {
  return /(^|\.)amazonaws\.com(\.cn)?$/.test(host) || /(^|\.)api\.aws$/.test(host);
}

/** Classifies an endpoint URL; an unparsable one is `remote` (never trusted as local). */
export function endpointTrust(url: string): EndpointTrust {
  const host = endpointHost(url);
  if (host === undefined) return 'remote';
  if (isAwsHost(host)) return 'aws';
  return isLoopbackHost(host) ? 'loopback' : 'remote';
}

/**
 * Whether a connection may write before anyone allows it: only an endpoint on this machine reached
 * without an AWS profile. The one read-only policy of the app (endpoint and profile connections)
 * and the CLI (`--endpoint`, `--profile`; `--allow-writes` is the CLI's explicit allow).
 */
export function writableByDefault(connection: { readonly profile?: string | undefined; readonly endpoint?: string | undefined }): boolean {
  return connection.profile === undefined && connection.endpoint !== undefined && endpointTrust(connection.endpoint) === 'loopback';
}
