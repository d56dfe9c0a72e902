/**
 * Lock key templates with named placeholders: `{value}` exactly once, plus a rule's scope
 * placeholders (`_unique#{scope}#User#nickname#{value}`, `UNIQ#EMAIL#{tenantId}#{value}`).
 * A template is split once into literals and placeholders; reading a key is then a handful of
 * `startsWith`/`indexOf` calls — no regular expression on the hot path of a million-item audit.
 *
 * Reading is unambiguous by construction: placeholders left of `{value}` take the text up to the
 * FIRST occurrence of the literal that follows them, placeholders right of it take the text after
 * the LAST occurrence of the literal before them, and the value is what remains. So a value may
 * contain the separators (`#` in a handle), a scope value may not contain the literal after it.
 */

/** The placeholder every hash template contains exactly once. */
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

/** Why a hash template cannot be read unambiguously, or undefined when it can. */
export function templateProblem(template: string): string | undefined {
  const { literals, names } = splitPlaceholders(template);
  const values = names.filter((n) => n === VALUE_NAME).length;
  if (values !== 1) return `must contain ${VALUE_PLACEHOLDER} exactly once`;
  const seen = new Set<string>();
  for (const n of names) {
    if (isReservedPlaceholder(n)) return `the placeholder {${n}} is a name every JavaScript object already has: choose another (e.g. {${n}Id})`;
    if (seen.has(n)) return `the placeholder {${n}} appears twice`;
    seen.add(n);
  }
  if (literals[0] === '') return `must start with literal text before its first placeholder (e.g. \`UNIQ#EMAIL#${VALUE_PLACEHOLDER}\`), or every item would read as a lock`;
  for (let i = 1; i < literals.length - 1; i++) {
    if (literals[i] === '') return `the placeholders {${names[i - 1]}} and {${names[i]}} need literal text between them, or a key could not be split`;
  }
  return undefined;
}

/** A hash template compiled for reading. */
export interface CompiledHash {
  /** Literal text before the first placeholder. */
  readonly prefix: string;
  /** Literal text after the last placeholder. */
  readonly suffix: string;
  /** Placeholders left of `{value}`, each with the literal that ends it. */
  readonly before: readonly { readonly name: string; readonly until: string }[];
  /** Placeholders right of `{value}`, from the right, each with the literal that starts it. */
  readonly after: readonly { readonly name: string; readonly from: string }[];
}

/** Compiles a hash template (checked with templateProblem beforehand). */
export function compileHash(template: string): CompiledHash {
  const { literals, names } = splitPlaceholders(template);
  const v = names.indexOf(VALUE_NAME);
  if (v < 0) throw new Error(`lock key template ${template} has no ${VALUE_PLACEHOLDER}`);
  const before = names.slice(0, v).map((name, i) => ({ name, until: literals[i + 1]! }));
  const after: { name: string; from: string }[] = [];
  for (let i = names.length - 1; i > v; i--) after.push({ name: names[i]!, from: literals[i]! });
  return { prefix: literals[0]!, suffix: literals[literals.length - 1]!, before, after };
}

/** What a key text holds under a compiled template: the value and each other placeholder's text. */
export interface ReadKey {
  readonly value: string;
  /** Placeholder name → text, for templates with placeholders besides `{value}`; undefined otherwise. */
  readonly parts?: Readonly<Record<string, string>>;
}

/** Reads `text` with a compiled template; undefined when it does not fit (empty placeholder texts never fit). */
export function readKey(t: CompiledHash, text: string): ReadKey | undefined {
  if (!text.startsWith(t.prefix)) return undefined;
  let end = text.length - t.suffix.length;
  let start = t.prefix.length;
  if (end < start || (t.suffix !== '' && !text.endsWith(t.suffix))) return undefined;
  if (t.before.length === 0 && t.after.length === 0) return { value: text.slice(start, end) };
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
  return { value: text.slice(start, end), parts };
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
