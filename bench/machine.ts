/** The machine a benchmark ran on: CPUs, memory, Node and Java versions, load. */
import { execFile } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import type { MachineInfo } from './report';

function javaVersion(): Promise<string> {
  return new Promise((resolve) => {
    execFile('java', ['-version'], { timeout: 20_000 }, (_error, _stdout, stderr) => {
      // `java -version` prints to stderr; the first line names the runtime and version.
      const line = stderr.split('\n').find((l) => /version/.test(l));
      resolve(line?.replace(/^Picked up JAVA_TOOL_OPTIONS.*$/, '').trim() || 'java (version unknown)');
    });
  });
}

// The commit measured, with a mark when the working tree has changes (figures then describe more than the commit).
function gitRevision(): Promise<string> {
  return new Promise((resolve) => {
    execFile('git', ['describe', '--always', '--dirty'], { timeout: 10_000 }, (error, stdout) =>
      resolve(error ? 'unknown' : stdout.trim()),
    );
  });
}

/** Describes this machine now. */
export async function describeMachine(): Promise<MachineInfo> {
  const list = cpus();
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryBytes: totalmem(),
    node: process.version,
    java: await javaVersion(),
    revision: await gitRevision(),
    loadAverageStart: loadavg(),
  };
}
