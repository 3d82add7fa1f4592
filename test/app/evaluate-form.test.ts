/**
 * The Evaluate form's renaming seed (src/app/state/evaluate-form.ts,
 * docs/rename.md): checked only when the model is shown renamed names, a
 * whole number of 0 or more.
 */
import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../../src/app/state/evaluate-form.ts';

const fields = { n: 1, shots: 0, repairRounds: 0, concurrency: 4, temperature: null, maxTokens: null, maxCost: null, maxTotalTokens: null };
const URL = 'https://api.openai.com/v1';

describe('the names seed', () => {
  it('is not asked for with hv6 names', () => {
    expect(fieldErrors(URL, { ...fields, names: '', renameSeed: null })).toEqual({});
  });

  it('is a whole number of 0 or more with a renaming', () => {
    expect(fieldErrors(URL, { ...fields, names: 'synonym', renameSeed: 0 })).toEqual({});
    expect(fieldErrors(URL, { ...fields, names: 'opaque', renameSeed: null }).renameSeed).toMatch(/names seed is needed/);
    expect(fieldErrors(URL, { ...fields, names: 'opaque', renameSeed: 2.5 }).renameSeed).toMatch(/whole number/);
    expect(fieldErrors(URL, { ...fields, names: 'opaque', renameSeed: -1 }).renameSeed).toMatch(/at least 0/);
  });
});
