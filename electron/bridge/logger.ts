/** Logging for the bridge: refusals and unexpected failures, never arguments (they may hold MFA codes). */
import { removeKnownSecrets } from '../services/dynamo/secrets';

/** Where bridge refusals and failures go. */
export interface BridgeLogger {
  refused(entry: { readonly method: string; readonly transport: string; readonly reason: string }): void;
  failed(entry: { readonly method: string; readonly transport: string; readonly cause: unknown }): void;
}

/** Masks every secret the process knows, and things that look like AWS secrets, in free text before it reaches a log. */
export function scrubSecrets(text: string): string {
  return removeKnownSecrets(text)
    .replace(/\b(A[SK]IA[A-Z0-9]{12,})\b/g, '[access key id]')
    .replace(/([A-Za-z0-9/+=]{40})/g, '[secret]')
    .replace(/(X-Amz-Security-Token|x-amz-security-token|SessionToken|sessionToken)["'=: ]+[^\s"',}]+/g, '$1=[token]');
}

/** The default logger: one line on stderr per event. */
export function createConsoleLogger(write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): BridgeLogger {
  return {
    refused: ({ method, transport, reason }) =>
      write(scrubSecrets(`[bridge] refused ${transport} call ${JSON.stringify(method)}: ${reason}`)),
    failed: ({ method, transport, cause }) => {
      const detail = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
      write(`[bridge] ${transport} call ${method} failed: ${scrubSecrets(detail)}`);
    },
  };
}
