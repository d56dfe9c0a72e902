/** `locksmith release`: delete the lock of a value nobody holds (the stuck handle), guarded, previewed, confirmed. */
import { CONVENTION_FLAGS, requireString, SCOPE_FLAG, scopeFlag, TABLE_FLAG } from '../args';
import type { CliCommand } from '../command';
import { keyFlag, WRITE_EXIT_CODES, WRITE_FLAGS } from './transaction-flow';
import { runTableWrite } from './write-command';

/** The release command. */
export const releaseCommand: CliCommand = {
  name: 'release',
  summary: 'Release a value: Delete its lock only if it exists, after checking that no account holds the value.',
  usage:
    "release --table T --rule R --value V [--scope ATTR=V] [--holder '<key json>'] [--lock '<key json>'] [--dry-run] [--yes] [--json] [--allow-writes]",
  flags: {
    ...TABLE_FLAG,
    rule: { type: 'string', valueName: 'R', description: 'the rule, as audit --json reports it (e.g. HANDLE)' },
    value: { type: 'string', valueName: 'V', description: 'the value to release' },
    holder: {
      type: 'string',
      valueName: 'JSON',
      description: 'the last known holder: the transaction checks it no longer holds the value',
    },
    lock: { type: 'string', valueName: 'JSON', description: "the lock's exact key, when it is not the canonical one (legacy forms)" },
    ...SCOPE_FLAG,
    ...CONVENTION_FLAGS,
    ...WRITE_FLAGS,
  },
  details: `
One TransactWriteItems: Delete the lock with attribute_exists(<hash key>) (and the owner seen on it,
with an owner attribute) + a ConditionCheck that the last known holder no longer holds the value.
DynamoDB has no "no account holds this" condition: right before sending, a consistent scan looks for
holders and refuses if one is found; the preview says what is and is not guarded.
A rule the last complete audit of the table warned about (the table contradicts the convention) is
refused (exit 1, nothing sent) unless the convention is passed as a reviewed --convention FILE; a
detected or preset convention is not enough. --dry-run still shows the request, with the warning.
${WRITE_EXIT_CODES}
Example:
  locksmith release --endpoint http://localhost:8000 --table accounts --rule HANDLE --value ada --dry-run`,
  async run({ values, io }) {
    const rule = requireString(values, 'rule', 'release');
    const value = requireString(values, 'value', 'release');
    const holder = keyFlag(values, 'holder');
    const lock = keyFlag(values, 'lock');
    const scope = scopeFlag(values, 'release');
    return runTableWrite(values, io, 'release', {
      kind: 'release',
      rule,
      value,
      ...(holder ? { holder } : {}),
      ...(lock ? { lock } : {}),
      ...(scope ? { scope } : {}),
    });
  },
};
