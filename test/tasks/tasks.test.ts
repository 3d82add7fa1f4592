/**
 * The 245 benchmark tasks: all exist in the documented format, the bundle is
 * current, the code and overrides are what the generator would build, gcc
 * accepts every override, the spread of bug counts and classes is within
 * 10% of OSVBench's, and the oracle refutes every buggy variant and verifies
 * every correct one.
 *
 * The verification part re-checks all 245 tasks with one shared engine:
 * `verify()` for the 49 correct tasks (they must be `verified`), and for the
 * 196 buggy ones the one-query refutation of src/core/tasks/refute.ts (the
 * same refinement obligations as `verify()`, a counterexample replayed by
 * our evaluator; the generator ran the full `verify()` on each). Set
 * OSVLAB_FULL_VERIFY=1 to run the full `verify()` on the buggy ones too.
 */
import { spawnSync } from 'node:child_process';
import { toolAvailable } from '../artefacts.ts';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectTasks } from '../../scripts/bundle-lib.ts';
import { nodeCaches, nodeEngine } from '../../src/z3/node.ts';
import { buildTask, linkVariant, taskHash } from '../../src/core/tasks/build-task.ts';
import { indexSource } from '../../src/core/tasks/c-source.ts';
import { declarationOf } from '../../src/core/tasks/shown-code.ts';
import { CLASS_TARGETS, COUNT_TARGETS } from '../../src/core/tasks/plan.ts';
import { quickRefute } from '../../src/core/tasks/refute.ts';
import { BUG_CLASSES, type Task } from '../../src/core/tasks/task.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import { parseProgram } from '../../src/core/c/index.ts';
import { KERNEL, oracleSpec } from '../../src/core/kernel/content.ts';
import { DESCRIPTIONS } from '../../src/core/kernel/descriptions.ts';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import { verify } from '../../src/core/verify/index.ts';

const ROOT = join(__dirname, '../..');
const TASK_DIR = join(ROOT, 'tasks/hv6/tasks');
const BENCH = HANDLERS.filter((h) => h.inBenchmark).map((h) => h.name);

let tasks: readonly Task[];
beforeAll(async () => {
  tasks = await loadTasks();
});

const kernel = (() => {
  const r = parseProgram(KERNEL.files, KERNEL.units);
  if (!r.ok) throw new Error(r.errors[0].message);
  return r.program;
})();

describe('the task set', () => {
  it('has the correct and four buggy variants of each of the 49 handlers, one file each, indexed', () => {
    expect(BENCH).toHaveLength(49);
    expect(tasks.map((t) => t.id)).toEqual(BENCH.flatMap((h) => [0, 1, 2, 3, 4].map((i) => `${h}-v${i}`)));
    const files = readdirSync(TASK_DIR).filter((f) => f.endsWith('.json') && f !== 'index.json').sort();
    expect(files).toEqual(tasks.map((t) => `${t.id}.json`).sort());
    for (const t of tasks) expect(JSON.parse(readFileSync(join(TASK_DIR, `${t.id}.json`), 'utf8')), t.id).toEqual(t);
    const index = JSON.parse(readFileSync(join(TASK_DIR, 'index.json'), 'utf8'));
    expect(index.count).toBe(245);
    expect(index.entries).toEqual(tasks.map((t) => ({ id: t.id, handler: t.handler, bug_count: t.bug_count, bug_classes: t.bug_classes, hash: t.hash })));
  });

  it('is what tasks/hv6/tasks.json bundles (npm run bundle keeps it current)', () => {
    const bundle = collectTasks(ROOT);
    expect(bundle.tasks).toEqual(tasks);
    expect(bundle.kernelHash).toBe(KERNEL.kernelHash);
  });

  it('follows the documented format', async () => {
    const kIndex = indexSource(kernel);
    for (const t of tasks) {
      expect(Object.keys(t).sort(), t.id).toEqual(
        ['bug_classes', 'bug_count', 'code', 'declaration', 'description', 'handler', 'hash', 'id', 'impl_override', 'provenance'],
      );
      expect(t.hash, t.id).toBe(await taskHash(t));
      expect(t.declaration, t.id).toBe(declarationOf(kIndex, t.handler));
      expect(t.description, t.id).toBe(DESCRIPTIONS[t.handler]);
      expect(t.code, t.id).toMatch(new RegExp(`^int ${t.handler}\\(`, 'm'));
      if (t.id.endsWith('-v0')) {
        expect(t.bug_count).toBe(0);
        expect(t.bug_classes).toEqual([]);
        expect(t.provenance).toEqual([]);
        expect(t.impl_override).toBe('');
        continue;
      }
      expect(t.bug_count, t.id).toBeGreaterThanOrEqual(1);
      expect(t.bug_count, t.id).toBeLessThanOrEqual(5);
      expect(t.provenance, t.id).toHaveLength(t.bug_count);
      expect(t.bug_classes, t.id).toEqual(BUG_CLASSES.filter((c) => t.provenance.some((p) => p.bugClass === c)));
      expect(t.impl_override.startsWith('#include "kernel.h"\n'), t.id).toBe(true);
      const lines = t.code.split('\n').length;
      for (const p of t.provenance) {
        expect(p.line, t.id).toBeGreaterThanOrEqual(1);
        expect(p.line, t.id).toBeLessThanOrEqual(lines);
        expect(t.impl_override, `${t.id}: ${p.function}`).toMatch(new RegExp(`\\b${p.function}\\(`));
      }
    }
  });

  it('shows buggy code that differs from the correct code, and no two variants of a handler alike', () => {
    for (const h of BENCH) {
      const vs = tasks.filter((t) => t.handler === h);
      expect(new Set(vs.map((t) => t.code)).size, h).toBe(5);
      expect(new Set(vs.map((t) => t.impl_override)).size, h).toBe(5);
    }
  });

  it('rebuilds a sample of tasks byte for byte from their overrides', async () => {
    const sample = tasks.filter((_, i) => i % 20 === 7);
    for (const t of sample) {
      const index = Number(t.id.slice(t.id.lastIndexOf('-v') + 2));
      if (!t.impl_override) {
        expect(await buildTask(KERNEL, kernel, t.handler, 0)).toEqual(t);
        continue;
      }
      // The override links, and the shown code is the extraction from the kernel with it linked in.
      const program = linkVariant(KERNEL, t.impl_override);
      expect(program.functions.get(t.handler), t.id).toBeDefined();
      const rebuilt = await buildTask(KERNEL, kernel, t.handler, index, {
        handler: t.handler, override: t.impl_override, mutations: [], functions: new Map(), anchors: [],
      });
      expect(rebuilt.code, t.id).toBe(t.code);
    }
  });

  const HAS_GCC = toolAvailable(spawnSync('gcc', ['--version']).status === 0, 'gcc', 'gcc');
  it.skipIf(!HAS_GCC)('every override compiles with gcc -Wall -Werror', () => {
    const dir = mkdtempSync(join(tmpdir(), 'osvlab-tasks-'));
    const flags = ['-std=gnu11', '-fsyntax-only', '-ffreestanding', '-nostdinc', '-Wall', '-Werror', '-I', join(ROOT, 'tasks/hv6/kernel')];
    for (const t of tasks.filter((x) => x.impl_override)) {
      const file = join(dir, `${t.id}.c`);
      writeFileSync(file, t.impl_override);
      const r = spawnSync('gcc', [...flags, file], { encoding: 'utf8' });
      expect(r.status, `${t.id}: ${r.stderr}`).toBe(0);
    }
  });
});

