/** The write interlock's banner: rules the table contradicts, and what that means for repairs and the lock form. */
import type { ConventionWarning } from '../../../../shared/audit/fit';

/** Shows each rule the audit found the table contradicts (nothing when there is none). */
export function ConventionWarnings({ warnings }: { warnings: readonly ConventionWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="alert alert-danger" role="alert" data-testid="convention-warnings">
      <div className="alert-title">The convention does not explain this table for {warnings.map((w) => w.rule).join(', ')}</div>
      <ul>
        {warnings.map((w) => (
          <li key={w.rule} data-testid="convention-warning" data-rule={w.rule} data-kind={w.kind}>
            {w.message}.
          </li>
        ))}
      </ul>
      <p>
        Its problems below are read through a convention the data contradicts. Repairs leave these rules to a person, and the lock form
        claims or releases their values only under a convention saved for this table in the Convention tab (reviewed). Fix the convention
        there and audit again.
      </p>
    </div>
  );
}
