/**
 * The glue we run (src/worker/z3-glue.ts): the installed z3-solver's glue has
 * the table check word for word, and the patch removes it and nothing else;
 * the Node loader and the copy for the browser both run the patched glue.
 * When an upgrade changes the glue, the first test fails: look at the new
 * glue's hot path again.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { glueFile, nodeEngine } from '../../src/cli/z3-node.ts';
import * as o from '../../src/core/smt/ops.ts';
import { bvConst, variable } from '../../src/core/smt/term.ts';
import { TABLE_MIRROR_CHECK, TABLE_MIRROR_NOTE, fastGlue } from '../../src/worker/z3-glue.ts';

const ROOT = join(import.meta.dirname, '../..');
const shipped = () => readFileSync(createRequire(import.meta.url).resolve('z3-solver/build/z3-built.js'), 'utf8');

describe("Z3's glue", () => {
  it('loses exactly the table check of the installed z3-solver', () => {
    const original = shipped();
    const { text, patched } = fastGlue(original);
    expect(patched).toBe(true);
    expect(text).not.toContain(TABLE_MIRROR_CHECK);
    // Everything else is as it ships: putting the check back gives the original.
    expect(text.replace(TABLE_MIRROR_NOTE, TABLE_MIRROR_CHECK)).toBe(original);
  });

  it('changes nothing where the check is not there exactly once', () => {
    expect(fastGlue('var x = 1;')).toEqual({ text: 'var x = 1;', patched: false });
    const twice = `${TABLE_MIRROR_CHECK}\n${TABLE_MIRROR_CHECK}`;
    expect(fastGlue(twice)).toEqual({ text: twice, patched: false });
  });

  it('is what the CLI loads, and Z3 answers from it', async () => {
    const { file, patched } = glueFile();
    expect(patched).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(fastGlue(shipped()).text);
    // A query that needs the solver's pthread (the patched glue is what Z3's workers load).
    const x = variable('glue.x', 64);
    const r = await (await nodeEngine()).check([o.eq(o.mul(x, x), bvConst(49, 64)), o.ult(x, bvConst(100, 64))]);
    expect(r.status).toBe('sat');
    if (r.status === 'sat') {
      expect(r.model.constant('glue.x', 64)).toBe(7n);
      r.model.dispose();
    }
  });

  it('is what the browser is served: scripts/copy-z3.ts writes it to public/', () => {
    execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'copy-z3.ts')], { cwd: ROOT, stdio: 'pipe' });
    expect(readFileSync(join(ROOT, 'public', 'z3-built.js'), 'utf8')).toBe(fastGlue(shipped()).text);
  });
});
