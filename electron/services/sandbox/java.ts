/** Finds a Java runtime for DynamoDB Local and checks that it is new enough (17+). */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { err, ok, type Result } from '../../../shared/result';

/** The oldest Java major version DynamoDB Local 2.3+ runs on. */
export const MIN_JAVA_MAJOR = 17;

/** The one line shown when Java is missing or too old. */
export const JAVA_INSTALL_HINT = 'apt-get install openjdk-17-jre-headless (or set JAVA_HOME to a Java 17+ runtime)';

/** A usable Java runtime. */
export interface JavaRuntime {
  /** Absolute path (or PATH-resolved name) of the `java` executable. */
  readonly path: string;
  /** The version string as printed by `java -version`, e.g. `17.0.15`. */
  readonly version: string;
  readonly major: number;
}

/** Where to look; injectable so tests need not touch the real environment. */
export interface FindJavaOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Runs `<java> -version` and resolves with its combined output; rejects when it cannot run. */
  readonly probe?: (javaPath: string) => Promise<string>;
}

/**
 * Parses the major version out of `java -version` output.
 * Handles the pre-9 scheme (`1.8.0_292` → 8) and the modern one (`17.0.15`, `21`).
 */
export function parseJavaVersion(output: string): { version: string; major: number } | undefined {
  const match = /version "([^"]+)"/.exec(output) ?? /^(?:openjdk|java)\s+(\d[\w.+-]*)/m.exec(output);
  const version = match?.[1];
  if (version === undefined) return undefined;
  const parts = /^(\d+)(?:\.(\d+))?/.exec(version);
  if (!parts?.[1]) return undefined;
  const first = Number(parts[1]);
  const major = first === 1 && parts[2] !== undefined ? Number(parts[2]) : first;
  return { version, major };
}

/** Candidate executables in order: `$JAVA_HOME/bin/java`, then every `java` on PATH. */
export function javaCandidates(env: NodeJS.ProcessEnv): string[] {
  const exe = process.platform === 'win32' ? 'java.exe' : 'java';
  const out: string[] = [];
  if (env.JAVA_HOME) out.push(join(env.JAVA_HOME, 'bin', exe));
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir) out.push(join(dir, exe));
  }
  return out;
}

const defaultProbe = (javaPath: string): Promise<string> =>
  new Promise((resolve, reject) => {
    // `java -version` writes to stderr; JAVA_TOOL_OPTIONS may add a "Picked up" line, which the parser skips.
    execFile(javaPath, ['-version'], { timeout: 15_000 }, (error, stdout, stderr) => {
      if (error) reject(error);
      else resolve(`${stderr}\n${stdout}`);
    });
  });

/** Finds `java` (JAVA_HOME first, then PATH) and checks it is Java 17+; otherwise a `java-missing` error. */
export async function findJava(options: FindJavaOptions = {}): Promise<Result<JavaRuntime>> {
  const env = options.env ?? process.env;
  const probe = options.probe ?? defaultProbe;
  const useFs = options.probe === undefined;
  let tooOld: { path: string; version: string } | undefined;
  for (const candidate of javaCandidates(env)) {
    if (useFs && !existsSync(candidate)) continue;
    let output: string;
    try {
      output = await probe(candidate);
    } catch {
      continue;
    }
    const parsed = parseJavaVersion(output);
    if (!parsed) continue;
    if (parsed.major >= MIN_JAVA_MAJOR) return ok({ path: candidate, ...parsed });
    tooOld ??= { path: candidate, version: parsed.version };
  }
  const message = tooOld
    ? `Java ${MIN_JAVA_MAJOR}+ is needed for the sandbox, but ${tooOld.path} is Java ${tooOld.version}: ${JAVA_INSTALL_HINT}`
    : `Java ${MIN_JAVA_MAJOR}+ is needed for the sandbox and none was found: ${JAVA_INSTALL_HINT}`;
  return err('java-missing', message, { fix: JAVA_INSTALL_HINT });
}
