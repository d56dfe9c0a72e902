// Preloaded into the CLI child by the benchmark (node --import): on exit, writes the process's
// peak RSS and CPU time where LOCKSMITH_BENCH_RSS_FILE says. resourceUsage().maxRSS is in kilobytes.
import { writeFileSync } from 'node:fs';
import process from 'node:process';

const file = process.env.LOCKSMITH_BENCH_RSS_FILE;
const usage = () => {
  const u = process.resourceUsage();
  return { maxRssBytes: u.maxRSS * 1024, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 };
};
if (file) process.on('exit', () => writeFileSync(file, JSON.stringify(usage())));
