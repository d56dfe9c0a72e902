/** The Inspector tab: counts, progress, filters, rows, expanded details. */
import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';
import type { ProblemKind } from '../../shared/model';

/** An export as the JSON file holds it (the fields specs read). */
export interface ExportedJson {
  readonly table: string;
  readonly complete: boolean;
  readonly scanned: number;
  readonly accounts: number;
  readonly locks: number;
  readonly summary: Record<ProblemKind, number>;
  readonly problems: readonly { readonly kind: ProblemKind; readonly rule?: string; readonly value: string }[];
  readonly exported: {
    readonly filter: string;
    readonly search: string;
    readonly rowsShown: number;
    readonly writesSinceAudit: number;
    readonly exportedAt: string;
    readonly connection: { readonly id: string; readonly label: string } | null;
  };
}

/** Page object of the inspector. */
export class InspectorPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('inspector');
  }

  /** The count button of one problem kind (its text ends with the number). */
  count(kind: ProblemKind): Locator {
    return this.page.getByTestId(`count-${kind}`);
  }

  /** Waits until the audit has finished (complete or not). */
  async waitDone(): Promise<void> {
    await expect(this.root).toHaveAttribute('data-audit-phase', 'done', { timeout: 60_000 });
  }

  /** The id of the run shown (empty before the first one started). */
  async runId(): Promise<string> {
    return (await this.root.getAttribute('data-run-id')) ?? '';
  }

  /** Waits until a run other than `previous` has finished, complete. */
  async waitNewRunComplete(previous: string): Promise<void> {
    await expect(this.root).not.toHaveAttribute('data-run-id', previous, { timeout: 60_000 });
    await expect(this.root).not.toHaveAttribute('data-run-id', '');
    await this.waitComplete();
  }

  /** Clicks Re-run audit and waits until the new run has finished, complete. */
  async rerun(): Promise<void> {
    const previous = await this.runId();
    await this.root.getByRole('button', { name: 'Re-run audit' }).click();
    await this.waitNewRunComplete(previous);
  }

  /** Asserts the list holds exactly `n` rows, all shown (no filter). */
  async expectRowTotal(n: number): Promise<void> {
    await expect(this.page.getByTestId('inspector-row-count')).toHaveText(`${n} of ${n} rows shown`);
  }

  /** Exports as JSON and returns the parsed file. */
  async exportJson(): Promise<ExportedJson> {
    return JSON.parse(await this.download('export-json')) as ExportedJson;
  }

  /** Exports as CSV and returns the file's text. */
  async exportCsv(): Promise<string> {
    return this.download('export-csv');
  }

  private async download(testId: string): Promise<string> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId(testId).click()]);
    const path = await download.path();
    return readFile(path, 'utf8');
  }

  /** Waits for a finished, complete audit. */
  async waitComplete(): Promise<void> {
    await this.waitDone();
    await expect(this.root).toHaveAttribute('data-audit-complete', 'true');
  }

  /** Asserts every per-kind count. */
  async expectCounts(summary: Readonly<Record<ProblemKind, number>>): Promise<void> {
    for (const [kind, n] of Object.entries(summary) as [ProblemKind, number][]) {
      await expect(this.count(kind), kind).toHaveAttribute('data-count', String(n));
    }
  }

  /** The progress bar of a running audit. */
  get progress(): Locator {
    return this.page.getByTestId('progress');
  }

  /** The incomplete banner. */
  get incomplete(): Locator {
    return this.page.getByTestId('audit-incomplete');
  }

  /** Cancels the running audit. */
  async cancel(): Promise<void> {
    await this.page.getByTestId('cancel-audit').click();
  }

  /** Types into the search box. */
  async search(text: string): Promise<void> {
    await this.page.getByTestId('inspector-search').fill(text);
  }

  /** Picks a filter (`all`, `problems` or a kind). */
  async filter(value: string): Promise<void> {
    await this.page.getByTestId('inspector-filter').selectOption(value);
  }

  /** Rendered rows (virtualized: only those near the viewport). */
  get rows(): Locator {
    return this.page.getByTestId('inspector-row');
  }

  /** The first rendered row containing `text`. */
  row(text: string): Locator {
    return this.rows.filter({ hasText: text }).first();
  }

  /** Expands a row by its chevron and returns its detail. */
  async expand(row: Locator): Promise<Locator> {
    await row.getByRole('button', { name: 'Expand' }).click();
    const detail = row.getByTestId('row-detail');
    await expect(detail).toBeVisible();
    return detail;
  }
}