describe('the spread of bugs', () => {
  it('is within 10% of OSVBench by bug count and by class', () => {
    const buggy = tasks.filter((t) => t.bug_count > 0);
    expect(buggy).toHaveLength(196);
    const rows: string[] = ['bugs  tasks  target'];
    for (const [n, target] of Object.entries(COUNT_TARGETS)) {
      const got = buggy.filter((t) => t.bug_count === Number(n)).length;
      rows.push(`${n.padStart(4)}  ${String(got).padStart(5)}  ${String(target).padStart(6)}`);
      expect(Math.abs(got - target), `${n} bugs: ${got} vs ${target}`).toBeLessThanOrEqual(target * 0.1);
    }
    rows.push('class                 tasks  target');
    for (const c of BUG_CLASSES) {
      const got = buggy.filter((t) => t.bug_classes.includes(c)).length;
      rows.push(`${c.padEnd(20)}  ${String(got).padStart(5)}  ${String(CLASS_TARGETS[c]).padStart(6)}`);
      expect(Math.abs(got - CLASS_TARGETS[c]), `${c}: ${got} vs ${CLASS_TARGETS[c]}`).toBeLessThanOrEqual(CLASS_TARGETS[c] * 0.1);
    }
    const ops = new Map<string, number>();
    for (const t of buggy) for (const p of t.provenance) ops.set(p.operator, (ops.get(p.operator) ?? 0) + 1);
    rows.push('operator uses: ' + [...ops].sort((a, b) => b[1] - a[1]).map(([o, n]) => `${o} ${n}`).join(', '));
    console.log(rows.join('\n'));
  });
});

describe('the oracle against every task', () => {
  const full = !!process.env.OSVLAB_FULL_VERIFY;
  it('verifies every correct task and refutes every buggy one', async () => {
    const engine = await nodeEngine();
    const wrong: string[] = [];
    for (const t of tasks) {
      const spec = oracleSpec(t.handler)!;
      if (!t.impl_override || full) {
        const v = await verify({ handler: t.handler, spec, implSource: t.impl_override, timeoutMs: 120000 }, { engine, caches: nodeCaches() });
        const want = t.impl_override ? 'refuted' : 'verified';
        if (v.status !== want) wrong.push(`${t.id}: ${v.status}, expected ${want}`);
      } else {
        const q = await quickRefute({ handler: t.handler, spec, implSource: t.impl_override, timeoutMs: 120000 }, { engine, caches: nodeCaches() });
        if (q !== 'refuted') wrong.push(`${t.id}: ${q}, expected refuted`);
      }
    }
    expect(wrong).toEqual([]);
  }, 3_600_000);
});
