/** The Inspector tab: counts, progress, filters, rows, expanded details. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { ProblemKind } from '../../shared/model';

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
