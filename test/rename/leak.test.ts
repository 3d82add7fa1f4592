/**
 * No leak (docs/rename.md): the renamed prompt of each of the 245 tasks
 * (five worked examples, the benchmark's default), built as a renamed run
 * builds it (buildPrompt with `rename`), shows none of the original names,
 * in either style; the guide variant's own sections likewise, on a few
 * tasks (its sections are the same for every task): no name in code (fences, code spans),
 * no name in prose that is not an ordinary English word, no ordinary word
 * written as code. A second, cruder check reads the whole text word by
 * word, strings and comments included, for the names that are not words.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type PromptOptions, buildPrompt } from '../../src/core/eval/prompt/prompt.ts';
import { lensFor } from '../../src/core/rename/lens.ts';
import { RENAME_STYLES } from '../../src/core/rename/choice.ts';
import { PROSE_WORDS } from '../../src/core/rename/synonyms.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import type { Task } from '../../src/core/tasks/task.ts';

let tasks: readonly Task[];
let prompts: string[];
beforeAll(async () => {
  tasks = await loadTasks();
  prompts = tasks.map((t) => text(t));
});

/** Every message of `task`'s 5-shot prompt, in one text. */
const text = (task: Task, options: PromptOptions = {}) => buildPrompt(task, 5, tasks, options).messages.map((m) => m.content).join('\n\n');
/** Tasks the guide variant is checked on: one per fifty. */
const GUIDE_EVERY = 50;

describe('no leak', () => {
  for (const style of RENAME_STYLES) {
    it(`${style}: none of the 245 renamed prompts shows an original name`, () => {
      const lens = lensFor({ style, seed: 1 });
      const notWords = new Set([...lens.names.keys()].filter((n) => !PROSE_WORDS.has(n)));
      const leaks = new Map<string, number>();
      const lines = new Set<string>();
      const renamed = tasks.map((t) => text(t, { rename: { style, seed: 1 } }));
      renamed.push(...tasks.filter((_, i) => i % GUIDE_EVERY === 0).map((t) => text(t, { rename: { style, seed: 1 }, variant: 'guide' })));
      for (const r of renamed) {
        for (const n of lens.originalNames(r)) leaks.set(n, (leaks.get(n) ?? 0) + 1);
        for (const l of r.split('\n')) lines.add(l);
      }
      // The word-by-word check reads each distinct line once: a word needs no more context.
      const crude = new Set<string>();
      for (const l of lines) for (const w of l.match(/\b[A-Za-z_][A-Za-z0-9_]*\b/g) ?? []) if (notWords.has(w)) crude.add(w);
      // The checks can fail: the prompts before renaming show most of the vocabulary.
      const before = new Set(prompts.flatMap((p) => lens.originalNames(p)));
      console.log(`${style}: ${prompts.length} prompts (and ${renamed.length - prompts.length} of the guide variant) show ${before.size} original names before renaming, ${leaks.size} after (${crude.size} by the word-by-word check)`);
      expect(before.size).toBeGreaterThan(lens.names.size / 2);
      expect([...leaks]).toEqual([]);
      expect([...crude]).toEqual([]);
    });
  }
});
