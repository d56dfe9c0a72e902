/**
 * `npm run fuzz:layouts [-- --runs N --seed S]`: many more generated layouts than the unit suite's
 * fixed seeds, each detected from its own table and audited; prints how many layouts were tried,
 * found (confidence 1, every lock read as written), audited exactly, and the seed and layout of
 * each failure (replay it with the same --seed).
 */
import fc from 'fast-check';
import { judgeLayout } from '../../shared/conventions/gen-judge';
import { layoutArb } from '../../shared/conventions/gen-layout';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at < 0 ? undefined : Number(process.argv[at + 1]);
  return value === undefined || !Number.isFinite(value) ? fallback : value;
}

const runs = option('runs', 1000);
const seed = option('seed', Date.now() % 1_000_000);
const show = option('show', 3);
let tried = 0;
let found = 0;
let exact = 0;
let sameTemplates = 0;
const failures: string[] = [];
const started = Date.now();
fc.sample(layoutArb, { seed, numRuns: runs }).forEach((layout, index) => {
  tried++;
  const verdict = judgeLayout(layout);
  if (verdict.found) found++;
  if (verdict.exact) exact++;
  if (verdict.sameTemplates) sameTemplates++;
  if ((!verdict.found || !verdict.exact) && failures.length < show) {
    failures.push(
      `layout #${index} of seed ${seed}: ${JSON.stringify({ keys: layout.keys, accounts: layout.accounts, rules: layout.rules, lockTag: layout.lockTag, drift: layout.drift })}\n${verdict.detail}`,
    );
  }
});
for (const f of failures) console.log(`--- failure\n${f}\n`);
console.log(
  `seed ${seed}: ${tried} layouts tried, ${found} found at confidence 1, ${exact} audited exactly, ${sameTemplates} with the layout's own templates (${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
process.exitCode = found === tried && exact === tried ? 0 : 1;
