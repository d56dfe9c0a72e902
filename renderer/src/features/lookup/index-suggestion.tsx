/** The GSI that would make a rule's lookup one Query, shown where the lookup had to scan or lean on an audit. */
import type { SuggestedIndexView } from '../../../../shared/contract';
import { CopyButton } from '../../components/copy-button';

/** The exact `aws dynamodb update-table` to run (nothing is created from here), with its caveats. */
export function IndexSuggestion({ rule, suggestion }: { rule: string; suggestion: SuggestedIndexView }) {
  return (
    <details className="field-hint" data-testid="lookup-suggested-index">
      <summary>
        Make this lookup instant: add the GSI <span className="mono">{suggestion.indexName}</span> on {suggestion.attribute}
      </summary>
      <p>
        Without an index on {suggestion.attribute}, finding who holds a {rule} value reads the whole table (or the last audit). Run this
        yourself; building the index reads the table once:
      </p>
      <pre className="mono" data-testid="lookup-suggested-command">
        {suggestion.awsCli}
      </pre>
      <CopyButton text={suggestion.awsCli} label="Copy the command" />
      {suggestion.notes.length > 0 ? (
        <ul>
          {suggestion.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}
