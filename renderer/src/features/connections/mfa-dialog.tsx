/** The MFA code dialog, shown while a credential provider waits for a code. */
import { useState, type FormEvent } from 'react';
import { Dialog } from '../../components/dialog';
import { ErrorBox } from '../../components/error-box';
import { useMfaPrompts } from './use-mfa-prompts';

/** Renders nothing until main asks for a code. */
export function MfaDialog() {
  const { prompt, error, submit, cancel } = useMfaPrompts();
  const [code, setCode] = useState('');
  if (!prompt) return null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(code).then(() => setCode(''));
  };
  return (
    <Dialog title={`MFA code for ${prompt.profile}`} onClose={() => void cancel()} size="small" testId="mfa-dialog">
      <form onSubmit={onSubmit}>
        <p>
          Enter the current code of the device <code>{prompt.serial}</code>.
        </p>
        <div className="field">
          <label htmlFor="mfa-code">Six-digit code</label>
          <input
            id="mfa-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="\d{6}"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            autoFocus
          />
        </div>
        <ErrorBox error={error} title="The code was not accepted" />
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={code.length !== 6}>
            Continue
          </button>
          <button type="button" className="btn" onClick={() => void cancel()}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
