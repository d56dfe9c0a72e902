/** The Lookup tab: one value in, a verdict per rule out, with the lock, its holder(s) and the fitting action. */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { LookupRuleView, MethodArgs } from '../../../../shared/contract';
import { MAX_VALUE_LENGTH } from '../../../../shared/contract/arg-limits';
import type { KeySchema, PlainKey } from '../../../../shared/model';
import { ItemViewer } from '../inspector/item-viewer';
import { formatKey } from '../../../../shared/plain-key';
import { useWorkspace } from '../../workspace/workspace-context';
import { useAction } from '../../bridge/use-method';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { useAuditRun } from '../inspector/audit-context';
import { holderSearchText } from './holder-search';
import { VerdictChip } from './verdict';
import { IndexSuggestion } from './index-suggestion';
import { VisibleText } from '../../components/visible-text-view';
import { releaseGate } from './release-gate';

/** The id of the lookup input, focused by Ctrl/⌘+K. */
export const LOOKUP_INPUT_ID = 'lookup-input';

/** Looks a value up in the selected table. */
export function LookupView({ connectionId, table }: { connectionId: string; table: string }) {
  const { lookupRequest } = useWorkspace();
  const lookupValue = lookupRequest.value;
  const audit = useAuditRun();
  const lookup = useAction('lookup.run');
  const [value, setValue] = useState(lookupValue);
  const [rule, setRule] = useState('');
  // Scoped rules (unique within an org…): one optional field per scope attribute; empty = every scope.
  const [scope, setScope] = useState<Record<string, string>>({});
  const inputRef = useRef<HTMLInputElement>(null);
  const rules = audit.convention?.rules ?? [];
  const scopeAttributes = [...new Set(rules.flatMap((r) => Object.values(r.scope ?? {})))];
  const { run, reset } = lookup;
  const [tooLong, setTooLong] = useState<number>();
  // The last lookup shown: re-run after every write to this table, so the card never shows a verdict
  // the write made false (a released orphan still offering Release).
  const lastArgsRef = useRef<MethodArgs<'lookup.run'>>(undefined);
  const show = useCallback(
    (args: MethodArgs<'lookup.run'>) => {
      lastArgsRef.current = args;
      void run(args);
    },
    [run],
  );
  const writes = audit.rechecks.length;
  useEffect(() => {
    if (writes > 0 && lastArgsRef.current) void run(lastArgsRef.current);
  }, [writes, run]);
  // Read through a ref: a new convention object must not re-run a hand-over lookup.
  const conventionRef = useRef(audit.convention);
  useEffect(() => {
    conventionRef.current = audit.convention;
  }, [audit.convention]);

  // A value handed over (from the inspector or the decoder) is looked up at once. Ctrl/⌘+K on an open
  // Lookup only focuses the input: resetting it here would wipe what the user typed since (a race).
  const handed = lookupRequest.handed;
  const mountedRef = useRef(false);
  useEffect(() => {
    const opened = mountedRef.current;
    mountedRef.current = true;
    inputRef.current?.focus();
    if (opened && !handed) return;
    setValue(lookupValue);
    const convention = conventionRef.current;
    if (lookupValue.trim() !== '' && lookupValue.length <= MAX_VALUE_LENGTH)
      show({ connectionId, table, value: lookupValue, ...(convention ? { convention } : {}) });
  }, [lookupValue, lookupRequest.seq, handed, connectionId, table, show]);

  // An answer from an audit's index cannot see accounts written since: the same lookup again, by a scan.
  const confirm = useCallback(() => {
    if (lastArgsRef.current) show({ ...lastArgsRef.current, confirm: true });
  }, [show]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTooLong(undefined);
    if (value.trim() === '' || value.length > MAX_VALUE_LENGTH) {
      // An empty lookup clears the result (an old verdict must not sit under an empty box).
      lastArgsRef.current = undefined;
      reset();
      if (value.length > MAX_VALUE_LENGTH) setTooLong(value.length);
      return;
    }
    const given = Object.fromEntries(Object.entries(scope).filter(([k, v]) => v !== '' && scopeAttributes.includes(k)));
    show({
      connectionId,
      table,
      value,
      ...(rule ? { rule } : {}),
      ...(Object.keys(given).length > 0 ? { scope: given } : {}),
      ...(audit.convention ? { convention: audit.convention } : {}),
    });
  };

  return (
    <div className="stack" data-testid="lookup">
      <form onSubmit={submit} className="row" role="search" aria-label="Look up a value">
        <label htmlFor={LOOKUP_INPUT_ID}>Value</label>
        <input
          id={LOOKUP_INPUT_ID}
          ref={inputRef}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="ada or ada@lovelace.io"
          autoComplete="off"
          data-testid="lookup-input"
        />
        <label htmlFor="lookup-rule">Rule</label>
        <select id="lookup-rule" value={rule} onChange={(e) => setRule(e.target.value)}>
          <option value="">every rule</option>
          {rules.map((r) => (
            <option key={r.name} value={r.name}>
              {r.name}
            </option>
          ))}
        </select>
        {scopeAttributes.map((attribute) => (
          <span key={attribute} className="row">
            <label htmlFor={`lookup-scope-${attribute}`}>{attribute}</label>
            <input
              id={`lookup-scope-${attribute}`}
              value={scope[attribute] ?? ''}
              onChange={(e) => setScope((s) => ({ ...s, [attribute]: e.target.value }))}
              placeholder="every scope"
              autoComplete="off"
              data-testid={`lookup-scope-${attribute}`}
            />
          </span>
        ))}
        <button type="submit" className="btn btn-primary" disabled={lookup.pending}>
          Look up
        </button>
      </form>
      {lookup.pending ? <Busy label="Looking up (consistent reads; a scan when no index fits)…" /> : null}
      {tooLong !== undefined ? (
        <p className="alert alert-warn" role="alert" data-testid="lookup-too-long">
          This value is {tooLong.toLocaleString('en-US')} characters long; a lock key holds at most{' '}
          {MAX_VALUE_LENGTH.toLocaleString('en-US')}, so no lock can protect it. Check what was pasted.
        </p>
      ) : null}
      <ErrorBox error={lookup.error} title="The lookup failed" />
      {lookup.data && !lookup.pending ? (
        <div className="stack" data-testid="lookup-result">
          <p className="muted">Holders found through {holderSearchText(lookup.data)}.</p>
          {lookup.data.complete === false ? (
            <div className="alert alert-warn" role="alert" data-testid="lookup-incomplete">
              <div className="alert-title">Provisional: the search for holders did not finish</div>
              <p>{lookup.data.reason ?? 'The holder scan stopped early.'} A value shown as free or orphan may still be held.</p>
            </div>
          ) : null}
          {lookup.data.rules.map((r) => (
            <RuleVerdict
              key={`${r.rule}|${JSON.stringify(r.scope ?? null)}`}
              rule={r}
              complete={lookup.data?.complete}
              keys={audit.convention?.keys}
              onConfirm={confirm}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** A key shown as a link that opens the item (read fresh) in the item viewer. */
function ItemLink({ itemKey, keys, text, testId }: { itemKey: PlainKey; keys: KeySchema | undefined; text: string; testId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn-link mono" onClick={() => setOpen(true)} data-testid={testId} title="Open this item">
        <VisibleText text={text} />
      </button>
      {open && keys ? <ItemViewer itemKey={itemKey} keys={keys} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function RuleVerdict({
  rule,
  complete,
  keys,
  onConfirm,
}: {
  rule: LookupRuleView;
  complete: boolean | undefined;
  keys: KeySchema | undefined;
  onConfirm: () => void;
}) {
  const { openLockForm } = useWorkspace();
  const release = releaseGate(rule, complete);
  const releaseWhyId = useId();
  const show = (key: Parameters<typeof formatKey>[0]) => (keys ? formatKey(key, keys) : JSON.stringify(key));
  return (
    <div className="panel" data-testid={`lookup-rule-${rule.rule}`}>
      <div className="panel-title">
        <h3>{rule.rule}</h3>
        <VisibleText className="mono" text={rule.normalized} />
        {rule.scope ? (
          <span className="muted" data-testid="lookup-scope">
            in{' '}
            <VisibleText
              text={Object.entries(rule.scope)
                .map(([k, v]) => `${k}=${v}`)
                .join(', ')}
            />
          </span>
        ) : null}
        <VerdictChip verdict={rule.verdict} asOfAudit={rule.asOfAudit} />
      </div>
      {rule.asOfAudit !== undefined ? (
        <p className="alert alert-warn" data-testid="lookup-as-of-audit">
          Holders come from the audit of {rule.asOfAudit}, each re-read by key; an account another client wrote since is not seen.{' '}
          <button type="button" className="btn btn-small" onClick={onConfirm} data-testid="lookup-confirm-scan">
            Confirm with a scan
          </button>
        </p>
      ) : null}
      {rule.byIndex !== undefined && rule.holders.length === 0 ? (
        <p className="alert alert-info" data-testid="lookup-index-no-holder">
          Index <VisibleText className="mono" text={rule.byIndex} /> found no holder; an index is eventually consistent and finds the stored
          spelling only.{' '}
          <button type="button" className="btn btn-small" onClick={onConfirm} data-testid="lookup-confirm-index">
            Confirm with a scan
          </button>
        </p>
      ) : null}
      <dl className="facts">
        <dt>Lock</dt>
        <dd className="mono">
          {rule.lock ? <ItemLink itemKey={rule.lock} keys={keys} text={show(rule.lock)} testId="lookup-lock-link" /> : 'none'}
        </dd>
        {rule.owner ? (
          <>
            <dt>Owner on the lock</dt>
            <dd className="mono">
              <VisibleText text={rule.owner} />
            </dd>
          </>
        ) : null}
        <dt>Holder(s)</dt>
        <dd className="mono">
          {rule.holders.length === 0
            ? 'nobody'
            : rule.holders.map((holder, i) => (
                <span key={JSON.stringify(holder)}>
                  {i > 0 ? ', ' : null}
                  <ItemLink itemKey={holder} keys={keys} text={show(holder)} testId="lookup-holder-link" />
                </span>
              ))}
        </dd>
      </dl>
      {rule.notes && rule.notes.length > 0 ? (
        <ul className="field-hint">
          {rule.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      {rule.suggestedIndex ? <IndexSuggestion rule={rule.rule} suggestion={rule.suggestedIndex} /> : null}
      <div className="row">
        {release.offer !== 'none' ? (
          // Unconfirmed: shown disabled with its reason, so the way to a release (a scan) stays visible.
          <button
            type="button"
            className="btn btn-primary"
            disabled={release.offer === 'unconfirmed'}
            aria-describedby={release.offer === 'unconfirmed' ? releaseWhyId : undefined}
            onClick={() =>
              openLockForm({
                kind: 'release',
                rule: rule.rule,
                value: rule.normalized,
                ...(rule.lock ? { lock: rule.lock } : {}),
                ...(rule.scope ? { scope: rule.scope } : {}),
              })
            }
            data-testid="action-release"
          >
            Release the orphan lock…
          </button>
        ) : null}
        {release.offer === 'unconfirmed' ? (
          <p className="muted" id={releaseWhyId} data-testid="action-release-why">
            {release.reason}
          </p>
        ) : null}
        {rule.verdict === 'unprotected' ? (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() =>
              openLockForm({ kind: 'claim', rule: rule.rule, value: rule.normalized, account: rule.holders[0], candidates: rule.holders })
            }
            data-testid="action-claim"
          >
            Claim the missing lock…
          </button>
        ) : null}
        {rule.verdict === 'duplicate' ? (
          <p className="muted">Several accounts hold this value: decide which keeps it before changing locks.</p>
        ) : null}
      </div>
    </div>
  );
}
