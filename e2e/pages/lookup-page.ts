/** The Lookup tab: one value in, verdicts per rule out. */
import { expect, type Locator, type Page } from '@playwright/test';

/** Page object of Lookup. */
export class LookupPage {
  constructor(readonly page: Page) {}

  /** Opens Lookup with Ctrl+K, types the value and runs it. */
  async lookUp(value: string): Promise<void> {
    await this.page.keyboard.press('Control+k');
    const input = this.page.getByTestId('lookup-input');
    await expect(input).toBeFocused();
    await input.fill(value);
    await input.press('Enter');
    await expect(this.page.getByTestId('lookup-result')).toBeVisible();
  }

  /** The verdict panel of one rule. */
  rule(name: string): Locator {
    return this.page.getByTestId(`lookup-rule-${name}`);
  }

  /** Confirms one rule's verdict by a scan (an orphan from an audit's index offers no release until then). */
  async confirmByScan(name: string): Promise<void> {
    await this.rule(name).getByTestId('lookup-confirm-scan').click();
    await expect(this.verdict(name)).toHaveAttribute('data-confirmed', 'true');
  }

  /** The verdict attribute of one rule (`free`, `held`, `orphan`, `unprotected`, `duplicate`). */
  verdict(name: string): Locator {
    return this.rule(name).getByTestId('lookup-verdict');
  }
}
