/**
 * Lock key templates with named placeholders: `{value}` and a rule's scope placeholders
 * (`_unique#{scope}#User#nickname#{value}`, `UNIQ#EMAIL#{tenantId}#{value}`). A lock key is a
 * partition-key template and, on tables with a sort key, a sort-key template; `{value}` stands in
 * either or both (`PK = SK = User.email#{value}`), and a placeholder read from both must agree.
 * A template is split once into literals and placeholders; reading a key is then a handful of
 * `startsWith`/`indexOf` calls — no regular expression on the hot path of a million-item audit.
 *
 * Reading is unambiguous by construction: placeholders left of the middle one (`{value}`, else the
 * last) take the text up to the FIRST occurrence of the literal that follows them, placeholders right
 * of it take the text after the LAST occurrence of the literal before them, and the middle one is what
 * remains. So a value may contain the separators (`#` in a handle), a scope value may not contain the
 * literal after it.
 */

/** The placeholder of the protected value: once in the partition key, the sort key, or each. */
export const VALUE_PLACEHOLDER = '{value}';
/** The name of the value placeholder. */
export const VALUE_NAME = 'value';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** A template split into literals and placeholder names: `literals.length === names.length + 1`. */
export interface SplitTemplate {
  readonly literals: readonly string[];
  readonly names: readonly string[];
}

/** Splits `template` into literals and placeholder names (any `{name}` with a word name). */
export function splitPlaceholders(template: string): SplitTemplate {
  const literals: string[] = [];
  const names: string[] = [];
  let at = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    literals.push(template.slice(at, match.index));
    names.push(match[1]!);
    at = match.index + match[0].length;
  }
  literals.push(template.slice(at));
  return { literals, names };
}

/** The placeholder names of a template other than `{value}`, in order. */
export function scopeNamesOf(template: string): string[] {
  return splitPlaceholders(template).names.filter((n) => n !== VALUE_NAME);
}

/**
 * A placeholder name every JavaScript object already answers to (`constructor`, `toString`,
 * `__proto__`…): looked up in a plain record it finds the built-in (a function, the prototype)
 * instead of "no attribute", so a key would be written with `function toString() …` in it.
 */
export function isReservedPlaceholder(name: string): boolean {
  return Object.hasOwn(Object.prototype, name);
}

/** Why the placeholders and literals of one key attribute's template cannot be read unambiguously, or undefined when they can. */
function partsProblem(template: string): string | undefined {
  const { literals, names } = splitPlaceholders(template);
  const seen = new Set<string>();
  for (const n of names) {
    if (isReservedPlaceholder(n))
      return `the placeholder {${n}} is a name every JavaScript object already has: choose another (e.g. {${n}Id})`;
    if (seen.has(n)) return `the placeholder {${n}} appears twice`;
    seen.add(n);
  }
  for (let i = 1; i < literals.length - 1; i++) {
    if (literals[i] === '')
      return `the placeholders {${names[i - 1]}} and {${names[i]}} need literal text between them, or a key could not be split`;
  }
  return undefined;
}

/**
 * Why a partition-key template cannot be read on its own, or undefined when it can. `{value}` may be
 * absent when the sort key holds it; a template that begins with a placeholder needs a sort key that
 * begins with literal text (lockKeyProblem), or every item would read as a lock.
 */
function hashTemplateProblem(template: string): string | undefined {
  if (template === '') return 'must not be empty';
  return partsProblem(template);
}

/** Whether a template begins with literal text (a literal template does). */
function startsLiteral(template: string): boolean {
  return splitPlaceholders(template).literals[0] !== '';
}

/** Why a sort-key template (a literal such as `LOCK`, or text around placeholders) cannot be read, or undefined when it can. */
function rangeTemplateProblem(template: string): string | undefined {
  if (template === '') return 'must not be empty';
  return partsProblem(template);
}

/** Whether a template holds `{value}`. */
export function holdsValue(template: string | undefined): boolean {
  return template !== undefined && splitPlaceholders(template).names.includes(VALUE_NAME);
}

/** One problem of a lock key template, naming the key attribute it is in. */
export interface LockKeyProblem {
  readonly field: 'hash' | 'range';
  readonly message: string;
}

/**
 * Why a lock key (partition and optional sort template) cannot be read unambiguously, or undefined
 * when it can: each template on its own (see hash/rangeTemplateProblem), and `{value}` in at least
 * one of them — in both when the library repeats the value (`PK = SK = User.email#{value}`).
 */
