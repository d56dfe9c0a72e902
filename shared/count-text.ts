/**
 * Counts as text, `1,998`: what `toLocaleString('en-US')` prints for an integer, without it. The first
 * `toLocaleString` of a process sets up ICU's number formatting (measured in docs/benchmarks.md), and a first audit formats its
 * detection evidence before the full scan can start.
 */

/** `n` with commas between groups of three digits (`-1,234,567`); anything but a safe integer as `toLocaleString('en-US')` prints it. */
export function countText(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 || Object.is(n, -0) ? `-${out}` : out;
}
