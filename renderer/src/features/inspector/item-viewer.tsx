/** The item viewer: one item as DynamoDB JSON or plain JSON, read fresh from the table. */
import { useState } from 'react';
import type { KeySchema, PlainKey } from '../../../../shared/model';
import { formatKey } from '../../../../shared/plain-key';
import { useWorkspace } from '../../workspace/workspace-context';
import { useQuery } from '../../bridge/use-method';
import { Dialog } from '../../components/dialog';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { JsonView } from '../../components/json-view';

/** Opens as a dialog; Esc or Close closes it. */
export function ItemViewer({
  itemKey,
  keys,
  onClose,
  table: other,
}: {
  itemKey: PlainKey;
  keys: KeySchema;
  onClose: () => void;
  table?: string;
}) {
  const workspace = useWorkspace();
  const { connection } = workspace;
  // A lock of a convention with a lock table lives there, not in the selected table.
  const table = other ?? workspace.table;
  const [format, setFormat] = useState<'dynamo' | 'plain'>('dynamo');
  const item = useQuery('items.get', connection && table ? { connectionId: connection.id, table, key: { ...itemKey } } : null);
  return (
    <Dialog title={`Item ${formatKey(itemKey, keys)}${other ? ` in ${other}` : ''}`} onClose={onClose} testId="item-viewer">
      <div className="segmented" role="group" aria-label="Item format">
        <button type="button" aria-pressed={format === 'dynamo'} onClick={() => setFormat('dynamo')}>
          DynamoDB JSON
        </button>
        <button type="button" aria-pressed={format === 'plain'} onClick={() => setFormat('plain')}>
          Plain
        </button>
      </div>
      {item.loading ? <Busy label="Reading the item…" /> : null}
      <ErrorBox error={item.error} title="Could not read the item" />
      {item.data && !item.data.found ? <div className="alert alert-warn">This item no longer exists.</div> : null}
      {item.data?.found ? (
        <JsonView
          value={format === 'dynamo' ? item.data.dynamo : item.data.plain}
          label={format === 'dynamo' ? 'DynamoDB JSON' : 'Plain JSON'}
          testId="item-json"
        />
      ) : null}
    </Dialog>
  );
}
