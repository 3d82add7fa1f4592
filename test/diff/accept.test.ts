/**
 * Which C our front end accepts, against gcc (docs/differential.md, "What
 * the front end accepts"): every golden C case with a `gcc:` header line
 * (test/cases/c) is compiled with the subset's gcc flags (docs/c-subset.md)
 * and parsed by `parseProgram`. `gcc: accept` means both must accept it;
 * `gcc: reject TEXT` means both must refuse it, gcc with a diagnostic that
 * contains TEXT (so the case fails for the reason it was written for).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/core/c/index.ts';
import { featureDir, loadCases } from '../cases/load.ts';
import { readDir } from '../c/helpers.ts';
import { HAS_GCC } from './native.ts';

const DIR = featureDir('c');
const FLAGS = ['-std=gnu11', '-fsyntax-only', '-ffreestanding', '-nostdinc', '-Wall', '-Werror', '-I', DIR];

const cases = loadCases('c').filter((c) => c.header.fields.gcc !== undefined);
const files = readDir(DIR);

describe.skipIf(!HAS_GCC)('the front end accepts what gcc -Werror accepts', () => {
  it('has cases both ways', () => {
    expect(cases.some((c) => c.header.fields.gcc === 'accept')).toBe(true);
    expect(cases.filter((c) => c.header.fields.gcc!.startsWith('reject ')).length).toBeGreaterThanOrEqual(5);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (name, c) => {
    const want = c.header.fields.gcc!;
    expect(want === 'accept' || /^reject \S/.test(want), `${name}: 'gcc:' is 'accept' or 'reject <part of gcc's message>'`).toBe(true);
    const gcc = spawnSync('gcc', [...FLAGS, join(DIR, name)], { encoding: 'utf8' });
    // gcc quotes names with typographic quotes in a UTF-8 locale.
    const said = gcc.stderr.replace(/[‘’]/g, "'");
    const ours = parseProgram(files, [name]);
    if (want === 'accept') {
      expect(said, `gcc refuses ${name}`).toBe('');
      expect(gcc.status).toBe(0);
      expect(ours.ok ? [] : ours.errors.map((e) => `${e.code} ${e.message}`), `we refuse ${name}`).toEqual([]);
    } else {
      expect(gcc.status, `gcc accepts ${name}`).not.toBe(0);
      expect(said).toContain(want.slice('reject '.length));
      expect(ours.ok, `we accept ${name}`).toBe(false);
    }
  });
});
