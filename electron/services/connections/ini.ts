/**
 * A small parser for the AWS shared config/credentials INI format, robust to hostile input:
 * sections and keys live in Maps (a `[profile __proto__]` section is just a name), CRLF is accepted,
 * and every line the AWS SDK would silently drop — or a name that makes the SDK drop the whole file — is reported.
 */

/** One problem found while parsing; `fatalForSdk` means the AWS SDK ignores the entire file because of it. */
export interface IniIssue {
  readonly line: number;
  readonly message: string;
  readonly fatalForSdk: boolean;
}

/** Parsed sections: section header text (e.g. `profile dev`, `default`, `sso-session corp`) → key → value. */
export interface IniDocument {
  readonly sections: ReadonlyMap<string, ReadonlyMap<string, string>>;
  readonly issues: readonly IniIssue[];
}

/** Section names the SDK rejects by throwing, which empties the whole file (its parse errors are swallowed). */
const SDK_BLOCKED_SECTIONS = new Set(['__proto__', 'profile __proto__']);

/** Limits against absurd files: a config file is small; a 50 MB one is an accident or an attack. */
const MAX_LINES = 100_000;
const MAX_LINE_LENGTH = 64 * 1024;

/** Strips comments the way the SDK does: `#` or `;` at the line start or after whitespace. */
function stripComment(line: string): string {
  return line.split(/(?:^|\s)[;#]/)[0] ?? '';
}

/** Parses INI text; never throws. Later duplicate keys win, as in the SDK. */
export function parseIni(text: string): IniDocument {
  const sections = new Map<string, Map<string, string>>();
  const issues: IniIssue[] = [];
  const lines = text.split(/\r?\n/);
  if (lines.length > MAX_LINES)
    issues.push({ line: MAX_LINES, message: `file has more than ${MAX_LINES} lines; the rest is ignored`, fatalForSdk: false });
  let current: Map<string, string> | undefined;
  let subSection: string | undefined;
  for (let index = 0; index < Math.min(lines.length, MAX_LINES); index += 1) {
    const raw = lines[index] ?? '';
    const lineNo = index + 1;
    if (raw.length > MAX_LINE_LENGTH) {
      issues.push({ line: lineNo, message: 'line too long; ignored', fatalForSdk: false });
      continue;
    }
    const line = stripComment(raw).trim();
    if (line === '') continue;
    if (line.startsWith('[')) {
      subSection = undefined;
      if (!line.endsWith(']')) {
        current = undefined;
        issues.push({ line: lineNo, message: `section header not closed: ${truncate(line)}`, fatalForSdk: false });
        continue;
      }
      const name = line.slice(1, -1).trim().replace(/\s+/g, ' ');
      if (SDK_BLOCKED_SECTIONS.has(name)) {
        issues.push({ line: lineNo, message: `section [${name}] makes the AWS SDK ignore this entire file`, fatalForSdk: true });
      }
      const existing = sections.get(name);
      current = existing ?? new Map<string, string>();
      if (!existing) sections.set(name, current);
      continue;
    }
    const equals = line.indexOf('=');
    if (equals <= 0) {
      issues.push({ line: lineNo, message: `not a "key = value" line: ${truncate(line)}`, fatalForSdk: false });
      continue;
    }
    if (!current) {
      issues.push({ line: lineNo, message: 'setting outside of any [section]; ignored', fatalForSdk: false });
      continue;
    }
    const key = line.slice(0, equals).trim();
    const value = line.slice(equals + 1).trim();
    if (value === '') {
      // `s3 =` opens a nested block of indented settings (e.g. `s3 =\n  max_concurrent_requests = 20`).
      subSection = key;
      continue;
    }
    if (subSection && !/^\s/.test(raw)) subSection = undefined;
    current.set(subSection ? `${subSection}.${key}` : key, value);
  }
  return { sections, issues };
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
