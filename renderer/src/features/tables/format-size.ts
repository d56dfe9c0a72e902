/** Human-readable byte sizes and counts for the table details. */

/** `1536` → `1.5 KB` (binary units, one decimal above bytes). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Groups digits: `2000` → `2,000` (fixed locale so screenshots and tests are stable). */
export function formatCount(n: number): string {
  return COUNT_FORMAT.format(n);
}

// One formatter for every call: `toLocaleString` builds a new one each time, which showed up in
// profiles of a 200k-item audit (progress and counts re-render on every page).
const COUNT_FORMAT = new Intl.NumberFormat('en-US');
