/** The hand-written parts of docs/cli.md around the generated command sections: what `--help` cannot say. */

/** Before the command list: how to run the CLI, connections, writes, the data folder. */
export const CLI_REFERENCE_INTRO = `
\`locksmith <command> [options]\`. Every command's \`--help\` prints its section of this page.

\`bin/locksmith\` starts from a JavaScript bundle that \`npm install\` builds (\`bin/build-cli.mjs\`); from a
fresh clone, or once a source is edited, it runs the sources through tsx and rebuilds the bundle in the
background for the next run — no build step to remember: \`./bin/locksmith …\` (or \`npm link\` once, then
\`locksmith …\`).

**Connections.** Every connecting command takes \`--endpoint URL\` (DynamoDB Local or another endpoint) or
\`--profile NAME\` (AWS), and \`--region R\`; \`AWS_PROFILE\` / \`AWS_REGION\` are honoured. \`--endpoint\` signs
with \`AWS_ACCESS_KEY_ID\`/\`AWS_SECRET_ACCESS_KEY\` when set (dummy keys otherwise). A profile signs in
through the AWS SDK's own providers (static keys, SSO, assume-role with MFA on the terminal,
\`credential_process\`); how sign-in fails and what is never shown: [security.md](security.md).

**Writes.** \`--endpoint\` connections to this machine (localhost, 127.0.0.0/8, ::1) are writable; an
\`--endpoint\` on another host and \`--profile\` connections need \`--allow-writes\`. Without \`--yes\`, a terminal
asks for the value (for \`repair\`, the number of actions) to be typed back; with no terminal the command
refuses. Every write command (\`claim\`, \`release\`, \`change-value\`, \`delete-account\`, \`repair\`) says on stderr
which convention it writes with — when detected, its confidence and evidence (\`--json\`: \`"convention"\`) —
and with \`--yes\` a convention detected with confidence below 1 sends nothing (exit 1): pass a reviewed
\`--convention FILE\` or \`--preset\`. After an execute, every written item is re-read with a consistent read
and compared with what was written: "applied and verified", or the items that differ. A write whose answer
was lost and whose retries failed says **the outcome is unknown** (the request may have been applied) with
its ClientRequestToken: look the value up before trying again.

**The activity log.** Every executed transaction is appended to \`$LOCKSMITH_DATA_DIR/audit-log.jsonl\`
(default \`~/.config/locksmith/\`, mode 0600, no credentials) — the app's Activity tab. The file keeps its
first name, so logs written by earlier versions are read as they are.

**The data folder** must not be writable by others (Locksmith refuses it and prints the \`chmod 700\` fix)
and its files are never opened through symbolic links. \`audit\` remembers there the convention detection gave
(\`cache/conventions.json\`: table names and conventions, no item data): the next audit of that table starts
scanning with it, on the keys it names, at once while DescribeTable, the sample and detection run as always,
and keeps that scan only when the described keys are the convention's and detection gives exactly the same
convention — otherwise it starts again with the detected one, so the report is always the detected convention's (\`--debug\` says which).

**The sandbox** (\`locksmith sandbox\`, and \`serve\` when it starts one) is a private database: DynamoDB Local
listens on every interface and cannot be bound to loopback, so it runs without \`-sharedDb\` under a random
access key id made per launch, and prints \`export AWS_ACCESS_KEY_ID=… AWS_SECRET_ACCESS_KEY=… AWS_REGION=us-east-1\`
for your own tools; any other key sees no table. Its demo tables: [app.md](app.md#the-sandbox).

More on two commands: [watch-and-repair.md](watch-and-repair.md) (\`watch\`, \`repair\`) and
[export-audit.md](export-audit.md) (\`audit --export\`, Athena, \`export\`).
`;

/** After the commands: the audit's JSON report. */
export const CLI_REFERENCE_OUTRO = `
## The JSON report (\`audit --json\`)

Only JSON on stdout:

\`\`\`json
{
  "table": "users",
  "complete": true,
  "scanned": 600,
  "accounts": 300,
  "locks": 300,
  "summary": { "orphan-lock": 1, "missing-lock": 1, "duplicate-value": 0, "owner-mismatch": 0, "malformed-lock": 0 },
  "convention": { "preset": "marker", "keys": { "hash": { "name": "userId", "type": "S" } },
                  "account": { "kind": "not-lock" },
                  "rules": [{ "name": "NAME", "attribute": "name", "lockKeys": [{ "hash": "NAME#{value}" }], "normalize": ["nfc"] }],
                  "lockPrefixes": [] },
  "problems": [
    { "kind": "orphan-lock", "rule": "NAME", "value": "박지훈", "lock": { "userId": "NAME#박지훈" } },
    { "kind": "missing-lock", "rule": "NAME", "value": "최유나", "accounts": [{ "userId": "6f1c2a9e-0b7d-4e53-9a41-1d2b3c4d5e05" }] }
  ]
}
\`\`\`

- \`complete\` is \`false\` (and the exit code 2) when any scan segment failed or the audit was cancelled;
  \`reason\` then says why.
- Keys (\`lock\`, \`accounts[]\`) are objects of the table's key attributes with plain values (S → string,
  N → number, B → base64).
- Problems are sorted by kind, rule, value. \`reason\` explains malformed locks and owner mismatches; for a
  scoped rule a problem also names its \`scope\` (\`"scope": {"orgId": "acme"}\`).
- Problem kinds: \`orphan-lock\` (a lock no account holds — the stuck handle), \`missing-lock\` (an account
  holds a value no lock protects), \`duplicate-value\` (two or more accounts hold one value),
  \`owner-mismatch\` (the lock names an account that does not hold the value while another does; only with
  an owner attribute), \`malformed-lock\` (a lock key that cannot be read). What each means in detail:
  [conventions.md](conventions.md#problem-kinds).
- From an export (\`--export\`), the same report plus \`source\` and, when confirmed against the live table,
  \`stale\`: [export-audit.md](export-audit.md).
`;