export function lockKeyProblem(template: { readonly hash: string; readonly range?: string | undefined }): LockKeyProblem | undefined {
  const hash = hashTemplateProblem(template.hash);
  if (hash !== undefined) return { field: 'hash', message: hash };
  if (template.range !== undefined) {
    const range = rangeTemplateProblem(template.range);
    if (range !== undefined) return { field: 'range', message: range };
  }
  if (!startsLiteral(template.hash) && (template.range === undefined || !startsLiteral(template.range))) {
    const example = `\`UNIQ#EMAIL#${VALUE_PLACEHOLDER}\``;
    return {
      field: 'hash',
      message: `must start with literal text before its first placeholder (e.g. ${example}), or — with the value bare in the partition key — the sort key must start with one; else every item would read as a lock`,
    };
  }
  if (!holdsValue(template.hash) && !holdsValue(template.range)) {
    return { field: 'hash', message: `must contain ${VALUE_PLACEHOLDER} (in the partition key, the sort key, or both)` };
  }
  return undefined;
}

/** A key template compiled for reading (partition or sort key). */
export interface CompiledHash {
  /** Literal text before the first placeholder (the whole text of a literal template). */
  readonly prefix: string;
  /** Literal text after the last placeholder. */
  readonly suffix: string;
  /** Placeholders left of the middle one, each with the literal that ends it. */
  readonly before: readonly { readonly name: string; readonly until: string }[];
  /**
   * The placeholder that takes what the others leave: `{value}` when the template holds it, else its
   * last placeholder; undefined for a literal template (the text must equal `prefix`).
   */
  readonly middle?: string;
  /** Placeholders right of the middle one, from the right, each with the literal that starts it. */
  readonly after: readonly { readonly name: string; readonly from: string }[];
}

/** Compiles a key template (checked with lockKeyProblem beforehand). */
export function compileHash(template: string): CompiledHash {
  const { literals, names } = splitPlaceholders(template);
  if (names.length === 0) return { prefix: template, suffix: '', before: [], after: [] };
  const at = names.indexOf(VALUE_NAME);
  const v = at < 0 ? names.length - 1 : at;
  const before = names.slice(0, v).map((name, i) => ({ name, until: literals[i + 1]! }));
  const after: { name: string; from: string }[] = [];
  for (let i = names.length - 1; i > v; i--) after.push({ name: names[i]!, from: literals[i]! });
  return { prefix: literals[0]!, suffix: literals[literals.length - 1]!, before, middle: names[v]!, after };
}

/** What a key text holds under a compiled template: the value (when the template holds it) and each other placeholder's text. */
export interface ReadKey {
  readonly value?: string;
  /** Placeholder name → text, for templates with placeholders besides `{value}`; undefined otherwise. */
  readonly parts?: Readonly<Record<string, string>>;
}

const LITERAL_MATCH: ReadKey = {};

/**
 * Reads `text` with a compiled template; undefined when it does not fit. Empty placeholder texts never
 * fit, except `{value}`'s (an empty value is a malformed lock, which the caller reports).
 */
export function readKey(t: CompiledHash, text: string): ReadKey | undefined {
  if (t.middle === undefined) return text === t.prefix ? LITERAL_MATCH : undefined;
  if (!text.startsWith(t.prefix)) return undefined;
  let end = text.length - t.suffix.length;
  let start = t.prefix.length;
  if (end < start || (t.suffix !== '' && !text.endsWith(t.suffix))) return undefined;
  if (t.before.length === 0 && t.after.length === 0) {
    if (t.middle === VALUE_NAME) return { value: text.slice(start, end) };
    return end > start ? { parts: { [t.middle]: text.slice(start, end) } } : undefined;
  }
  const parts: Record<string, string> = {};
  for (const p of t.before) {
    const at = text.indexOf(p.until, start);
    if (at <= start || at + p.until.length > end) return undefined;
    parts[p.name] = text.slice(start, at);
    start = at + p.until.length;
  }
  for (const p of t.after) {
    const at = text.lastIndexOf(p.from, end - p.from.length - 1);
    if (at < start || at + p.from.length >= end) return undefined;
    parts[p.name] = text.slice(at + p.from.length, end);
    end = at;
  }
  if (t.middle === VALUE_NAME) return { value: text.slice(start, end), parts };
  if (end <= start) return undefined;
  parts[t.middle] = text.slice(start, end);
  return { parts };
}

/** Fills a template: `{value}` with `value`, every other placeholder from `parts` (a missing one throws: callers check first). */
export function fillTemplate(template: string, value: string, parts: Readonly<Record<string, string>> = {}): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === VALUE_NAME) return value;
    const part = Object.hasOwn(parts, name) ? parts[name] : undefined;
    if (part === undefined) throw new Error(`no value for the placeholder ${whole} of ${template}`);
    return part;
  });
}
