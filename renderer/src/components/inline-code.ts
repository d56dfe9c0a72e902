/** Splits text written for a terminal (`locksmith serve`) into prose and code runs, so no literal backtick reaches the screen. Pure. */

/** A run of prose or of code. */
export interface TextRun {
  readonly code: boolean;
  readonly text: string;
}

/** Backtick-quoted runs become code; an unpaired backtick stays as it is. */
export function inlineCodeRuns(text: string): TextRun[] {
  const pieces = text.split('`');
  // An even number of pieces means an unpaired backtick: keep the text whole rather than guess.
  if (pieces.length % 2 === 0) return [{ code: false, text }];
  return pieces.map((piece, i) => ({ code: i % 2 === 1, text: piece })).filter((run) => run.text !== '');
}
