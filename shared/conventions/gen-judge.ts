/**
 * Judging detection and the audit against a generated layout: the table is detected from its own
 * items, the detected convention must read every lock exactly as the layout's writer wrote it (and
 * every planted malformed key as malformed), with confidence 1, and the audit under it must report
 * exactly the planted problems. Pure; used by the property tests and the fuzz run. Test support only.
 */
import { AuditEngine } from '../audit/engine';
import type { Convention, Problem } from '../model';
import { classifyItem } from './classify';
import { detectConvention } from './detect';
import { conventionToFile, parseConventionFile } from './file';
import type { GenLayout } from './gen-layout';
import { buildTable, type PlantedProblem } from './gen-table';

/** The verdict on one generated layout. */
export interface Judgement {
  /** Detected at confidence 1, reading every written lock as written. */
  readonly found: boolean;
  /** The audit under the detected convention reports exactly the planted problems. */
  readonly exact: boolean;
  /** Every rule's first lock key is the layout's own template. */
  readonly sameTemplates: boolean;
  /** What went wrong, for a failing case's message. */
  readonly detail: string;
  readonly convention?: Convention;
}

const line = (p: PlantedProblem): string => `${p.kind}|${p.attribute ?? ''}|${p.value}`;

/** The planted problems as sorted lines, comparable with asPlanted's. */
export const plantedLines = (problems: readonly PlantedProblem[]): string[] => problems.map(line).sort();

/** The audit's problems in the planted problems' terms, sorted (rule → attribute; a malformed lock by its key text). */
export function asPlanted(convention: Convention, problems: readonly Problem[]): string[] {
  return problems
    .map((p) =>
      p.kind === 'malformed-lock'
        ? `${p.kind}||${p.value}`
        : `${p.kind}|${convention.rules.find((r) => r.name === p.rule)?.attribute ?? `?${p.rule ?? ''}`}|${p.value}`,
    )
    .sort();
}

/** Detects and audits the table of `layout`, and says how it went. */
export function judgeLayout(layout: GenLayout): Judgement {
  const table = buildTable(layout);
  const detected = detectConvention(layout.keys, table.items);
  if (!detected.ok) return { found: false, exact: false, sameTemplates: false, detail: `not detected: ${detected.error.message}` };
  const { convention, confidence, evidence } = detected.value;
  const wrong: string[] = [];
  if (confidence !== 1) wrong.push(`confidence ${confidence}`);
  for (const lock of table.locks) {
    const c = classifyItem(convention, lock.item);
    const rule = c.kind === 'lock' ? convention.rules[c.ruleIndex] : undefined;
    const scopeOk = lock.scope === undefined || (c.kind === 'lock' && c.scope?.[0] === lock.scope);
    if (c.kind !== 'lock' || rule?.attribute !== lock.attribute || c.value !== lock.written || !scopeOk) {
      wrong.push(`lock ${JSON.stringify(lock.item)} read as ${JSON.stringify(c)}`);
      break;
    }
  }
  // What the library writes on its locks is learned too (an owner pointer; the value as held, written back by a repair).
  if (layout.lockCarries === 'owner' && convention.ownerAttribute !== 'owner')
    wrong.push(`owner attribute not found (${convention.ownerAttribute ?? 'none'})`);
  if (layout.lockCarries === 'raw' && !convention.rules.every((r) => r.lockItem?.value === '{raw}' || r.lockItem?.value === '{value}'))
    wrong.push('the `value` each lock carries was not learned');
  // What detection proposes must load back as it is: a file the loader refuses or reads otherwise is no proposal.
  const reloaded = parseConventionFile(JSON.parse(JSON.stringify(conventionToFile(convention))), layout.keys);
  if (!reloaded.ok) wrong.push(`the detected convention does not load back: ${reloaded.error.message}`);
  else if (JSON.stringify(reloaded.value) !== JSON.stringify(convention))
    wrong.push(`the detected convention loads back as ${JSON.stringify(reloaded.value)}`);
  for (const item of table.malformed) {
    if (classifyItem(convention, item).kind !== 'malformed') wrong.push(`malformed ${JSON.stringify(item)} not read as malformed`);
  }
  for (const account of table.accounts) {
    if (classifyItem(convention, account).kind !== 'account') {
      wrong.push(`account ${JSON.stringify(account)} not read as an account`);
      break;
    }
  }
  // Scope placeholders compare by the attribute they stand for (`{scope}` of a preset is `{orgId}` here).
  const named = (t: string | undefined, scope: Readonly<Record<string, string>> | undefined): string | undefined =>
    t?.replace(/\{(\w+)\}/g, (whole, p: string) => (scope?.[p] === undefined ? whole : `{${scope[p]}}`));
  const sameTemplates = layout.rules.every((g) =>
    convention.rules.some(
      (r) =>
        r.attribute === g.attribute && named(r.lockKeys[0]?.hash, r.scope) === g.hash && named(r.lockKeys[0]?.range, r.scope) === g.range,
    ),
  );
  const engine = new AuditEngine(convention);
  engine.addItems(table.items);
  const got = asPlanted(convention, engine.problems());
  const want = plantedLines(table.problems);
  const exact = JSON.stringify(got) === JSON.stringify(want);
  const found = wrong.length === 0;
  const detail = [
    ...wrong,
    ...(exact ? [] : [`audit: got ${JSON.stringify(got)}, planted ${JSON.stringify(want)}`]),
    ...(found && exact
      ? []
      : [
          `convention ${JSON.stringify(convention.rules.map((r) => [r.attribute, r.lockKeys, r.normalize, r.scope]))} account ${JSON.stringify(convention.account)}`,
          ...evidence,
        ]),
  ].join('\n');
  return { found, exact, sameTemplates, detail, convention };
}
