/**
 * Round trip (docs/rename.md): inverse(forward(x)) is x token for token for
 * every oracle spec, every task's shown code and every answer of the
 * grading corpus (perf/corpus/answers.jsonl, the extracted spec of the
 * renamed answer), in both styles and three seeds; and renaming changes
 * each of them, keeping its lines. Comments may differ (a word of a comment
 * that is a new name comes back as the old one); tokens may not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { lex as lexC } from '../../src/core/c/lexer.ts';
import { lex as lexSpec } from '../../src/core/dialect/lexer.ts';
import { extractSpec } from '../../src/core/eval/grade/answer.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import { lensFor } from '../../src/core/rename/lens.ts';
import { RENAME_STYLES } from '../../src/core/rename/choice.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import type { Task } from '../../src/core/tasks/task.ts';
import { corpus } from '../corpus.ts';

const SEEDS = [1, 2, 3];

/** Spec tokens as `kind:spelling`, or the C lexer's for text the dialect cannot lex (the lens reads it so too). */
function specTokens(text: string): string[] {
  try {
    return lexSpec(text).map((t) => `${t.kind}:${t.value}`);
  } catch {
    return lexC('<spec>', text).tokens.map((t) => `${t.kind}:${t.text}`);
  }
}

const cTokens = (text: string) => lexC('<code>', text).tokens.map((t) => `${t.kind}:${t.text}`);
const lines = (text: string) => text.split('\n').length;

let tasks: readonly Task[];
beforeAll(async () => {
  tasks = await loadTasks();
});

const specs = HANDLERS.map((h) => oracleSpec(h.name)).filter((s): s is string => s !== undefined);
const answers = corpus();

describe('round trip', () => {
  it('reads all 50 oracle specs, 245 tasks and 298 corpus answers', () => {
    expect(specs.length).toBe(50);
    expect(tasks.length).toBe(245);
    expect(answers.length).toBe(298);
  });

  for (const style of RENAME_STYLES) {
    for (const seed of SEEDS) {
      it(`${style}, seed ${seed}`, () => {
        const lens = lensFor({ style, seed });
        const bad: string[] = [];
        let same = 0;
        for (const [i, s] of specs.entries()) {
          const f = lens.forward.codeText(s, 'python');
          if (f === s || lines(f) !== lines(s)) bad.push(`spec ${i}: not renamed, or its lines changed`);
          if (specTokens(lens.inverse.codeText(f, 'python')).join(' ') !== specTokens(s).join(' ')) bad.push(`spec ${i}`);
        }
        for (const t of tasks) {
          const f = lens.forward.codeText(t.code, 'c');
          if (f === t.code || lines(f) !== lines(t.code)) bad.push(`${t.id}: not renamed, or its lines changed`);
          if (cTokens(lens.inverse.codeText(f, 'c')).join(' ') !== cTokens(t.code).join(' ')) bad.push(t.id);
        }
        for (const a of answers) {
          const renamed = lens.forward.markdown(a.response);
          const original = extractSpec(a.response);
          const shown = extractSpec(renamed);
          if (renamed === a.response || original === null || shown === null) {
            bad.push(`answer ${a.handler} ${a.made}: not renamed, or no code`);
            continue;
          }
          const back = lens.inverse.codeText(shown, 'python');
          if (specTokens(back).join(' ') !== specTokens(original).join(' ')) bad.push(`answer ${a.handler} ${a.made}`);
          if (back === original) same++;
        }
        expect(bad).toEqual([]);
        // Answers carry no comment spelled like a new name: they come back byte for byte.
        expect(same).toBe(answers.length);
      });
    }
  }
});
