/** Colour on a terminal, the way other tools agree on it: NO_COLOR turns it off, FORCE_COLOR on, else only on a TTY. */

/** Text decorations for readable output; every one is the identity when colour is off. */
export interface Style {
  readonly bad: (text: string) => string;
  readonly warn: (text: string) => string;
  readonly good: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

const same = (text: string): string => text;

/** No colour (files, pipes, tests, `--json`). */
export const PLAIN: Style = { bad: same, warn: same, good: same, dim: same, bold: same };

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

/** ANSI colours. */
export const ANSI: Style = { bad: sgr(31, 39), warn: sgr(33, 39), good: sgr(32, 39), dim: sgr(2, 22), bold: sgr(1, 22) };

/**
 * Whether to colour: NO_COLOR (any non-empty value, https://no-color.org) wins; FORCE_COLOR set to
 * anything but 0/false turns colour on even off a terminal (CI logs); otherwise only a TTY gets it.
 */
export function colorEnabled(env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return isTty;
}

/** The style for an io that may say it wants colour. */
export function styleFor(io: { readonly color?: boolean }): Style {
  return io.color === true ? ANSI : PLAIN;
}
