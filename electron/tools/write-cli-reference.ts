/** Writes docs/cli.md from the CLI's own definitions (`npm run docs:cli`). */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLI_REFERENCE_PATH, cliReference } from '../cli/reference/cli-reference';

const target = fileURLToPath(new URL(`../../${CLI_REFERENCE_PATH}`, import.meta.url));
writeFileSync(target, await cliReference());
process.stdout.write(`wrote ${CLI_REFERENCE_PATH}\n`);
