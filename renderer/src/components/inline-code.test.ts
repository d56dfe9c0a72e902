import { describe, expect, it } from 'vitest';
import { inlineCodeRuns } from './inline-code';

describe('inlineCodeRuns', () => {
  it.each([
    [
      'Open the URL printed by `locksmith serve`.',
      [
        { code: false, text: 'Open the URL printed by ' },
        { code: true, text: 'locksmith serve' },
        { code: false, text: '.' },
      ],
    ],
    ['aws sso login --profile dev', [{ code: false, text: 'aws sso login --profile dev' }]],
    ['an unpaired ` stays', [{ code: false, text: 'an unpaired ` stays' }]],
    ['`npm start`', [{ code: true, text: 'npm start' }]],
  ])('%s', (text, runs) => {
    expect(inlineCodeRuns(text)).toEqual(runs);
  });
});
