/**
 * The one formatter of field paths (a schema issue's path, a convention file's field): every
 * message that names a field spells it the same way, `rules[1].lockKeys[0].hash`.
 */

/** Formats a path as `rules[1].lockKeys[0].hash` (indexes in brackets, names joined by dots). */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  return out;
}
