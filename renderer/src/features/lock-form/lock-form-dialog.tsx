/** The claim/release form: rule, value, account; then the preview, the typed confirmation and the outcome. */
import { useCallback, useState, type FormEvent } from 'react';
import type { TxRequest } from '../../../../shared/contract';
import type { PlainKey } from '../../../../shared/model';
import { formatKey } from '../../../../shared/plain-key';
import { useWorkspace, type LockFormSeed } from '../../workspace/workspace-context';
import { Dialog } from '../../components/dialog';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { useAuditRun } from '../inspector/audit-context';
import { OutcomePanel } from './outcome-panel';
import { PreviewPanel } from './preview-panel';
import { parseKeyInput } from './parse-key-input';
import { errorTitle, useLockForm } from './use-lock-form';
import { visibleString } from '../../../../shared/visible-text';
import { VisibleText } from '../../components/visible-text-view';

const TITLES: Readonly<Record<LockFormSeed['kind'], string>> = {
  claim: 'Claim a lock',
  release: 'Release a lock',
  'change-value': 'Change a protected value',
  'delete-account': 'Delete an account with its locks',
};

/** Opened through the workspace (`openLockForm`); closes with Esc. */
export function LockFormDialog({ seed, connectionId, table }: { seed: LockFormSeed; connectionId: string; table: string }) {
  const { connection, closeLockForm } = useWorkspace();
  const audit = useAuditRun();
  const { start: restartAudit, convention: auditConvention } = audit;
  const auditAgain = useCallback(() => restartAudit(auditConvention), [restartAudit, auditConvention]);
  const flow = useLockForm(connectionId, table, audit.convention, audit.patch, auditAgain);
  const lifecycle = seed.kind === 'change-value' || seed.kind === 'delete-account';
  const rules = audit.convention?.rules ?? [];
  const keys = audit.convention?.keys;
  const [kind, setKind] = useState(seed.kind);
  const [rule, setRule] = useState(seed.rule ?? rules[0]?.name ?? '');
  const [value, setValue] = useState(seed.value ?? '');
  const candidates = seed.candidates ?? (seed.account ? [seed.account] : []);
  const [accountIndex, setAccountIndex] = useState(0);
  const [accountText, setAccountText] = useState(seed.account ? JSON.stringify(seed.account) : '');
  const [fieldError, setFieldError] = useState<string>();
  const show = (key: PlainKey) => (keys ? formatKey(key, keys) : JSON.stringify(key));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFieldError(undefined);
    let request: TxRequest;
    if (kind === 'change-value' || kind === 'delete-account') {
      if (!seed.account) {
        setFieldError('A lifecycle fix starts from an account row.');
        return;
      }
      request =
        kind === 'delete-account'
          ? { kind: 'delete-account', account: { ...seed.account } }
          : { kind: 'change-value', account: { ...seed.account }, rule, from: seed.from ?? '', to: value };
    } else if (kind === 'claim') {
      const account = candidates.length > 0 ? candidates[accountIndex] : parseKeyInput(accountText);
      if (!account) {
        setFieldError('Give the account key as JSON, e.g. {"PK":"ACCT#a1f9c3","SK":"PROFILE"}.');
        return;
      }
      request = { kind: 'claim', rule, value, account: { ...account } };
    } else {
      // The exact lock and scope belong to the seeded value only: an edited rule or value names another lock.
      const seeded = rule === seed.rule && value === seed.value;
      request = {
        kind: 'release',
        rule,
        value,
        ...(seed.account ? { holder: { ...seed.account } } : {}),
        ...(seeded && seed.lock ? { lock: { ...seed.lock } } : {}),
        ...(seeded && seed.scope ? { scope: { ...seed.scope } } : {}),
      };
    }
    void flow.makePreview(request);
  };

  const editing = flow.step === 'edit' || flow.step === 'previewing';
  return (
    <Dialog title={TITLES[kind]} onClose={closeLockForm} testId="lock-form">
      <p className="muted">
        {table} on {connection?.label ?? connectionId} · {connection?.writable ? 'writable' : 'read-only'}
      </p>
      <form onSubmit={submit} aria-label="Transaction request">
        {lifecycle && seed.account ? (
          <p data-testid="tx-account-fixed">
            Account <VisibleText className="mono" text={show(seed.account)} />
            {kind === 'change-value' && seed.from !== undefined ? (
              <>
                {' '}
                stores <VisibleText className="mono" text={seed.from} />
              </>
            ) : null}
          </p>
        ) : null}
        <fieldset className="row" disabled={!editing} hidden={lifecycle}>
          <legend className="visually-hidden">Action</legend>
          <label className="row">
            <input type="radio" name="tx-kind" checked={kind === 'claim'} onChange={() => setKind('claim')} /> Claim
          </label>
          <label className="row">
            <input type="radio" name="tx-kind" checked={kind === 'release'} onChange={() => setKind('release')} /> Release
          </label>
        </fieldset>
        <div className="grid-2" hidden={kind === 'delete-account'}>
          <div className="field">
            <label htmlFor="tx-rule">Rule</label>
            <select id="tx-rule" value={rule} onChange={(e) => setRule(e.target.value)} disabled={!editing} required>
              {rules.map((r) => (
                <option key={r.name} value={r.name}>
                  {r.name} ({r.attribute})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="tx-value">{kind === 'change-value' ? 'New value' : 'Value'}</label>
            <input
              id="tx-value"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              disabled={!editing}
              required={kind !== 'delete-account'}
              data-testid="tx-value"
            />
          </div>
        </div>
        {kind === 'claim' ? (
          candidates.length > 0 ? (
            <div className="field">
              <label htmlFor="tx-account">Account (from the group)</label>
              <select id="tx-account" value={accountIndex} onChange={(e) => setAccountIndex(Number(e.target.value))} disabled={!editing}>
                {candidates.map((key, index) => (
                  <option key={JSON.stringify(key)} value={index}>
                    {visibleString(show(key))}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <div className="field">
              <label htmlFor="tx-account-json">Account key (JSON)</label>
              <input
                id="tx-account-json"
                className="mono"
                value={accountText}
                onChange={(e) => setAccountText(e.target.value)}
                disabled={!editing}
              />
            </div>
          )
        ) : kind === 'release' && seed.account ? (
          <p className="muted">
            Last known holder: <VisibleText text={show(seed.account)} /> (checked to no longer hold the value).
          </p>
        ) : null}
        {kind === 'release' && seed.orphanPer && rule === seed.rule && value === seed.value ? (
          <p className="alert alert-info" data-testid="tx-orphan-as-of">
            <VisibleText className="mono" text={value} /> was an orphan{' '}
            {seed.orphanPer === 'export' ? 'in the export the audit read' : 'when the audit read it'}: an account may hold it since. That is
            not checked yet: right before sending, Locksmith looks for holders again (a consistent read) and refuses the release if one is
            found.
          </p>
        ) : null}
        {fieldError ? (
          <p className="alert alert-danger" role="alert">
            {fieldError}
          </p>
        ) : null}
        {editing ? (
          <button
            type="submit"
            className="btn btn-primary"
            disabled={flow.step === 'previewing' || (kind !== 'delete-account' && (rule === '' || value === ''))}
            data-testid="tx-preview-button"
          >
            Preview
          </button>
        ) : null}
      </form>
      {flow.step === 'previewing' ? <Busy label="Building the exact request…" /> : null}
      <ErrorBox error={flow.error} title={errorTitle(flow)} />
      {flow.preview && (flow.step === 'preview' || flow.step === 'executing') ? (
        <PreviewPanel
          preview={flow.preview}
          connection={connection}
          executing={flow.step === 'executing'}
          onExecute={(confirmation) => void flow.execute(confirmation)}
          onEdit={flow.edit}
        />
      ) : null}
      {flow.step === 'outcome' && flow.outcome ? (
        <>
          <OutcomePanel outcome={flow.outcome} recheck={flow.recheck} auditsAgain={lifecycle} />
          <div className="row">
            <button type="button" className="btn" onClick={flow.edit}>
              New request
            </button>
            <button type="button" className="btn btn-primary" onClick={closeLockForm}>
              Done
            </button>
          </div>
        </>
      ) : null}
    </Dialog>
  );
}
