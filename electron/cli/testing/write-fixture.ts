/**
 * The setup every CLI write-command integration test shares: a temp data dir (the activity log lands
 * there), a clean environment pointing at it, the uniq layout's convention as a file (not detection:
 * what a sample suggests for a tiny table is not the point), and temp tables dropped afterwards.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { conventionToFile } from '../../../shared/conventions/file';
import type { Convention, Item } from '../../../shared/model';
import { createTempTable, deleteTable, putItems } from '../../testing/dynamo-fixtures';
import { cleanEnv } from '../testing-cli';

/** Filled in by beforeAll: read the fields inside tests, not at module load. */
export interface WriteFixture {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  conventionFile: string;
  /** A temp table holding `items`, dropped after the file's tests. */
  readonly table: (items: readonly Item[]) => Promise<string>;
}

/** Registers the hooks and returns the fixture; `prefix` names the temp folder and tables. */
export function writeFixture(admin: DynamoDBClient, convention: Convention, prefix: string): WriteFixture {
  const tables: string[] = [];
  const fx: WriteFixture = {
    dataDir: '',
    env: {},
    conventionFile: '',
    table: async (items) => {
      const name = await createTempTable(admin, convention.keys, prefix);
      tables.push(name);
      await putItems(admin, name, items);
      return name;
    },
  };
  beforeAll(async () => {
    fx.dataDir = await mkdtemp(join(tmpdir(), `locksmith-${prefix}-`));
    fx.env = cleanEnv({ LOCKSMITH_DATA_DIR: fx.dataDir });
    fx.conventionFile = join(fx.dataDir, 'convention.json');
    await writeFile(fx.conventionFile, JSON.stringify(conventionToFile(convention)));
  });
  afterAll(async () => {
    await Promise.all(tables.map((t) => deleteTable(admin, t)));
    await rm(fx.dataDir, { recursive: true, force: true });
  });
  return fx;
}
