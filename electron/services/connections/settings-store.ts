/**
 * Settings persisted as JSON in the data folder: local endpoints, per-connection region and
 * write mode, the selection, saved conventions per table, UI preferences. Never a secret.
 * Written atomically (temp file + rename) with mode 0600; a corrupt file is reported, not fatal.
 */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { conventionSchema } from '../../../shared/contract/convention-schema';
import { formatFieldPath } from '../../../shared/field-path';
import { ensureDataDir, openNoFollow } from './data-dir';
import { connectionIdSchema, credentialSourceSchema, endpointUrlSchema, regionSchema } from '../../../shared/contract/arg-limits';

const endpointEntrySchema = z.object({
  id: z.string().regex(/^endpoint:[A-Za-z0-9-]{1,64}$/),
  endpoint: endpointUrlSchema,
  region: regionSchema,
  label: z.string().min(1).max(100),
  /** What requests are signed with; endpoints saved before this existed sign with dummy keys, never the environment's by accident. */
  credentials: credentialSourceSchema.default({ source: 'dummy' }),
});

const settingsSchema = z.object({
  version: z.literal(1),
  endpoints: z.array(endpointEntrySchema).max(100).default([]),
  regions: z.record(connectionIdSchema, regionSchema).default({}),
  writable: z.record(connectionIdSchema, z.boolean()).default({}),
  selectedId: connectionIdSchema.nullable().default(null),
  /** Key: `<connection id>|<table>`. */
  conventions: z.record(z.string().max(500), conventionSchema).default({}),
  ui: z.object({ theme: z.enum(['system', 'light', 'dark']).default('system') }).default({ theme: 'system' }),
});

/** The settings file's content. */
export type Settings = z.infer<typeof settingsSchema>;
/** One saved local endpoint. */
export type EndpointEntry = z.infer<typeof endpointEntrySchema>;

/** Fresh settings (first run). */
export const emptySettings = (): Settings => settingsSchema.parse({ version: 1 });

/** Reads and updates the settings file; updates are serialized so concurrent calls cannot lose writes. */
export interface SettingsStore {
  read(): Promise<Settings>;
  update(change: (current: Settings) => Settings): Promise<Settings>;
  /** True when no settings file existed at startup (first run). */
  isFirstRun(): Promise<boolean>;
  /** A problem with the file on disk (unreadable JSON, wrong shape), if any. */
  warning(): string | undefined;
  readonly path: string;
}

/** Key of a saved convention. */
export const conventionKey = (connectionId: string, table: string): string => `${connectionId}|${table}`;

/** Opens the store in `dataDir` (created 0700 on first write). */
export function createSettingsStore(dataDir: string): SettingsStore {
  const path = join(dataDir, 'settings.json');
  let cache: Settings | undefined;
  let existed = false;
  let problem: string | undefined;
  let keepOriginal = false;
  let chain: Promise<unknown> = Promise.resolve();

  async function load(): Promise<Settings> {
    if (cache) return cache;
    let text: string | undefined;
    try {
      // Never through a link: `writable` in this file grants profile writes.
      const handle = await openNoFollow(path, constants.O_RDONLY);
      try {
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
      existed = true;
    } catch (cause) {
      if ((cause as Error).name === 'DataDirError') problem = `${(cause as Error).message}; starting with defaults`;
      else if ((cause as NodeJS.ErrnoException).code !== 'ENOENT')
        problem = `${path}: cannot be read (${(cause as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    let value = emptySettings();
    if (text !== undefined) {
      const raw = parseJson(text);
      if (raw === undefined) {
        problem = `${path}: not valid JSON; starting with defaults`;
      } else {
        // One saved convention that no longer passes the checks must not cost the user every other setting.
        const dropped = dropInvalidConventions(raw);
        const parsed = settingsSchema.safeParse(raw);
        if (parsed.success) {
          value = parsed.data;
          if (dropped.length > 0) problem = `${path}: ignored saved conventions that are no longer valid (${dropped.join(', ')})`;
        } else {
          problem = `${path}: not a Locksmith settings file (${formatFieldPath(parsed.error.issues[0]?.path ?? [])}: ${parsed.error.issues[0]?.message ?? ''}); starting with defaults`;
        }
      }
      // Whatever could not be read is kept: the first write moves the original aside instead of over it.
      keepOriginal = problem !== undefined;
    }
    cache = value;
    return value;
  }

  async function persist(value: Settings): Promise<void> {
    await ensureDataDir(dataDir);
    if (keepOriginal) {
      const aside = `${path}.unreadable-${Date.now()}`;
      await rename(path, aside).catch(() => undefined);
      problem = `${problem ?? path}; the original file was kept as ${aside}`;
      keepOriginal = false;
    }
    const temp = `${path}.${randomUUID()}.tmp`;
    // A fresh file (O_EXCL, no link followed), 0600 exactly (the umask filters the create mode), synced, then renamed over: atomic.
    const handle = await openNoFollow(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
    try {
      await handle.chmod(0o600);
      await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  }

  return {
    path,
    read: load,
    update(change) {
      const next = chain.then(async () => {
        const updated = settingsSchema.parse(change(await load()));
        await persist(updated);
        cache = updated;
        return updated;
      });
      chain = next.catch(() => undefined);
      return next;
    },
    async isFirstRun() {
      await load();
      return !existed;
    },
    warning: () => problem,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Removes saved conventions that fail the convention schema from a raw settings object; returns their keys. */
function dropInvalidConventions(raw: unknown): string[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const conventions = (raw as { conventions?: unknown }).conventions;
  if (typeof conventions !== 'object' || conventions === null || Array.isArray(conventions)) return [];
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(conventions)) {
    if (conventionSchema.safeParse(value).success) continue;
    dropped.push(key);
    delete (conventions as Record<string, unknown>)[key];
  }
  return dropped;
}
