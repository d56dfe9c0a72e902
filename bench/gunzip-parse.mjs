// Baseline child for the export bench: what a plain Node program does with an export, with no
// checks at all. Every data file the manifest lists, one after another, gunzipped as a stream and
// split into lines by readline, each line given to JSON.parse. Prints the number of lines parsed.
// Plain JavaScript (no tsx), so the process pays Node's start-up and nothing else.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

const dir = process.argv[2];
if (!dir) throw new Error('usage: gunzip-parse.mjs EXPORT_DIR (the folder holding manifest-summary.json)');
const summary = JSON.parse(readFileSync(join(dir, 'manifest-summary.json'), 'utf8'));
// Manifest keys start at AWSDynamoDB/: they resolve against the folder two levels up, as the audit resolves them.
const root = dirname(dirname(dir));
const lines = readFileSync(join(root, summary.manifestFilesS3Key), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');
let parsed = 0;
for (const line of lines) {
  const path = join(root, JSON.parse(line).dataFileS3Key);
  if (statSync(path).size === 0) continue;
  const reader = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const item of reader) {
    if (item === '') continue;
    JSON.parse(item);
    parsed += 1;
  }
}
process.stdout.write(`${parsed}\n`);
