/**
 * The repository stands alone: no source, test, script, benchmark, doc or
 * kernel file cites a design document that is not in the clone. Design and
 * model facts are cited from docs/ (docs/design.md, docs/hv6-model.md).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const DIRS = ['src', 'test', 'perf', 'scripts', 'docs', 'deploy', 'tasks/hv6/kernel', 'tasks/hv6/specs', 'tasks/hv6/descriptions'];
const TEXT = /\.(ts|svelte|mjs|js|md|c|h|py|json|sh|yaml|yml|txt)$/;
// Built from parts so that this file does not cite them itself.
const OUTSIDE = new RegExp(['STATE', 'DESIGN', 'STYLE', 'SYSCALLS'].map((n) => `\\b${n}\\.md\\b`).join('|') + '|\\.\\./shared/');

function files(dir: string, out: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (TEXT.test(name)) out.push(p);
  }
  return out;
}

describe('citations', () => {
  const all = DIRS.flatMap((d) => files(join(root, d)));

  it('reads the files it checks', () => {
    expect(all.length).toBeGreaterThan(300);
  });

  it('cites no document outside the repository', () => {
    const bad: string[] = [];
    for (const f of all) {
      const lines = readFileSync(f, 'utf8').split('\n');
      lines.forEach((l, i) => OUTSIDE.test(l) && bad.push(`${relative(root, f)}:${i + 1}: ${l.trim().slice(0, 100)}`));
    }
    expect(bad).toEqual([]);
  });

  it('recognises a citation', () => {
    expect(OUTSIDE.test('see ' + 'STATE' + '.md 2.3')).toBe(true);
    expect(OUTSIDE.test('see docs/hv6-model.md §2.3')).toBe(false);
  });
});
