/** Serving the built renderer (dist/renderer) safely: no path traversal, known types only, SPA fallback to index.html. */
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** A file to send. */
export interface StaticFile {
  readonly body: Buffer;
  readonly contentType: string;
}

/**
 * Reads the file for a URL path under `root`. Paths escaping the root, unknown extensions (source
 * maps among them: never served), dot-files and any symbolic link below the root are refused
 * (undefined); a path without an extension falls back to index.html.
 */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split(/[?#]/)[0] ?? '/');
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  if (relative.split(/[\\/]/).some((part) => part.startsWith('.'))) return undefined;
  const base = resolve(root);
  const target = resolve(base, normalize(relative));
  if (target !== base && !target.startsWith(base + sep)) return undefined;
  const extension = extname(target);
  const file = extension === '' ? join(base, 'index.html') : target;
  const contentType = CONTENT_TYPES[extension === '' ? '.html' : extension];
  if (!contentType) return undefined;
  try {
    // No link is followed: the real path must be the path asked for (the root itself may live behind one).
    const realBase = await realpath(base);
    if ((await realpath(file)) !== join(realBase, file.slice(base.length))) return undefined;
    const handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    try {
      if (!(await handle.stat()).isFile()) return undefined;
      return { body: await handle.readFile(), contentType };
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
