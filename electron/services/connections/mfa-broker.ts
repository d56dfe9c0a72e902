/**
 * Brokers MFA codes between the SDK's `mfaCodeProvider` and the UI: one prompt at a time,
 * published on the `mfa.prompts` stream and answered through `mfa.answer`. The code is never logged.
 */
import { randomUUID } from 'node:crypto';
import type { MfaPromptEvent } from '../../../shared/contract/views';
import type { Result } from '../../../shared/result';
import { err, ok } from '../../../shared/result';

/** Thrown to the SDK when the user cancels or the prompt times out; named so dynamo/errors maps it to `mfa-required`. */
export class MfaCancelledError extends Error {
  override readonly name = 'CredentialsProviderError';
  /** Marks this as our cancellation, not an SDK failure. */
  readonly mfaCancelled = true;
  constructor(profile: string, reason: 'cancelled' | 'timeout') {
    super(
      reason === 'timeout'
        ? `MFA code for profile ${profile} was not entered in time`
        : `MFA code entry for profile ${profile} was cancelled`,
    );
  }
}

/** True for the error the broker rejects with. */
export function isMfaCancelled(error: unknown): error is MfaCancelledError {
  return error instanceof MfaCancelledError;
}

/** The broker's surface: `ask` for the SDK, `answer` for the bridge. */
export interface MfaBroker {
  ask(profile: string, serial: string): Promise<string>;
  answer(
    input: { action: 'submit'; promptId: string; code: string } | { action: 'cancel'; promptId: string },
  ): Result<{ accepted: boolean }>;
  /** Cancels the open prompt and everything queued (window closed, app quitting). */
  cancelAll(): void;
  /** The prompt on screen now, if any (replayed to a window that subscribes late). */
  openPrompt(): Extract<MfaPromptEvent, { type: 'prompt' }> | undefined;
}

interface Pending {
  readonly promptId: string;
  readonly profile: string;
  readonly serial: string;
  readonly resolve: (code: string) => void;
  readonly reject: (error: Error) => void;
  timer?: ReturnType<typeof setTimeout>;
}

/** Creates a broker that publishes prompts through `publish`. */
export function createMfaBroker(
  publish: (event: MfaPromptEvent) => void,
  options: { timeoutMs?: number; newId?: () => string } = {},
): MfaBroker {
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  const newId = options.newId ?? (() => randomUUID());
  const queue: Pending[] = [];
  let open: Pending | undefined;

  const close = (pending: Pending, reason: 'answered' | 'cancelled' | 'timeout'): void => {
    if (pending.timer) clearTimeout(pending.timer);
    if (open === pending) open = undefined;
    publish({ type: 'closed', promptId: pending.promptId, reason });
    showNext();
  };

  function showNext(): void {
    if (open) return;
    const next = queue.shift();
    if (!next) return;
    open = next;
    next.timer = setTimeout(() => {
      next.reject(new MfaCancelledError(next.profile, 'timeout'));
      close(next, 'timeout');
    }, timeoutMs);
    publish({ type: 'prompt', promptId: next.promptId, profile: next.profile, serial: next.serial });
  }

  return {
    ask(profile, serial) {
      return new Promise<string>((resolve, reject) => {
        queue.push({ promptId: newId(), profile, serial, resolve, reject });
        showNext();
      });
    },
    answer(input) {
      if (!open || open.promptId !== input.promptId) return err('not-found', 'This MFA prompt is no longer open.');
      const pending = open;
      if (input.action === 'submit') {
        pending.resolve(input.code);
        close(pending, 'answered');
      } else {
        pending.reject(new MfaCancelledError(pending.profile, 'cancelled'));
        close(pending, 'cancelled');
      }
      return ok({ accepted: true });
    },
    openPrompt() {
      return open ? { type: 'prompt', promptId: open.promptId, profile: open.profile, serial: open.serial } : undefined;
    },
    cancelAll() {
      const all = [...(open ? [open] : []), ...queue.splice(0)];
      open = undefined;
      for (const pending of all) {
        if (pending.timer) clearTimeout(pending.timer);
        pending.reject(new MfaCancelledError(pending.profile, 'cancelled'));
        publish({ type: 'closed', promptId: pending.promptId, reason: 'cancelled' });
      }
    },
  };
}
