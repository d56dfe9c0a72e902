/**
 * Picks the transport: `window.locksmith` from the Electron preload, or the browser-mode HTTP
 * client with the per-launch token (read from the URL hash once, then kept in sessionStorage and
 * removed from the address bar by `resolveBrowserToken`).
 */
import { createHttpBridge, parseStartupHash, resolveBrowserToken, type LocksmithBridge, type StartupHash } from '../../../shared/contract';

/** The chosen bridge plus what the startup hash asked to open, or why no bridge is available. */
export type BridgeChoice =
  | { readonly ok: true; readonly bridge: LocksmithBridge; readonly mode: 'electron' | 'browser'; readonly startup: StartupHash }
  | { readonly ok: false; readonly message: string; readonly fix: string };

/** Reads the preload's bridge without widening `window` globally (its type comes from the contract). */
function preloadBridge(): LocksmithBridge | undefined {
  const candidate = (window as Window & { locksmith?: LocksmithBridge }).locksmith;
  return candidate && typeof candidate.call === 'function' ? candidate : undefined;
}

/** Chooses the bridge for this page; call once at startup. */
export function selectBridge(): BridgeChoice {
  const startup = parseStartupHash(window.location.hash);
  const electron = preloadBridge();
  if (electron) return { ok: true, bridge: electron, mode: 'electron', startup };

  const token = resolveBrowserToken(window);
  if (!token) {
    return {
      ok: false,
      message: 'This page was opened without its access token, so it cannot talk to Locksmith.',
      fix: 'Open the URL printed by `locksmith serve` (or `npm start`), including the part after #.',
    };
  }
  const bridge = createHttpBridge({
    baseUrl: window.location.origin,
    token,
    fetch: (url, init) => window.fetch(url, init),
    eventSource: (url) => new EventSource(url),
  });
  return { ok: true, bridge, mode: 'browser', startup };
}
