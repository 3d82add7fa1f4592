/**
 * Every oracle spec present in tasks/hv6/specs/ (with its `# uses: name`
 * helpers from _shared/ prepended) must run cleanly on a fresh symbolic
 * state with fresh arguments, every changed field included (ghost ones too).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findHandler } from '../../src/core/kernel/handlers.ts';
import { freshState } from '../../src/core/kernel/state.ts';
import { BOOL, variable } from '../../src/core/smt/term.ts';
import { runSpec } from '../../src/core/dialect/index.ts';

const DIR = new URL('../../tasks/hv6/specs/', import.meta.url);
const files = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith('.py')).sort() : [];
// Every handler has its oracle; a missing one fails here, not silently.
const HANDLER_COUNT = 50;

function source(file: string): string {
  const text = readFileSync(new URL(file, DIR), 'utf8');
  const uses = [...text.matchAll(/^# uses: (\w+)\s*$/gm)].map((m) => m[1]);
  return [...uses.map((u) => readFileSync(new URL(`_shared/${u}.py`, DIR), 'utf8')), text].join('\n');
}

describe('oracle specs', () => {
  it('are all present: one per handler in tasks/hv6/specs/', () => {
    expect(files.length).toBe(HANDLER_COUNT);
  });

  for (const file of files) {
    const handler = file.replace(/\.py$/, '');
    it(`${handler} runs without error`, () => {
      const h = findHandler(handler);
      expect(h, `${file} names no handler`).toBeDefined();
      const args = h!.args.map((a) => variable(`arg.${a.name}`, a.width));
      const r = runSpec(source(file), handler, freshState(), args, { force: 'all' });
      if (!r.ok) throw new Error(r.error.detail);
      expect(r.cond.sort).toBe(BOOL);
      expect([h!.name, h!.alias]).toContain(r.entryName);
    });
  }
});
