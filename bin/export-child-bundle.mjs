// The esbuild options of the export audit's child process (electron/services/export/export-audit-child.ts),
// shared by the app's build (dist-electron/) and the CLI's (beside its chunks): run-export-audit.ts forks
// `export-audit-child.cjs` from the folder of the module that runs it, so neither forks it through tsx.

/** Options for esbuild.build: one CommonJS file at `outfile`, dependencies left to node_modules. */
export function exportChildBuild(outfile) {
  return {
    entryPoints: ['electron/services/export/export-audit-child.ts'],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // The child is an ES module in the sources: its import.meta (the forked-entry check) is the bundle's own file.
    define: { 'import.meta.url': '__locksmithImportMetaUrl', 'import.meta.dirname': '__dirname' },
    banner: { js: "const __locksmithImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  };
}
