/**
 * The glue we run (src/z3/glue.ts): the installed z3-solver's glue has
 * the table check and the three C++ throws word for word, and the patch
 * removes the one and flags the others and changes nothing else; the Node
 * loader and the copy for the browser both run the patched glue.
 * When an upgrade changes the glue, the first test fails: look at the new
 * glue's hot path again.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeEngine, z3Files } from '../../src/z3/node.ts';
import * as o from '../../src/core/smt/ops.ts';
import { bvConst, variable } from '../../src/core/smt/term.ts';
import { CPP_THROW_FLAG } from '../../src/z3/wasm-invoke.ts';
import { importAdmits, readMemoryImport } from '../../src/z3/wasm-memory.ts';
import { RETIRED_WASM_FILES, Z3_MEMORY_MIB, Z3_WASM_FILE, pagesOf } from '../../src/z3/memory.ts';
import { CPP_THROW, FLAGGED_CPP_THROW, TABLE_MIRROR_CHECK, TABLE_MIRROR_NOTE, fastGlue } from '../../src/z3/glue.ts';

const ROOT = join(import.meta.dirname, '../..');
const shipped = () => readFileSync(createRequire(import.meta.url).resolve('z3-solver/build/z3-built.js'), 'utf8');

describe("Z3's glue", () => {
  it('loses exactly the table check of the installed z3-solver, and flags its three C++ throws', () => {
    const original = shipped();
    const { text, patched } = fastGlue(original);
    expect(patched).toBe(true);
    expect(text).not.toContain(TABLE_MIRROR_CHECK);
    expect(text.split(FLAGGED_CPP_THROW).length - 1).toBe(3);
    expect(text).toContain(CPP_THROW_FLAG);
    // Everything else is as it ships: undoing both changes gives the original.
    expect(text.replace(TABLE_MIRROR_NOTE, TABLE_MIRROR_CHECK).replaceAll(FLAGGED_CPP_THROW, CPP_THROW)).toBe(original);
  });

  it('changes nothing where the statements are not there as often as expected', () => {
    expect(fastGlue('var x = 1;')).toEqual({ text: 'var x = 1;', patched: false });
    const throws = `${CPP_THROW}\n${CPP_THROW}\n${CPP_THROW}`;
    const twice = `${TABLE_MIRROR_CHECK}\n${TABLE_MIRROR_CHECK}\n${throws}`;
    expect(fastGlue(twice)).toEqual({ text: twice, patched: false });
    const fourThrows = `${TABLE_MIRROR_CHECK}\n${throws}\n${CPP_THROW}`;
    expect(fastGlue(fourThrows)).toEqual({ text: fourThrows, patched: false });
    expect(fastGlue(`${TABLE_MIRROR_CHECK}\n${throws}`).patched).toBe(true);
  });

  it('is what the CLI loads, and Z3 answers from it', async () => {
    const { glue: file, wasm, patched } = z3Files();
    expect(patched).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(fastGlue(shipped()).text);
    // The CLI's one wasm, as the site's, links to a memory of every size (OSVLAB_Z3_MEMORY; src/z3/memory.ts).
    const mem = readMemoryImport(readFileSync(wasm));
    expect(Z3_MEMORY_MIB.filter((mib) => !importAdmits(mem, pagesOf(mib)))).toEqual([]);
    // A query that needs the solver's pthread (the patched glue is what Z3's workers load).
    const x = variable('glue.x', 64);
    const r = await (await nodeEngine()).check([o.eq(o.mul(x, x), bvConst(49, 64)), o.ult(x, bvConst(100, 64))]);
    expect(r.status).toBe('sat');
    if (r.status === 'sat') {
      expect(r.model.constant('glue.x', 64)).toBe(7n);
      r.model.dispose();
    }
  });

  it('is what the browser is served, with the one wasm it needs: scripts/copy-z3.ts writes them to public/', async () => {
    // A copy per memory size that an earlier build left in public/ would be shipped with the site: the copy deletes it.
    writeFileSync(join(ROOT, 'public', RETIRED_WASM_FILES[2]), 'left by an earlier build');
    execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'copy-z3.ts')], { cwd: ROOT, stdio: 'pipe' });
    expect(readFileSync(join(ROOT, 'public', 'z3-built.js'), 'utf8')).toBe(fastGlue(shipped()).text);
    expect(readdirSync(join(ROOT, 'public')).filter((f) => f.endsWith('.wasm'))).toEqual([Z3_WASM_FILE]);
    // The one wasm serves every memory size, and has the trampolines whose flag the glue sets (src/z3/wasm-invoke.ts).
    const bytes = readFileSync(join(ROOT, 'public', Z3_WASM_FILE));
    // Without its names (4.9 MB) and the linker's padding (3.1 MB, src/z3/wasm-compact.ts): 26.6 MB of z3-solver 5.2.0's 34.9.
    expect(bytes.length).toBeLessThan(27e6);
    const mem = readMemoryImport(bytes);
    expect({ min: mem.minPages, max: mem.maxPages, shared: mem.shared }).toEqual({ min: pagesOf(256), max: pagesOf(2048), shared: true });
    const m = await WebAssembly.compile(bytes);
    expect(WebAssembly.Module.exports(m)).toContainEqual({ name: CPP_THROW_FLAG, kind: 'global' });
  });
});
