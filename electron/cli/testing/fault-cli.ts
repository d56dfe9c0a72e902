/**
 * The CLI with a fault injected into one command's run, for the exit-code tests:
 * `node --import tsx fault-cli.ts <throw|reject|sync> <command> [args…]`. The command really starts
 * (its module loads, its run begins with the arguments given); then an exception nothing catches is
 * thrown from a timer (`throw`), a promise nobody awaits rejects (`reject`), or its run throws (`sync`).
 * The process must end as bin/locksmith ends it: exit 2 and one line.
 */
import { COMMANDS } from '../registry';
import { runProcess } from '../main';

const [fault, name, ...rest] = process.argv.slice(2);
const entry = COMMANDS.find((c) => c.name === name);
if (!entry || !fault) throw new Error(`usage: fault-cli <throw|reject|sync> <command> [args…]`);
const load = entry.load;
(entry as { load: typeof load }).load = async () => {
  const command = await load();
  return {
    ...command,
    run: async (context) => {
      const running = command.run(context);
      // Its own outcome does not matter here: the fault is what the process must survive to report.
      running.catch(() => undefined);
      const injected = new Error(`injected into ${name}\n    a second line that must not be printed`);
      if (fault === 'sync') throw injected;
      if (fault === 'throw')
        setImmediate(() => {
          throw injected;
        });
      else void Promise.reject(injected);
      // Never resolves: only the process guard can end the run.
      return new Promise<number>(() => undefined);
    },
  };
};
const code = await runProcess([name!, ...rest]);
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
