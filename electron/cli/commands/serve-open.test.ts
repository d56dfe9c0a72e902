/** #16 finding 9: `serve --open` hands the token over without exposing it in process arguments. */
import { readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openerCommand, writeHandoverFile } from './serve';

const URL_WITH_TOKEN = 'http://127.0.0.1:5174/#token=OpenHandoverToken0123456789abcdef&connection=sandbox';

describe('serve --open', () => {
  it('the opener is given a private file, never the token URL', async () => {
    const handover = await writeHandoverFile(URL_WITH_TOKEN);
    try {
      for (const platform of ['linux', 'darwin', 'win32'] as const) {
        const [command, args] = openerCommand(pathToFileURL(handover.file).href, platform);
        expect([command, ...args].join(' ')).not.toContain('OpenHandoverToken');
      }
      expect((await stat(handover.file)).mode & 0o777).toBe(0o600);
      expect((await stat(dirname(handover.file))).mode & 0o777).toBe(0o700);
      expect(await readFile(handover.file, 'utf8')).toContain(
        'url=http://127.0.0.1:5174/#token=OpenHandoverToken0123456789abcdef&amp;connection=sandbox',
      );
    } finally {
      await handover.remove();
    }
    await expect(stat(handover.file)).rejects.toThrow(/ENOENT/);
  });
});
