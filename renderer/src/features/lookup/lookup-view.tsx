/** The Lookup tab: one value in, a verdict per rule out, with the lock, its holder(s) and the fitting action. */
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { MethodArgs } from '../../../../shared/contract';
import { MAX_VALUE_LENGTH } from '../../../../shared/contract/arg-limits';
import { useWorkspace } from '../../workspace/workspace-context';
import { useAction } from '../../bridge/use-method';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { useAuditRun } from '../inspector/audit-context';
import { holderSearchText } from './holder-search';
import { RuleVerdict } from './rule-verdict';

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
