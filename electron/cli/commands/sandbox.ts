/** `locksmith sandbox`: the bundled DynamoDB Local with demo data, running until Ctrl+C / SIGTERM. */
import { optionalInt, optionalString } from '../args';
import type { CliCommand } from '../command';
import { EXIT_ERROR, EXIT_OK, unwrap } from '../command';

/** The sandbox command. */
export const sandboxCommand: CliCommand = {
  name: 'sandbox',
  summary: 'Run the bundled DynamoDB Local (a private database, in memory by default) seeded with demo data, until Ctrl+C.',
  usage: 'sandbox [--port P] [--data-dir D] [--no-seed]',
  connects: false,
  flags: {
    port: { type: 'string', valueName: 'P', description: 'port to listen on (default: a free one)' },
    'data-dir': { type: 'string', valueName: 'D', description: 'keep the data in this directory (default: in memory)' },
    'no-seed': { type: 'boolean', description: 'do not create the demo tables' },
  },
  details: `
Needs Java 17+ on PATH (or JAVA_HOME). Demo tables: accounts (preset uniq), users (marker),
onetable_app (onetable), each with known problems to find.
DynamoDB Local listens on every interface and has no bind option, so the sandbox is a private
database: only clients signing with its random access key id (printed at start, new per launch;
kept in --data-dir for a persistent one) and its region see the tables.
With --data-dir D, D holds the key: in locksmith-sandbox-key.json and in the database file's own
name (<KEYID>_us-east-1.db), so D is kept to you: created 0700 (tightened to 0700 when others can
read it, refused when others can write to it), its files 0600.
Example:
  locksmith sandbox --port 8000      # prints: export AWS_ACCESS_KEY_ID=… AWS_SECRET_ACCESS_KEY=… AWS_REGION=…
  (run that export line, then)
  locksmith audit --endpoint http://127.0.0.1:8000 --table accounts`,
  async run({ values, io, debug }) {
    const port = optionalInt(values, 'port', 'sandbox', 1, 65_535);
    const dataDir = optionalString(values, 'data-dir');
    const { startSandbox } = await import('../../services/sandbox/sandbox');
    const handle = unwrap(
      await startSandbox({
        ...(port !== undefined ? { port } : {}),
        ...(dataDir !== undefined ? { dataDir } : {}),
        seed: values['no-seed'] !== true,
        signal: io.signal,
        ...(debug ? { onLog: (line: string) => io.stderr(`[dynamodb-local] ${line}\n`) } : {}),
        onStatus: (status) => {
          if (status.phase === 'seeding') io.stderr(`seeding ${status.tables.join(', ')}…\n`);
        },
      }),
    );
    io.stdout(
      [
        `Sandbox running at ${handle.endpoint}`,
        `  data: ${handle.dataDir ?? 'in memory'}; seeded: ${handle.seeded.length ? handle.seeded.join(', ') : 'nothing'}`,
        `  a private database: only this key and region see its tables (for your own tools too):`,
        `  export AWS_ACCESS_KEY_ID=${handle.credentials.accessKeyId} AWS_SECRET_ACCESS_KEY=${handle.credentials.secretAccessKey} AWS_REGION=${handle.region}`,
        `  try:  locksmith audit --endpoint ${handle.endpoint} --table accounts   (after the export)`,
        '  Ctrl+C stops it.',
        '',
      ].join('\n'),
    );
    const ended = await new Promise<'signal' | 'exited'>((resolve) => {
      if (io.signal.aborted) resolve('signal');
      io.signal.addEventListener('abort', () => resolve('signal'), { once: true });
      void handle.exited.then(() => resolve('exited'));
    });
    if (ended === 'exited') {
      const exit = await handle.exited;
      io.stderr(`locksmith: DynamoDB Local stopped unexpectedly (exit ${exit.code ?? exit.signal ?? 'unknown'})\n`);
      return EXIT_ERROR;
    }
    await handle.stop();
    io.stderr('sandbox stopped\n');
    return EXIT_OK;
  },
};
