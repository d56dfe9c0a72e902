/** Allowing writes on an AWS profile or an endpoint on another machine: the profile name or the host must be typed back. */
import { useState, type FormEvent } from 'react';
import type { ConnectionView } from '../../../../shared/contract';
import type { AppError } from '../../../../shared/result';
import type { ConnectionsState } from './use-connections';
import { Dialog } from '../../components/dialog';
import { ErrorBox } from '../../components/error-box';

/** What a person must type: main says (`writeConfirm`); a profile's name otherwise (the connection id is `profile:<name>`). */
function confirmText(connection: ConnectionView): string {
  if (connection.writeConfirm !== undefined) return connection.writeConfirm;
  return connection.id.startsWith('profile:') ? connection.id.slice('profile:'.length) : connection.label;
}

/** Asks for the profile name before allowing writes; closes on success. */
export function AllowWritesDialog({
  state,
  connection,
  onClose,
}: {
  state: ConnectionsState;
  connection: ConnectionView;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<AppError>();
  const name = confirmText(connection);
  const isProfile = connection.kind === 'profile';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void state.setWritable(connection.id, true, typed).then((result) => (result.ok ? onClose() : setError(result.error)));
  };
  return (
    <Dialog title={`Allow writes on ${connection.label}`} onClose={onClose} size="small" testId="allow-writes-dialog">
      <form onSubmit={submit}>
        {isProfile ? (
          <p>
            Transactions executed through this connection change a real AWS table in <strong>{connection.region}</strong>. Type the profile
            name <code>{name}</code> to allow it.
          </p>
        ) : (
          <p>
            <span className="mono">{connection.endpoint}</span> is not on this machine: transactions executed here may change a real
            database. Type its host <code>{name}</code> to allow it.
          </p>
        )}
        <div className="field">
          <label htmlFor="allow-writes-name">{isProfile ? 'Profile name' : 'Host'}</label>
          <input id="allow-writes-name" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" autoFocus />
        </div>
        <ErrorBox error={error} title="Writes were not allowed" />
        <button type="submit" className="btn btn-danger" disabled={typed !== name}>
          Allow writes
        </button>
      </form>
    </Dialog>
  );
}
