/** Types of layers.mjs (the layer table is plain JavaScript so that eslint.config.js loads it as is). */

/** Layer → the layers it may import (its own always). */
export declare const MAY_IMPORT: Readonly<Record<string, readonly string[]>>;
/** The layer of a repo-relative path, or undefined when it sits in none. */
export declare function layerOf(file: string): string | undefined;
/** Whether a file is test support (a `testing` folder or a `testing-*` file). */
export declare function isTestSupport(file: string): boolean;
/** Why `file` may not import `target` (both repo-relative), or undefined when it may. */
export declare function layeringBreach(file: string, target: string): string | undefined;
