/** MFA code prompts from credential providers: one at a time, answered or cancelled from a dialog. */
import { useCallback, useEffect, useState } from 'react';
import type { MfaPromptEvent } from '../../../../shared/contract';
import type { AppError } from '../../../../shared/result';
import { useBridge } from '../../bridge/bridge-context';

/** The open prompt (if any) and how to answer it. */
export interface MfaPrompts {
  readonly prompt: Extract<MfaPromptEvent, { type: 'prompt' }> | undefined;
  readonly error: AppError | undefined;
  readonly submit: (code: string) => Promise<void>;
  readonly cancel: () => Promise<void>;
}

/** Listens on `mfa.prompts`; the code goes to main and is never kept here after sending. */
export function useMfaPrompts(): MfaPrompts {
  const bridge = useBridge();
  const [prompt, setPrompt] = useState<MfaPrompts['prompt']>();
  const [error, setError] = useState<AppError>();

  useEffect(
    () =>
      bridge.subscribe('mfa.prompts', {}, (event) => {
        if (event.type === 'prompt') {
          setError(undefined);
          setPrompt(event);
        } else {
          setPrompt((open) => (open?.promptId === event.promptId ? undefined : open));
        }
      }),
    [bridge],
  );

  const submit = useCallback(
    async (code: string) => {
      if (!prompt) return;
      const result = await bridge.call('mfa.answer', { action: 'submit', promptId: prompt.promptId, code });
      if (!result.ok) setError(result.error);
      else setPrompt(undefined);
    },
    [bridge, prompt],
  );
  const cancel = useCallback(async () => {
    if (!prompt) return;
    await bridge.call('mfa.answer', { action: 'cancel', promptId: prompt.promptId });
    setPrompt(undefined);
  }, [bridge, prompt]);
  return { prompt, error, submit, cancel };
}
