/** The words for a connection: where it goes, how it signs, and how it is doing. */

/** Where a connection goes. */
export type ConnectionKind = 'sandbox' | 'endpoint' | 'profile';

/** How an AWS profile obtains credentials (from the shared config/credentials files). */
export type ProfileKind = 'static' | 'sso' | 'assume-role' | 'mfa' | 'credential-process' | 'web-identity' | 'unknown';

/**
 * Where the effective endpoint comes from: the connection itself, an environment variable, the
 * profile's config (its `services` section or its `endpoint_url`), or the SDK default (AWS).
 */
export type EndpointSource = 'connection' | 'env' | 'profile-services' | 'profile-endpoint_url' | 'aws-default';

/** What an endpoint connection signs its requests with: dummy keys, the environment's keys, or a profile. Never the values. */
export type CredentialSource =
  { readonly source: 'dummy' } | { readonly source: 'env' } | { readonly source: 'profile'; readonly profile: string };

/** A connection's health as last observed. */
export type ConnectionState = 'unknown' | 'ok' | 'error' | 'stopped' | 'starting';
