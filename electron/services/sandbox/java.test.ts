import { describe, expect, it } from 'vitest';
import { findJava, javaCandidates, parseJavaVersion } from './java';

describe('parseJavaVersion', () => {
  it.each([
    ['openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment (build 17.0.15+6)', '17.0.15', 17],
    ['java version "1.8.0_292"\nJava(TM) SE Runtime Environment', '1.8.0_292', 8],
    ['openjdk version "21" 2023-09-19', '21', 21],
    ['Picked up JAVA_TOOL_OPTIONS: -Xmx1g\nopenjdk version "11.0.2" 2019-01-15', '11.0.2', 11],
    ['openjdk 22.0.1 2024-04-16', '22.0.1', 22],
  ])('reads %j', (output, version, major) => {
    expect(parseJavaVersion(output)).toEqual({ version, major });
  });

  it('returns undefined for output that is not a version', () => {
    expect(parseJavaVersion('bash: java: command not found')).toBeUndefined();
  });
});

describe('findJava', () => {
  const env = { JAVA_HOME: '/opt/jdk', PATH: '/usr/local/bin:/usr/bin' };

  it('tries JAVA_HOME before PATH', () => {
    expect(javaCandidates(env)).toEqual(['/opt/jdk/bin/java', '/usr/local/bin/java', '/usr/bin/java']);
  });

  it('picks the first Java 17+ and skips broken or old ones', async () => {
    const outputs: Record<string, string> = {
      '/usr/local/bin/java': 'java version "1.8.0_292"',
      '/usr/bin/java': 'openjdk version "17.0.15"',
    };
    const result = await findJava({
      env,
      probe: async (path) => {
        const out = outputs[path];
        if (out === undefined) throw new Error('ENOENT');
        return out;
      },
    });
    expect(result).toEqual({ ok: true, value: { path: '/usr/bin/java', version: '17.0.15', major: 17 } });
  });

  it('names the old version and what to install when only an old Java exists', async () => {
    const result = await findJava({ env: { PATH: '/usr/bin' }, probe: async () => 'java version "1.8.0_292"' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('java-missing');
    expect(result.error.message).toContain('1.8.0_292');
    expect(result.error.message).toContain('openjdk-17-jre-headless');
    expect(result.error.message).not.toContain('\n');
  });

  it('says what to install when there is no Java at all', async () => {
    const result = await findJava({
      env: { PATH: '' },
      probe: async () => {
        throw new Error('ENOENT');
      },
    });
    expect(result.ok ? 'found' : result.error).toMatchObject({ kind: 'java-missing', fix: expect.stringContaining('JAVA_HOME') });
  });
});
