/**
 * Struct layout: sizeof, alignment and every member offset computed by our
 * front end must equal gcc's (x86-64 System V). A generated C program
 * prints gcc's numbers with __builtin_offsetof; no system header is used,
 * so the kernel's own typedefs never clash with libc's.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CProgram, type StructType, alignOf, sizeOf } from '../../src/core/c/index.ts';
import { requireArtefact } from '../artefacts.ts';
import { FIXTURES, compileC, kernelFiles, mustParse, readDir, run } from './helpers.ts';

/** "tag size align" and "tag.path offset" lines, ours. */
function ourLayout(program: CProgram, tags: string[]): string[] {
  const lines: string[] = [];
  for (const tag of tags) {
    const s = program.structs.get(tag)!;
    lines.push(`${tag} ${sizeOf(s)} ${alignOf(s)}`);
    const walk = (t: StructType, prefix: string, base: number) => {
      for (const m of t.members) {
        if (m.name === undefined) {
          walk(m.type as StructType, prefix, base + m.offset);
          continue;
        }
        const path = prefix + m.name;
        if (!m.bitField) lines.push(`${tag}.${path} ${base + m.offset}`); // gcc cannot take offsetof a bit-field
        if (m.type.kind === 'struct') walk(m.type, `${path}.`, base + m.offset);
      }
    };
    walk(s, '', 0);
  }
  return lines;
}

/** The same lines, printed by a program gcc compiles. */
function gccLayout(program: CProgram, tags: string[], header: string, sources: Record<string, string>, include: string[]): string[] {
  const stmts: string[] = [];
  for (const line of ourLayout(program, tags)) {
    const [what] = line.split(' ');
    const dot = what.indexOf('.');
    if (dot < 0) {
      stmts.push(`printf("${what} %lu %lu\\n", (unsigned long)sizeof(struct ${what}), (unsigned long)_Alignof(struct ${what}));`);
    } else {
      const tag = what.slice(0, dot);
      const path = what.slice(dot + 1);
      stmts.push(`printf("${what} %lu\\n", (unsigned long)__builtin_offsetof(struct ${tag}, ${path}));`);
    }
  }
  const main = `#include "${header}"\nint printf(const char *, ...);\nint main(void) {\n${stmts.join('\n')}\nreturn 0;\n}\n`;
  const exe = compileC({ ...sources, 'layout_main.c': main }, 'layout_main.c', include);
  return run(exe).trim().split('\n');
}

describe('struct layout equals gcc', () => {
  it('fixture structs: size, alignment and member offsets', () => {
    const dir = join(FIXTURES, 'layout');
    const files = readDir(dir);
    const program = mustParse(files, ['layout.c']);
    const tags = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const ours = ourLayout(program, tags);
    expect(ours.length).toBeGreaterThan(40);
    expect(gccLayout(program, tags, 'layout.h', Object.fromEntries(files), [])).toEqual(ours);
  });

  const kernel = requireArtefact(kernelFiles(), 'the kernel in tasks/hv6/kernel');
  it('kernel structs (state.h), with sizeof(struct proc) == 368', () => {
    const files = kernel;
    const units = [...files.keys()].filter((f) => f.endsWith('.c'));
    const program = mustParse(files, units);
    const tags = [...program.structs.keys()].filter((k) => !k.includes(':'));
    expect(tags).toContain('proc');
    expect(sizeOf(program.structs.get('proc')!)).toBe(368);
    expect(sizeOf(program.structs.get('page_desc')!)).toBe(32);
    expect(sizeOf(program.structs.get('file')!)).toBe(40);
    expect(sizeOf(program.structs.get('pci_func')!)).toBe(112);
    const ours = ourLayout(program, tags);
    expect(gccLayout(program, tags, 'state.h', Object.fromEntries(files), ['-ffreestanding'])).toEqual(ours);
  });
});
