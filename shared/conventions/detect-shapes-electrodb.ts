/**
 * The ElectroDB unique-constraint shape as detection sees it: `$<service>#value_…` locks with a
 * `$<constraint>_<v>#name_<name>#entity_<entity>` sort key, their entity names and the index fields.
 */
import type { Item, KeySchema } from '../model';
import { fmt } from './detect-overlap';
import { ELECTRODB_ENTITY, ELECTRODB_VERSION } from './presets';
import { mostCommon, text, type LockObservation, type LockScan } from './detect-scan';

const EDB_RANGE = /^\$([^#_]+(?:_[^#_]+)*)_([^#_]+)#name_(.+)#entity_([^#]+)$/;

/**
 * ElectroDB's constraint entity: pk `$<service>#value_<value>`, sk `$<constraint>_<version>#name_<name>#entity_<entity>`,
 * `__edb_e__ = <constraint>`. The tag is `<entity>#<name>`; the constraint's other attributes
 * (its name index keys) are read off the sampled locks.
 */
export function electrodbScan(keys: KeySchema, sample: readonly Item[]): LockScan {
  const locks: LockObservation[] = [];
  const services: string[] = [];
  const constraints: string[] = [];
  const versions: string[] = [];
  const accountEntities = entitiesByLowerCase(sample);
  for (const item of sample) {
    const hash = text(item, keys.hash.name);
    const range = text(item, keys.range?.name);
    if (hash === undefined || range === undefined || !hash.startsWith('$')) continue;
    const at = hash.indexOf('#value_');
    const m = EDB_RANGE.exec(range);
    if (at <= 1 || !m) continue;
    services.push(hash.slice(1, at));
    constraints.push(m[1]!);
    versions.push(m[2]!);
    locks.push({
      tag: `${asWritten(item.entity?.S, m[4]!, accountEntities)}#${asWritten(item.name?.S, m[3]!)}`,
      value: hash.slice(at + '#value_'.length),
      item,
    });
  }
  const entity = mostCommon(locks.map((l) => l.tag.slice(0, l.tag.indexOf('#'))))?.value ?? '';
  const mine = locks.filter((l) => l.tag.startsWith(`${entity}#`));
  const ignored = new Set<Item>(locks.filter((l) => !l.tag.startsWith(`${entity}#`)).map((l) => l.item));
  const lockItems = new Set(mine.map((l) => l.item));
  // Items of other entities (and ElectroDB items without an entity) are not accounts of this convention.
  for (const item of sample) if (!lockItems.has(item) && text(item, ELECTRODB_ENTITY) !== entity) ignored.add(item);
  const service = mostCommon(services)?.value ?? 'app';
  const constraint = text(mine[0]?.item ?? {}, ELECTRODB_ENTITY) ?? mostCommon(constraints)?.value ?? 'constraint';
  const version = text(mine[0]?.item ?? {}, ELECTRODB_VERSION) ?? mostCommon(versions)?.value ?? '1';
  return {
    locks: mine,
    ignored,
    typeAttribute: ELECTRODB_ENTITY,
    note: `ElectroDB service ${service}, constraint entity ${constraint} v${version}, values of entity ${entity}`,
    tagName: (tag) => tag.slice(tag.indexOf('#') + 1),
    ruleName: (tag) => tag.replace('#', '.'),
    presetOptions(accounts, _attributes, evidence) {
      evidence.push(`accounts: ${fmt(accounts.length)} sampled items with ${ELECTRODB_ENTITY} = \`${entity}\``);
      const gsi = gsiFieldsOf(mine, service);
      if (gsi)
        evidence.push(
          `constraint name index fields \`${gsi[0]}\` / \`${gsi[1]}\` (written on every lock, so ElectroDB's own queries list it)`,
        );
      return {
        service,
        constraintEntity: constraint,
        constraintVersion: version,
        accountEntity: entity,
        ...(gsi ? { gsiFields: gsi } : {}),
      };
    },
    extraPrefixes: () => [],
  };
}

/**
 * A name as the application wrote it, where the key holds it lower-cased (ElectroDB's default key
 * casing: entity `userProfile` → `entity_userprofile`): the lock item's own attribute when it is that
 * name (the documented constraint entity stores `name` and `entity` as given), else a sampled item's
 * `__edb_e__` that lower-cases to it, else the key's text.
 */
function asWritten(attribute: string | undefined, inKey: string, known: ReadonlyMap<string, string> = new Map()): string {
  if (attribute !== undefined && attribute.toLowerCase() === inKey) return attribute;
  return known.get(inKey) ?? inKey;
}

/** Sampled `__edb_e__` values by their lower-case form (the most common spelling of each). */
function entitiesByLowerCase(sample: readonly Item[]): Map<string, string> {
  const spellings = new Map<string, string[]>();
  for (const item of sample) {
    const entity = text(item, ELECTRODB_ENTITY);
    if (entity === undefined) continue;
    const lower = entity.toLowerCase();
    let list = spellings.get(lower);
    if (!list) spellings.set(lower, (list = []));
    list.push(entity);
  }
  const out = new Map<string, string>();
  for (const [lower, list] of spellings) out.set(lower, mostCommon(list)?.value ?? lower);
  return out;
}

/** The constraint entity's name-index key fields: the attributes holding `$<service>#name_…` and `$<constraint>_<v>#value_…`. */
function gsiFieldsOf(locks: readonly LockObservation[], service: string): [string, string] | undefined {
  const item = locks[0]?.item;
  if (!item) return undefined;
  let pk: string | undefined;
  let sk: string | undefined;
  for (const name of Object.keys(item)) {
    const v = item[name]?.S;
    if (v === undefined) continue;
    if (v.startsWith(`$${service}#name_`)) pk = name;
    else if (v.startsWith('$') && v.includes('#value_') && !v.startsWith(`$${service}#value_`)) sk = name;
  }
  return pk && sk ? [pk, sk] : undefined;
}
