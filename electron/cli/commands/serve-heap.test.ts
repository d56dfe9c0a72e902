/** `serve` runs with V8's own heap growth: bin/locksmith's 30% cap is for the CLI's memory, and costs a streaming server CPU. */
import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveCommand } from './serve';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('serve', () => {
  it('restores V8’s default heap growth before it does anything else', async () => {
    const flags = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    const io = { stdout: () => undefined, stderr: () => undefined, env: {}, interactive: false, signal: new AbortController().signal };
    // Flags that make it stop at once (a usage error), after the one line this is about.
    await expect(serveCommand.run({ values: { endpoint: 'http://127.0.0.1:1', profile: 'p' }, io, debug: false })).rejects.toThrow(
      /either --endpoint or --profile/,
    );
    expect(flags).toHaveBeenCalledWith('--heap-growing-percent=0');
  });
});
