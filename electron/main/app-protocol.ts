/** The `app://locksmith/…` protocol: the built renderer with the security headers on every response. */
import { readStaticFile } from '../serve/static-files';
import { SECURITY_HEADERS, isAppUrl } from './security';

/** Builds the handler given to `protocol.handle('app', …)`; only GET of known files under `root`. */
export function createAppProtocolHandler(root: string): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' || !isAppUrl(request.url))
      return new Response('Not found', { status: 404, headers: { ...SECURITY_HEADERS } });
    const file = await readStaticFile(root, new URL(request.url).pathname);
    if (!file) return new Response('Not found', { status: 404, headers: { ...SECURITY_HEADERS } });
    return new Response(new Uint8Array(file.body), { status: 200, headers: { ...SECURITY_HEADERS, 'Content-Type': file.contentType } });
  };
}
