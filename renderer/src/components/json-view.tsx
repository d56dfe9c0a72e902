/** Highlighted, copyable JSON built from React elements (values are text, never markup). */
import { useMemo } from 'react';
import { tokenizeJson } from './json-tokens';
import { CopyButton } from './copy-button';
import { escapeHiddenInJson } from '../../../shared/visible-text';

/** Shows `value` as pretty JSON with syntax colours and a Copy button. */
export function JsonView({ value, label, testId }: { value: unknown; label: string; testId?: string }) {
  const text = useMemo(() => escapeHiddenInJson(JSON.stringify(value, null, 2) ?? 'undefined'), [value]);
  const tokens = useMemo(() => tokenizeJson(text), [text]);
  return (
    <div className="stack">
      <div className="row">
        <span className="section-title">{label}</span>
        <span className="spacer" />
        <CopyButton text={text} label={`Copy ${label}`} />
      </div>
      <pre className="json" tabIndex={0} aria-label={label} data-testid={testId}>
        {tokens.map((token, index) =>
          token.kind === 'punct' ? (
            token.text
          ) : (
            <span key={index} className={`json-${token.kind}`}>
              {token.text}
            </span>
          ),
        )}
      </pre>
    </div>
  );
}
