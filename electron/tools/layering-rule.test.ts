/** The layering lint rule, on imports written the ways a file can write them: it must refuse what the table refuses. */
import { join } from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import { layeringRule } from './layering-rule.mjs';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const ROOT = join(import.meta.dirname, '..', '..');
const at = (file: string): string => join(ROOT, file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' } });
const breach = { messageId: 'breach' };

tester.run('locksmith/layering', layeringRule, {
  valid: [
    { filename: at('electron/services/lookup/lookup.ts'), code: "import { ok } from '../../../shared/result';" },
    { filename: at('electron/services/lookup/lookup.ts'), code: "import { holderScan } from './holder-scan';" },
    { filename: at('electron/services/lookup/lookup.ts'), code: "import { z } from 'zod';" },
    { filename: at('electron/bridge/handlers.ts'), code: "import { lookup } from '../services/lookup/lookup';" },
    { filename: at('electron/cli/serve.ts'), code: "import { dispatch } from '../bridge/pipeline';" },
    { filename: at('renderer/src/app/app.tsx'), code: "import { Verdict } from '../features/lookup/verdict';" },
    { filename: at('renderer/src/features/lookup/verdict.tsx'), code: "import type { LookupVerdict } from '../../../../shared/domain';" },
    // Test support may reach the fixtures wherever it lives.
    { filename: at('electron/services/watch/testing-watch.ts'), code: "import { table } from '../../testing/tables';" },
  ],
  invalid: [
    { filename: at('electron/services/lookup/lookup.ts'), code: "import { dispatch } from '../../bridge/pipeline';", errors: [breach] },
    { filename: at('electron/services/lookup/lookup.ts'), code: "import type { Command } from '../../cli/commands';", errors: [breach] },
    { filename: at('electron/services/lookup/lookup.ts'), code: "export { startServer } from '../../serve/server';", errors: [breach] },
    { filename: at('electron/services/lookup/lookup.ts'), code: "export * from '../../serve/server';", errors: [breach] },
    { filename: at('electron/services/lookup/lookup.ts'), code: "const m = await import('../../cli/main');", errors: [breach] },
    { filename: at('electron/services/lookup/lookup.ts'), code: "type M = typeof import('../../bridge/pipeline');", errors: [breach] },
    { filename: at('shared/model.ts'), code: "import type { Dynamo } from '../electron/services/dynamo/client';", errors: [breach] },
    {
      filename: at('renderer/src/features/lookup/verdict.tsx'),
      code: "import { lookup } from '../../../../electron/services/lookup/lookup';",
      errors: [breach],
    },
    { filename: at('renderer/src/features/lookup/verdict.tsx'), code: "import { App } from '../../app/app';", errors: [breach] },
    { filename: at('renderer/src/components/table.tsx'), code: "import { Verdict } from '../features/lookup/verdict';", errors: [breach] },
    { filename: at('electron/services/lookup/lookup.ts'), code: "import { table } from '../../testing/tables';", errors: [breach] },
  ],
});
