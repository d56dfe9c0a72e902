/** The Convention tab: the detected convention with its evidence, the rule editor, save per table, re-run. */
import { useState } from 'react';
import type { Convention } from '../../../../shared/model';
import { useAction, useQuery } from '../../bridge/use-method';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { useAuditRun } from '../inspector/audit-context';
import { RuleEditor } from './rule-editor';
import { applyDrafts, draftErrors, toDraft, type RuleDraft } from './rule-draft';

/** Shows and edits the convention of the selected table. */
export function ConventionView({ connectionId, table }: { connectionId: string; table: string }) {
  const audit = useAuditRun();
  const detected = useQuery('conventions.detect', { connectionId, table });
  const saved = useQuery('conventions.get', { connectionId, table });
  const base: Convention | undefined = saved.data?.convention ?? audit.convention ?? detected.data?.convention;
  return (
    <div className="stack" data-testid="convention">
      <div className="panel">
        <h2>Detected convention</h2>
        {detected.loading ? <Busy label="Sampling the table to detect its convention…" /> : null}
        <ErrorBox error={detected.error} title="Detection failed" />
        {detected.data ? (
          <>
            <p>
              Preset <strong data-testid="detected-preset">{detected.data.convention.preset}</strong> from a sample of {detected.data.sampled} items.
            </p>
            <ul data-testid="detection-evidence">
              {detected.data.evidence.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        ) : null}
        <p className="muted">{saved.data?.convention ? 'A saved convention is used for this table.' : 'No convention saved for this table: the detected one is used.'}</p>
      </div>
      {base ? (
        <ConventionEditor
          key={JSON.stringify(base)}
          base={base}
          connectionId={connectionId}
          table={table}
          onSaved={saved.reload}
          onRerun={(convention) => audit.start(convention)}
        />
      ) : null}
    </div>
  );
}

function ConventionEditor({
  base,
  connectionId,
  table,
  onSaved,
  onRerun,
}: {
  base: Convention;
  connectionId: string;
  table: string;
  onSaved: () => void;
  onRerun: (convention: Convention) => void;
}) {
  const [drafts, setDrafts] = useState<readonly RuleDraft[]>(() => base.rules.map(toDraft));
  const [owner, setOwner] = useState(base.ownerAttribute ?? '');
  const save = useAction('conventions.save');
  const errors = drafts.flatMap((d) => draftErrors(d, base.keys.range !== undefined));
  const convention = applyDrafts(base, drafts, owner);
  const update = (index: number, draft: RuleDraft) => setDrafts((all) => all.map((d, i) => (i === index ? draft : d)));
  const addRule = () =>
    setDrafts((all) => [...all, { name: '', attribute: '', template: '{value}', range: base.keys.range ? 'LOCK' : '', normalize: [], legacy: [], scope: {} }]);
  const removeRule = (index: number) => setDrafts((all) => all.filter((_, i) => i !== index));

  return (
    <div className="panel">
      <h2>Rules</h2>
      <p className="muted">
        Keys: <span className="mono">{base.keys.hash.name}</span>
        {base.keys.range ? (
          <>
            {' '}
            + <span className="mono">{base.keys.range.name}</span>
          </>
        ) : null}
        . Lock prefixes: <span className="mono">{base.lockPrefixes.join(', ') || 'none'}</span>
      </p>
      {drafts.map((draft, index) => (
        <RuleEditor key={index} index={index} draft={draft} hasRange={base.keys.range !== undefined} onChange={(d) => update(index, d)} onRemove={() => removeRule(index)} />
      ))}
      <button type="button" className="btn btn-small" onClick={addRule}>
        Add a rule
      </button>
      <div className="field">
        <label htmlFor="owner-attribute">Owner attribute on lock items (optional)</label>
        <input id="owner-attribute" value={owner} onChange={(e) => setOwner(e.target.value)} placeholder="e.g. owner" />
      </div>
      {errors.length > 0 ? (
        <ul className="alert alert-danger" role="alert">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
      <ErrorBox error={save.error} title="Could not save the convention" />
      {save.data && !save.pending ? <p role="status">Saved for {table}.</p> : null}
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={errors.length > 0 || save.pending}
          onClick={() => void save.run({ connectionId, table, convention }).then((r) => r.ok && onSaved())}
        >
          Save for {table}
        </button>
        <button type="button" className="btn" disabled={errors.length > 0} onClick={() => onRerun(convention)}>
          Re-run the audit with these rules
        </button>
      </div>
    </div>
  );
}
