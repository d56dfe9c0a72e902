/** The main window's chrome and entry URL (its webPreferences are in main.ts). */
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { APP_ORIGIN } from './security';

/**
 * Window chrome: size, title, hidden until the first paint. The webPreferences are written out
 * literally at the `new BrowserWindow` call in main.ts, where reviewers and Electronegativity look.
 */
export function windowChrome(): Omit<BrowserWindowConstructorOptions, 'webPreferences'> {
  return {
    width: 1400,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Locksmith',
    backgroundColor: '#1e1e1e',
  };
}

/** The URL the window loads, with the startup hash (`#connection=sandbox&table=accounts`). */
export function appEntryUrl(hash: string): string {
  return `${APP_ORIGIN}/index.html${hash}`;
}

/** Shows the window once it has painted (no white flash). */
export function showWhenReady(window: BrowserWindow): void {
  window.once('ready-to-show', () => window.show());
}
