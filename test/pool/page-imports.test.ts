/**
 * What the page's bundle takes of the verifier service: the client
 * (src/core/service/client.ts) and the job limits (src/core/service/limits.ts)
 * are the page's, and must not import the verifier itself (the driver, the
 * grader, the C checker), which only the workers run: an import of one
 * constant or one class brought the whole verifier into the page's first
 * bytes (docs/app.md, "Loading Z3"). Both read the default budget from the
 * leaf core/budget.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET_MS as driverBudget } from '../../src/core/verify/driver.ts';
import { hardLimitMs } from '../../src/core/service/limits.ts';

const SERVICE = join(import.meta.dirname, '../../src/core/service');

/** The modules `file` imports statically (not `import type`, not `import()`). */
function staticImports(file: string): string[] {
  const text = readFileSync(join(SERVICE, file), 'utf8');
  return [...text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]);
}

describe("the page's share of the verifier service", () => {
  it("limits a job by the driver's default budget", () => {
    expect(hardLimitMs({ kind: 'diff' })).toBe(driverBudget + hardLimitMs({ kind: 'diff', timeoutMs: 0 }));
  });

  it.each(['client.ts', 'limits.ts', 'grade-job.ts', 'exhaustion.ts'])('%s imports nothing of the verifier, the grader or the dialect', (file) => {
    const heavy = staticImports(file).filter((m) => /\/(verify|dialect|c|smt)\/|\/eval\/grade\/(?!grade-types\.ts$)/.test(m));
    expect(heavy).toEqual([]);
  });
});

const SRC = join(import.meta.dirname, '../../src');

/** Every source module `entry` reaches by static imports (the bundle's first chunks for it), as paths under src/. */
function staticGraph(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.(ts|svelte)$/.test(file)) continue;
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const m of text.matchAll(/^\s*import\s+(?!type\b)(?:[^;'"]*?from\s+)?'(\.[^']+)'/gm)) todo.push(join(dirname(file), m[1]));
  }
  return seen;
}

describe("a share link's first code", () => {
  // What src/app/main.ts loads before the app mounts on a share link, and the playground it opens in.
  const graph = staticGraph(['app/main.ts', 'app/App.svelte', 'app/state/verifier.svelte.ts', 'app/lib/cross-origin.ts', 'app/pages/Playground.svelte']);

  it('reaches the playground and its verdict view', () => {
    expect(graph).toContain('app/components/VerdictView.svelte');
    expect(graph).toContain('app/state/playground.svelte.ts');
  });

  it("holds neither the dialect's parser and lexer, the task bundle, the descriptions nor the storage's code: the first verdict needs none (fix-line-soon.svelte.ts, taskdb.svelte.ts, description.ts, storage-soon.ts)", () => {
    const late = [...graph].filter((f) => /^core\/dialect\/(parser|lexer)\.ts$|^core\/tasks\/load\.ts$|^core\/kernel\/descriptions\.ts$|^app\/lib\/(fix-line|storage)\.ts$/.test(f));
    expect(late).toEqual([]);
  });
});
