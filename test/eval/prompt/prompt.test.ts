/**
 * The benchmark prompts: their five-part structure, no leak of the target
 * (its oracle, its handler, or a sibling sharing its logic) into the
 * examples, byte-for-byte determinism, a stored golden prompt, the repair
 * prompt, and the size in tokens (OSVBench's 5-shot prompts have a median of
 * about 24k tokens).
 *
 * The golden files are test/eval/prompt/golden/sys_dup-v1.k1.txt and its
 * .repair.txt; after an intended change to the prompt text, a run with
 * UPDATE_GOLDEN=1 rewrites them (and fails), the next run checks them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  SHOT_COUNTS, SYSTEM_MESSAGE, buildPrompt, buildRepairPrompt, sharedHelpersOf, siblingsOf,
} from '../../../src/core/eval/prompt/prompt.ts';
import type { Task } from '../../../src/core/tasks/task.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import { distribution, promptTokens } from '../../../src/core/eval/prompt/tokens.ts';
import { KERNEL, oracleSpec } from '../../../src/core/kernel/content.ts';
import type { ChatMessage } from '../../../src/core/llm/types.ts';

const GOLDEN = join(__dirname, 'golden/sys_dup-v1.k1.txt');
/** The messages a repair round adds, with a counterexample diagnosis: their text keys the response cache. */
const REPAIR_GOLDEN = join(__dirname, 'golden/sys_dup-v1.k1.repair.txt');
const CEX_DIAGNOSIS = [
  "The spec does not match the kernel's behaviour. Failing obligations: current.",
  'Counterexample:',
  "With oldfd=0, pid=1, newfd=0: the spec's condition is True and the implementation returns 0.",
  'Failing: current.',
  'current: was 2, the spec makes it 1, the implementation makes it 2.',
].join('\n');
const WRONG_ANSWER = '```python\ndef sys_dup(old, oldfd, pid, newfd):\n    pass\n```';

let tasks: readonly Task[];
beforeAll(async () => {
  tasks = await loadTasks();
});

const byId = (id: string) => tasks.find((t) => t.id === id)!;
const handlerOf = (id: string) => byId(id).handler;

function render(messages: readonly ChatMessage[]): string {
  return messages.map((m) => `===== ${m.role} =====\n${m.content}`).join('\n');
}

