/** The claim/release dialog: preview, typed confirmation, execute, outcome. */
import { expect, type Locator, type Page } from '@playwright/test';

/** Page object of the lock form. */
export class LockFormPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('lock-form');
  }

  /** Asks for the preview and waits for it. */
  async preview(): Promise<void> {
    await this.root.getByTestId('tx-preview-button').click();
    await expect(this.root.getByTestId('tx-preview')).toBeVisible();
  }

  /** The exact TransactWriteItems input as shown, parsed. */
  async previewJson(): Promise<unknown> {
    return JSON.parse(await this.root.getByTestId('tx-json').innerText());
  }

  get executeButton(): Locator {
    return this.root.getByTestId('tx-execute');
  }

  /** Types the value back. */
  async confirm(text: string): Promise<void> {
    await this.root.getByTestId('tx-confirm').fill(text);
  }

  /** Clicks Execute and waits for the outcome panel. */
  async execute(): Promise<Locator> {
    await this.executeButton.click();
    const outcome = this.root.getByTestId('tx-outcome');
    await expect(outcome).toBeVisible();
    return outcome;
  }

  /** Closes with Esc and waits until it is gone. */
  async close(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await expect(this.root).toBeHidden();
  }
}
