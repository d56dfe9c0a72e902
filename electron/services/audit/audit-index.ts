/**
 * The audits a lookup may answer from, per process (the app or `serve`): a complete audit's join
 * lends its holders by (rule, value), so a table without a GSI on the rule's attribute needs no
 * scan. Honest by construction: only the same table under the same convention, only an audit that
 * started after the last write Locksmith made on that connection, and the lookup still re-reads
 * every lock and every holder by key with consistent reads (lookup.ts).
 */
import type { ScopeValues } from '../../../shared/conventions/scope';
import type { Convention, PlainKey } from '../../../shared/model';

/** What a finished, complete audit lends to lookups. */
export interface AuditIndex {
  readonly table: string;
  readonly convention: Convention;
  /** When its scan started (epoch ms): an item written after that may be missing from it. */
  readonly startedAt: number;
  /** When it finished (epoch ms): what "used the audit of <time>" names. */
  readonly finishedAt: number;
  /** Keys of the accounts the audit read holding `normalized` under rule `ruleIndex` (in `scope`, for a scoped rule). */
  readonly holders: (ruleIndex: number, normalized: string, scope?: ScopeValues) => PlainKey[];
}

/** Indexes kept per process: each holds an audit's whole join (~175 B per item), so only the latest few. */
export const MAX_AUDIT_INDEXES = 2;

/** JSON with object keys sorted: two conventions are the same when they read the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The latest complete audits of this process, by connection and table, and the last write made through each connection. */
export class AuditIndexes {
  private readonly kept: { readonly connection: string; readonly conventionKey: string; readonly index: AuditIndex }[] = [];
  private readonly lastWrite = new Map<string, number>();

  /** Keeps a complete audit's index (replacing an older one of the same table), unless a write came after its start. */
  remember(connection: string, index: AuditIndex): void {
    if (index.startedAt <= (this.lastWrite.get(connection) ?? Number.NEGATIVE_INFINITY)) return;
    const at = this.kept.findIndex((k) => k.connection === connection && k.index.table === index.table);
    if (at >= 0) this.kept.splice(at, 1);
    this.kept.push({ connection, conventionKey: canonicalJson(index.convention), index });
    while (this.kept.length > MAX_AUDIT_INDEXES) this.kept.shift();
  }

  /** Records that Locksmith wrote (or may have written) through `connection`: its indexes are no longer used. */
  noteWrite(connection: string, at: number = Date.now()): void {
    this.lastWrite.set(connection, Math.max(at, this.lastWrite.get(connection) ?? at));
    for (let i = this.kept.length - 1; i >= 0; i--) if (this.kept[i]!.connection === connection) this.kept.splice(i, 1);
  }

  /** The index of `table` under exactly `convention` on `connection`, when there is a usable one. */
  find(connection: string, table: string, convention: Convention): AuditIndex | undefined {
    const key = canonicalJson(convention);
    const written = this.lastWrite.get(connection) ?? Number.NEGATIVE_INFINITY;
    return this.kept.find(
      (k) => k.connection === connection && k.index.table === table && k.conventionKey === key && k.index.startedAt > written,
    )?.index;
  }
}
