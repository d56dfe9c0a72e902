/** Types of bin/renderer-build.mjs (plain JavaScript, shared by `npm start` and `locksmith serve`). */

/** Newest modification time under the given files/folders, tests and dot-folders skipped (0 when none exist). */
export function newest(paths: readonly string[]): number;
/** True when `output` is missing or older than any of `inputs`. */
export function stale(output: string, inputs: readonly string[]): boolean;
/** The built renderer's entry page under a checkout. */
export function rendererEntry(root: string): string;
/** What the renderer build reads: its sources, shared/, the Vite config and package.json. */
export function rendererInputs(root: string): string[];
/** True when the renderer must be (re)built before it is served. */
export function rendererStale(root: string): boolean;
/** The command that builds the renderer, or undefined when Vite is not installed. */
export function rendererBuildCommand(root: string): [string, string[]] | undefined;
/** Runs the renderer build in `root` (output on stderr); resolves with its exit code, undefined when Vite is not installed. */
export function buildRenderer(root: string): Promise<number | undefined>;
