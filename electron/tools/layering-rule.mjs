/**
 * `locksmith/layering`: one generic ESLint rule for the house's layers, keyed by folder from layers.mjs.
 * Every relative import, re-export and dynamic import is resolved to a repo path and checked against the
 * table; type-only imports count as much as value imports, since a type edge ties layers together too.
 */
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layeringBreach } from './layers.mjs';

/** The repository root: the table's folders are relative to it. */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A path relative to the root, with forward slashes (the table's spelling) on every platform. */
const fromRoot = (path) => relative(ROOT, path).split(sep).join('/');

/** The rule: reports an import whose target layer the importing file's layer may not import. */
export const layeringRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each layer imports only the layers its entry in electron/tools/layers.mjs names (type-only imports included).' },
    schema: [],
    messages: { breach: '{{file}} → {{target}}: {{why}} (electron/tools/layers.mjs).' },
  },
  create(context) {
    const file = fromRoot(context.filename);
    /** Checks one module specifier; bare specifiers (packages) are left to the purity rules. */
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = fromRoot(join(dirname(context.filename), spec));
      const why = layeringBreach(file, target);
      if (why !== undefined) context.report({ node, messageId: 'breach', data: { file, target, why } });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      // `typeof import('…')` in a type position.
      TSImportType: (node) => {
        // typescript-eslint 8 names the string `source`; older versions wrapped it in `argument`.
        const literal = node.source ?? (node.argument?.type === 'TSLiteralType' ? node.argument.literal : undefined);
        if (literal && literal.type === 'Literal') check(literal, literal.value);
      },
    };
  },
};

/** The local plugin eslint.config.js registers as `locksmith`. */
export const locksmithPlugin = { meta: { name: 'locksmith' }, rules: { layering: layeringRule } };
