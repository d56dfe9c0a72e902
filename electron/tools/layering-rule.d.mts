/** Types of layering-rule.mjs (plain JavaScript so that eslint.config.js loads it as is). */
import type { ESLint, Rule } from 'eslint';

/** The rule: reports an import whose target layer the importing file's layer may not import. */
export declare const layeringRule: Rule.RuleModule;
/** The local plugin eslint.config.js registers as `locksmith`. */
export declare const locksmithPlugin: ESLint.Plugin;