describe('prompt structure', () => {
  it('has a system message and one user message with the five parts, for every k', () => {
    const t = byId('sys_dup-v1');
    for (const k of SHOT_COUNTS) {
      const { messages, meta } = buildPrompt(t, k, tasks);
      expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(messages[0].content).toBe(SYSTEM_MESSAGE);
      expect(SYSTEM_MESSAGE).toMatch(/one fenced code block tagged python/);
      const u = messages[1].content;
      const headings = [...u.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
      expect(headings).toEqual([
        '1. The verification setting',
        '2. The specification language',
        ...(k ? ['3. Worked examples', '4. Your task: `sys_dup`'] : ['3. Your task: `sys_dup`']),
      ]);
      expect([...u.matchAll(/^### Example (\d+): /gm)].map((m) => Number(m[1]))).toEqual(Array.from({ length: k }, (_, i) => i + 1));
      expect(meta.examples).toHaveLength(k);
      expect(meta.shots).toBe(k);
      // The question carries the task's own text: declaration, description and (buggy) code.
      const question = u.slice(u.lastIndexOf('\n## '));
      expect(question).toContain(t.declaration);
      expect(question).toContain(t.code.trimEnd());
      expect(question).toContain(t.description.split('\n').slice(2).join('\n').trim().slice(0, 200));
      expect(question).toMatch(/```python block/);
    }
  });

  it('generates the programming model from the dialect catalog', () => {
    const u = buildPrompt(byId('sys_kill-v0'), 0, tasks).messages[1].content;
    for (const name of ['procs[pid].nr_fds()', 'dt.PTE_PERM_MASK', 'z3.ULT(a, b)', 'util.If(c, a, b)', 'new.flush_tlb(pid)', 'dt.proc_state']) {
      expect(u).toContain(name);
    }
  });

  it('shows each example with its description, code and oracle spec; buggy example code is flagged', () => {
    const { messages, meta } = buildPrompt(byId('sys_reap-v2'), 5, tasks);
    const u = messages[1].content;
    for (const id of meta.examples) {
      const ex = byId(id);
      expect(u).toContain(ex.code.trimEnd());
      expect(u).toContain(oracleSpec(ex.handler)!.trimEnd());
      const section = u.slice(u.indexOf(`: \`${ex.handler}\``));
      expect(section.slice(0, section.indexOf('```c'))).toContain(ex.bug_count ? 'deliberate bug' : '#### Implementation');
    }
  });
});

describe('no leak of the target into the examples', () => {
  it('never shows the target, a shared-helper sibling or a same-family handler, for any task at k = 9', () => {
    for (const t of tasks) {
      const { messages, meta } = buildPrompt(t, 9, tasks);
      const u = messages[1].content;
      const examples = meta.examples.map(handlerOf);
      expect(new Set(examples).size, t.id).toBe(9);
      expect(examples, t.id).not.toContain(t.handler);
      expect(meta.excluded, t.id).toContain(t.handler);
      for (const h of examples) {
        expect(meta.excluded, `${t.id} shows ${h}`).not.toContain(h);
        expect(sharedHelpersOf(h).filter((s) => sharedHelpersOf(t.handler).includes(s)), `${t.id} shows ${h}`).toEqual([]);
      }
      // The target's oracle, and the shared helpers it uses, appear nowhere in the prompt.
      expect(u.includes(KERNEL.specs[t.handler].trim()), t.id).toBe(false);
      for (const s of sharedHelpersOf(t.handler)) expect(u.includes(KERNEL.shared[s].trim()), `${t.id}: ${s}`).toBe(false);
    }
  });

  it('counts the alloc_page_table, send_recv and map_page families as siblings', () => {
    expect(siblingsOf('sys_alloc_pd', tasks)).toEqual(expect.arrayContaining(['sys_alloc_pdpt', 'sys_alloc_pd', 'sys_alloc_pt', 'sys_alloc_frame']));
    expect(siblingsOf('call_proc', tasks)).toEqual(expect.arrayContaining(['call_proc', 'reply_wait_proc']));
    expect(siblingsOf('sys_map_proc', tasks)).toEqual(expect.arrayContaining(['sys_map_dev', 'sys_map_file', 'sys_map_page_desc', 'sys_map_pml4']));
    expect(siblingsOf('sys_kill', tasks)).toEqual(['sys_kill']);
  });
});

describe('determinism', () => {
  it('gives the same bytes for the same input, whatever the order of the task list', () => {
    const t = byId('clone_proc-v3');
    const a = JSON.stringify(buildPrompt(t, 5, tasks));
    expect(JSON.stringify(buildPrompt(t, 5, tasks))).toBe(a);
    expect(JSON.stringify(buildPrompt(t, 5, [...tasks].reverse()))).toBe(a);
  });

  it('matches the stored golden prompt of sys_dup-v1 with one example, byte for byte', () => {
    matchGolden(GOLDEN, render(buildPrompt(byId('sys_dup-v1'), 1, tasks).messages));
  });
});

/**
 * Compares `text` with the stored `file`. With UPDATE_GOLDEN set, a file that
 * differs (or is missing) is rewritten and the test still fails, naming it:
 * a run that rewrites a golden never passes, so the new text is read
 * (`git diff`) and the next run, without UPDATE_GOLDEN, checks it.
 */
function matchGolden(file: string, text: string): void {
  const stored = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (process.env.UPDATE_GOLDEN && stored !== text) {
    mkdirSync(join(__dirname, 'golden'), { recursive: true });
    writeFileSync(file, text);
    expect.fail(`${file} did not match and was rewritten (UPDATE_GOLDEN): read its diff, then run again without UPDATE_GOLDEN`);
  }
  expect(stored, `${file} is missing: run with UPDATE_GOLDEN=1 once`).toBeDefined();
  expect(text).toBe(stored);
}

describe('repair prompt', () => {
  it('matches the stored golden repair round (counterexample feedback), byte for byte', () => {
    const original = buildPrompt(byId('sys_dup-v1'), 1, tasks).messages;
    const next = buildRepairPrompt(original, WRONG_ANSWER, CEX_DIAGNOSIS);
    matchGolden(REPAIR_GOLDEN, render(next.slice(original.length)));
  });

  it('continues the conversation with the answer, the diagnosis and an instruction', () => {
    const original = buildPrompt(byId('sys_dup-v0'), 0, tasks).messages;
    const next = buildRepairPrompt(original, '```python\ndef sys_dup(old, oldfd, pid, newfd):\n    pass\n```', 'refuted: cond\n  arguments: pid=0x2');
    expect(next.slice(0, original.length)).toEqual(original);
    expect(next.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(next[2].content).toContain('def sys_dup(old, oldfd, pid, newfd)');
    expect(next[3].content).toContain('refuted: cond\n  arguments: pid=0x2');
    expect(next[3].content).toMatch(/one ```python block/);
  });
});

describe('prompt size', () => {
  it('has a 5-shot median between 15k and 35k tokens (o200k_base), like OSVBench', () => {
    const counts = tasks.map((t) => promptTokens(buildPrompt(t, 5, tasks).messages));
    const d = distribution(counts);
    console.log(`5-shot prompt tokens over ${d.n} tasks: median ${d.median}, p10 ${d.p10}, p90 ${d.p90}, min ${d.min}, max ${d.max}`);
    expect(d.n).toBe(245);
    expect(d.median).toBeGreaterThanOrEqual(15000);
    expect(d.median).toBeLessThanOrEqual(35000);
  });
});
