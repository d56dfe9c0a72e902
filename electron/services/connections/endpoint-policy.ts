/**
 * What a connection may do, decided from its view alone: which endpoints may receive which signatures,
 * which labels may stand for an endpoint, when a connection cannot be used, and what must be typed to
 * allow writes. The registry asks; nothing here holds state.
 */
import type { ConnectionView } from '../../../shared/contract/views';
import type { CredentialSource } from '../../../shared/domain';
import { endpointHost, endpointTrust } from '../../../shared/endpoint-trust';
import type { AppError } from '../../../shared/result';

/**
 * Why an endpoint cannot be used with a credential source. AWS's own endpoints are reached only
 * through a profile (never with dummy keys or whatever the environment holds). A host that is
 * neither AWS nor this machine never receives a signature made with real keys (a profile's or the
 * environment's: their key id, session token and signed requests) unless the user typed that
 * endpoint on the command line beside those keys — the page cannot point real keys at any host.
 */
export function endpointRefusal(endpoint: string, credentials: CredentialSource, typedOnCommandLine = false): AppError | undefined {
  const trust = endpointTrust(endpoint);
  const host = endpointHost(endpoint) ?? endpoint;
  if (trust === 'aws' && credentials.source !== 'profile') {
    return {
      kind: 'credentials',
      message: `${host} is AWS itself: it is reached only through an AWS profile.`,
      fix: 'Pick the profile from the list (or add the endpoint with "sign with: profile").',
    };
  }
  if (trust === 'remote' && credentials.source !== 'dummy' && !typedOnCommandLine) {
    const keys = credentials.source === 'env' ? "the environment's keys" : `profile ${credentials.profile}'s keys`;
    return {
      kind: 'credentials',
      message: `${host} is neither AWS nor this machine: it is not sent requests signed with ${keys}.`,
      fix: 'Sign with dummy keys (a DynamoDB Local elsewhere accepts them), or start Locksmith with `--endpoint` and the keys in its environment if you mean it.',
    };
  }
  return undefined;
}

/** A label that reads like an address must name the endpoint's own host (a label is what people trust). */
export function labelNamesAnotherHost(label: string, endpoint: string): string | undefined {
  const looksLikeAddress =
    /^[a-z][a-z0-9+.-]*:\/\//i.test(label) || /^[\w.-]+:\d+$/.test(label) || /^(localhost|127\.|\[?::1)/i.test(label);
  if (!looksLikeAddress) return undefined;
  const host = endpointHost(endpoint);
  const named = endpointHost(/:\/\//.test(label) ? label : `http://${label}`);
  return named === host
    ? undefined
    : `The label ${JSON.stringify(label)} reads like another address than ${endpoint}; use a plain name or the endpoint's own host.`;
}

/**
 * Why a listed connection cannot be used now, or undefined: an endpoint or profile whose credentials are
 * refused or broken answers with that error; the sandbox must be running.
 */
export function unusableReason(view: ConnectionView, sandboxRunning: boolean): AppError | undefined {
  if (view.kind === 'endpoint' && view.error && view.state === 'error' && view.error.kind === 'credentials') return view.error;
  if (view.kind === 'sandbox' && !sandboxRunning) {
    return { kind: 'unreachable', message: 'The sandbox is not running.', fix: 'Start the sandbox from the connections list.' };
  }
  if (view.error && view.kind === 'profile' && view.state === 'error' && view.error.kind === 'credentials') return view.error;
  return undefined;
}

/** Why writes may not be allowed on a connection with what was typed back (a profile's name, a remote endpoint's host), or undefined. */
export function writeConfirmRefusal(view: ConnectionView, writable: boolean, confirm: string | undefined): string | undefined {
  if (writable && view.kind === 'profile' && confirm !== view.label) {
    return `To allow writes through profile ${view.label}, type the profile name.`;
  }
  if (writable && view.kind === 'endpoint' && view.writeConfirm !== undefined && confirm !== view.writeConfirm) {
    return `${view.endpoint ?? 'This endpoint'} is not on this machine: to allow writes, type its host ${view.writeConfirm}.`;
  }
  return undefined;
}
