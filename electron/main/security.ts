/**
 * The Electron security checklist, in one place: CSP, navigation and window.open denied,
 * permissions denied, webviews refused, external links https-only through one helper.
 */
import type { Session, WebContents } from 'electron';

/** The app's own origin: everything is served from the `app://locksmith` protocol. */
export const APP_SCHEME = 'app';
/** Host part of the app's URLs. */
export const APP_HOST = 'locksmith';
/** The origin a trusted frame must have. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * The Content-Security-Policy sent as a header with every app response. The renderer's index.html
 * carries the same policy as a meta tag (minus frame-ancestors, which meta cannot express).
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers on every response served to the renderer (Electron protocol and browser mode alike). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

/** True when `url` belongs to the app itself. */
export function isAppUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
}

/** True for links we are willing to hand to the OS: https only, no credentials in the URL. */
export function isSafeExternalUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.protocol === 'https:' && parsed.username === '' && parsed.password === '';
}

/** Opens an https link in the system browser; anything else is refused. The only way out of the app. */
export async function openExternalSafely(url: string, open: (url: string) => Promise<void>): Promise<{ opened: boolean }> {
  if (!isSafeExternalUrl(url)) return { opened: false };
  await open(url);
  return { opened: true };
}

/** Session-wide defenses: deny every permission, add the CSP header to every response. */
export function secureSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        ...Object.fromEntries(Object.entries(SECURITY_HEADERS).map(([k, v]) => [k, [v]])),
        'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
      },
    });
  });
  // No remote content: the renderer only ever loads app:// (and data: images); block every other request.
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAppUrl(details.url) || details.url.startsWith('data:') || details.url.startsWith('devtools:');
    callback({ cancel: !allowed });
  });
}

/** Per-window defenses: no navigation away, no new windows (https links go to the OS browser), no webviews. */
export function hardenContents(contents: WebContents, open: (url: string) => Promise<void>): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalSafely(url, open);
    return { action: 'deny' };
  });
}
