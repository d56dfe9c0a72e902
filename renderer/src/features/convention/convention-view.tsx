/** The Convention tab: the detected convention with its evidence, the rule editor, save per table, re-run. */
import { useState } from 'react';
import type { Convention } from '../../../../shared/model';
import { useAction, useQuery } from '../../bridge/use-method';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { useAuditRun } from '../inspector/audit-context';
import { RuleEditor } from './rule-editor';
import { applyDrafts, draftErrors, toDraft, type RuleDraft } from './rule-draft';
import { checkAgainstSample } from './sample-check';
import type { SampleDigest } from '../../../../shared/contract';

/** Shows and edits the convention of the selected table. */
export function ConventionView({ connectionId, table }: { connectionId: string; table: string }) {
  const audit = useAuditRun();
  const detected = useQuery('conventions.detect', { connectionId, table });
  const saved = useQuery('conventions.get', { connectionId, table });
  // "Reset to detected" swaps the editor's starting point for the detection (the editor remounts on it).
  const [fromDetected, setFromDetected] = useState(0);
  const base: Convention | undefined =
    fromDetected > 0 ? detected.data?.convention : (saved.data?.convention ?? audit.convention ?? detected.data?.convention);
  return (
    <div className="stack" data-testid="convention">
      <div className="panel">
        <h2>Detected convention</h2>
        {detected.loading ? <Busy label="Sampling the table to detect its convention…" /> : null}
        <ErrorBox error={detected.error} title="Detection failed" />
        {detected.data ? (
          <>
            <p>
              Preset <strong data-testid="detected-preset">{detected.data.convention.preset}</strong> from a sample of{' '}
              {detected.data.sampled} items.
            </p>
            <ul data-testid="detection-evidence">
              {detected.data.evidence.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        ) : null}
        <p className="muted">
          {saved.data?.convention
            ? 'A saved convention is used for this table.'
            : 'No convention saved for this table: the detected one is used.'}
        </p>
      </div>
      {base ? (
        <ConventionEditor
          key={`${fromDetected}:${JSON.stringify(base)}`}
          base={base}
          sample={detected.data?.sample}
          canReset={detected.data !== undefined}
          onReset={() => setFromDetected((n) => n + 1)}
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
  sample,
  canReset,
  onReset,
  connectionId,
  table,
  onSaved,
  onRerun,
}: {
  base: Convention;
  sample: SampleDigest | undefined;
  canReset: boolean;
  onReset: () => void;
  connectionId: string;
  table: string;
  onSaved: () => void;
  onRerun: (convention: Convention) => void;
}) {
  const [rerunAsked, setRerunAsked] = useState(false);
  const [drafts, setDrafts] = useState<readonly RuleDraft[]>(() => base.rules.map(toDraft));
  const [owner, setOwner] = useState(base.ownerAttribute ?? '');
  const save = useAction('conventions.save');
  const errors = drafts.flatMap((d) => draftErrors(d, base.keys.range !== undefined));
  const convention = applyDrafts(base, drafts, owner);
  const checks = errors.length === 0 ? checkAgainstSample(convention, sample) : [];
  const update = (index: number, draft: RuleDraft) => setDrafts((all) => all.map((d, i) => (i === index ? draft : d)));
  const addRule = () =>
    setDrafts((all) => [
      ...all,
      { name: '', attribute: '', template: '{value}', range: base.keys.range ? 'LOCK' : '', normalize: [], legacy: [], scope: {} },
    ]);
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
        <RuleEditor
          key={index}
          index={index}
          draft={draft}
          hasRange={base.keys.range !== undefined}
          check={checks[index]}
          onChange={(d) => {
            setRerunAsked(false);
            update(index, d);
          }}
          onRemove={() => removeRule(index)}
        />
      ))}
      <button type="button" className="btn btn-small" onClick={addRule}>
        Add a rule
      </button>
      <div className="field">
        <label htmlFor="owner-attribute">Owner attribute on lock items (optional)</label>
        <input id="owner-attribute" value={owner} onChange={(e) => setOwner(e.target.value)} placeholder="e.g. owner" />
      </div>
      {errors.length > 0 ? (
        <p className="field-error" role="alert">
          {errors.length === 1 ? 'One field needs attention' : `${errors.length} fields need attention`} (marked above) before these rules
          can be saved or run.
        </p>
      ) : null}
      <ErrorBox error={save.error} title="Could not save the convention" />
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={errors.length > 0 || save.pending}
          onClick={() => void save.run({ connectionId, table, convention }).then((r) => r.ok && onSaved())}
        >
          Save for {table}
        </button>
        {save.data && !save.pending ? (
          <span role="status" data-testid="convention-saved">
            Saved for {table}.
          </span>
        ) : null}
        <button
          type="button"
          className="btn"
          disabled={errors.length > 0}
          onClick={() => {
            setRerunAsked(true);
            onRerun(convention);
          }}
        >
          Re-run the audit with these rules
        </button>
        {rerunAsked ? (
          <span role="status" data-testid="convention-rerun">
            Re-running the audit with these rules: see the Inspector tab.
          </span>
        ) : null}
        <span className="spacer" />
        <button type="button" className="btn" disabled={!canReset} onClick={onReset} data-testid="convention-reset">
          Reset to detected
        </button>
      </div>
    </div>
  );
}
