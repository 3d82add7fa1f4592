/**
 * Prompt variants: `standard` is the benchmark prompt unchanged (its golden
 * file is in prompt.test.ts), `guide` is the same prompt with one more
 * numbered section, the checklist, between the examples and the task.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPrompt, promptBuilder } from '../../../src/core/eval/prompt/prompt.ts';
import { PROMPT_VARIANTS, UnknownVariantError, VARIANTS, promptVariant } from '../../../src/core/eval/prompt/variants.ts';
import type { Task } from '../../../src/core/tasks/task.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';

let tasks: readonly Task[];
beforeAll(async () => {
  tasks = await loadTasks();
});
const byId = (id: string) => tasks.find((t) => t.id === id)!;
const headings = (text: string) => [...text.matchAll(/^## (.*)$/gm)].map((m) => m[1]);

/** The user message with the checklist section taken out and the sections after it renumbered. */
function withoutChecklist(text: string): string {
  const start = text.search(/\n## \d+\. A checklist for reading the code\n/);
  const next = text.indexOf('\n## ', start + 1);
  expect(start).toBeGreaterThan(0);
  return (text.slice(0, start) + text.slice(next)).replace(/^## (\d+)\. Your task/m, (_, n) => `## ${Number(n) - 1}. Your task`);
}

describe('prompt variants', () => {
  it('guide is the standard prompt plus the checklist before the task, for 0 and 3 shots', () => {
    for (const k of [0, 3]) {
      const std = buildPrompt(byId('sys_dup-v1'), k, tasks);
      const guide = buildPrompt(byId('sys_dup-v1'), k, tasks, { variant: 'guide' });
      expect(std.meta.variant).toBe('standard');
      expect(guide.meta.variant).toBe('guide');
      expect(guide.meta.examples).toEqual(std.meta.examples);
      expect(guide.messages[0]).toEqual(std.messages[0]);
      const before = k ? ['1. The verification setting', '2. The specification language', '3. Worked examples'] : ['1. The verification setting', '2. The specification language'];
      const n = before.length;
      expect(headings(guide.messages[1].content)).toEqual([...before, `${n + 1}. A checklist for reading the code`, `${n + 2}. Your task: \`sys_dup\``]);
      expect(withoutChecklist(guide.messages[1].content)).toBe(std.messages[1].content);
    }
  });

  it('the checklist has its seven points, in order', () => {
    const body = promptVariant('guide').sections[0].body;
    const points = [...body.matchAll(/^(\d)\. \*\*(.+?)\*\*/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(points).toEqual([
      '1 The arguments and their widths.',
      '2 Each early return is a conjunct.',
      '3 Each write to a field.',
      '4 Reference counts.',
      '5 Ranges as lambdas.',
      '6 What the return value means.',
      '7 What stays unchanged.',
    ]);
  });

  it('are data: a new entry is a new variant, standard is the default and adds nothing', () => {
    expect(PROMPT_VARIANTS).toEqual(['standard', 'guide']);
    expect(VARIANTS.map((v) => v.id)).toEqual(PROMPT_VARIANTS);
    expect(promptVariant().id).toBe('standard');
    expect(promptVariant('standard').sections).toEqual([]);
    const custom = { id: 'terse', label: 'terse', summary: 'x', sections: [{ heading: 'Be brief', body: 'One conjunct per line.' }] };
    const u = buildPrompt(byId('sys_kill-v0'), 0, tasks, { variant: custom }).messages[1].content;
    expect(headings(u)).toEqual(['1. The verification setting', '2. The specification language', '3. Be brief', '4. Your task: `sys_kill`']);
  });

  it('refuse an unknown id with a coded error naming the known ones, before any prompt is built', () => {
    expect(() => promptBuilder(tasks, { variant: 'guided' })).toThrow(UnknownVariantError);
    expect(() => promptVariant('guided')).toThrow('unknown prompt variant "guided"; known: standard, guide');
    const thrown = (() => {
      try {
        promptVariant('x');
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toMatchObject({ code: 'PROMPT001', id: 'x' });
  });
});
