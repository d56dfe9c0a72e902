/** The window as a whole: readiness, connections, tables, tabs, theme. Selectors live here, not in specs. */
import { expect, type Locator, type Page } from '@playwright/test';

/** Tab names as the tab bar shows them. */
export type TabName = 'inspector' | 'table' | 'convention' | 'lookup' | 'decode' | 'activity';

/** Page object of the app frame. */
export class AppPage {
  constructor(readonly page: Page) {}

  /** Opens the served URL and waits for the readiness marker (bridge connected, first data loaded). */
  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await expect(this.page.locator('body')).toHaveAttribute('data-app-state', 'loaded');
  }

  /** A connection in the sidebar, by id (`sandbox`, `endpoint:…`, `profile:…`). */
  connection(id: string): Locator {
    return this.page.getByTestId(`connection-${id}`);
  }

  /** Clicks a connection and waits until the sidebar marks it current and nothing is in progress. */
  async selectConnection(id: string): Promise<void> {
    await this.connection(id).click();
    await expect(this.connection(id)).toHaveAttribute('aria-current', 'true', { timeout: 60_000 });
    await expect(this.page.getByTestId('connections-busy')).toHaveCount(0, { timeout: 60_000 });
  }

  /** A table in the sidebar list. */
  table(name: string): Locator {
    return this.page.getByTestId(`table-${name}`);
  }

  /** Picks a table (opens the inspector on it). */
  async selectTable(name: string): Promise<void> {
    await this.table(name).click();
    await expect(this.table(name)).toHaveAttribute('aria-current', 'true');
  }

  /** Switches the main tab. */
  async tab(name: TabName): Promise<void> {
    await this.page.getByTestId(`tab-${name}`).click();
    await expect(this.page.getByTestId(`tab-${name}`)).toHaveAttribute('aria-selected', 'true');
  }

  /** Picks a theme with the header toggle and waits until it applies. */
  async theme(theme: 'light' | 'dark'): Promise<void> {
    await this.page.getByTestId(`theme-${theme}`).click();
    await expect(this.page.locator('html')).toHaveAttribute('data-theme', theme);
  }

  /** The selected connection's details panel. */
  get connectionDetails(): Locator {
    return this.page.getByTestId('connection-details');
  }

  /** The endpoint the selected connection really uses (shown in its details). */
  async effectiveEndpoint(): Promise<string> {
    const text = (await this.page.getByTestId('effective-endpoint').innerText()).trim();
    const match = /https?:\/\/[^\s]+/.exec(text);
    if (!match) throw new Error(`no endpoint shown: ${text}`);
    return match[0];
  }

  /** Makes the selected (local) connection read-only through its details panel. */
  async makeReadOnly(): Promise<void> {
    await this.connectionDetails.getByRole('button', { name: 'Make read-only' }).click();
    await expect(this.connectionDetails.getByText('read-only', { exact: true })).toBeVisible();
  }
}
