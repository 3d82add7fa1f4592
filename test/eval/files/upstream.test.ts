/**
 * Upstream's own files as they are: a results file in upstream's index
 * order (task i is handler i mod 49 of UPSTREAM_HANDLERS) maps every entry
 * to the handler it names, and upstream's benchmark.json (trailing comma and
 * misspelled labels included) gives the per-class table both ways.
 */
import { describe, expect, it } from 'vitest';
import { handlerOnlyTask } from '../../../src/core/eval/grade/grade.ts';
import { classTable, parseBenchmarkFile } from '../../../src/core/eval/files/benchmark-file.ts';
import { UPSTREAM_HANDLERS } from '../../../src/core/eval/files/osvbench.ts';
import { parseAnswerFile } from '../../../src/core/eval/files/responses.ts';
import { loadTasks } from '../../../src/core/tasks/load.ts';

const bare = (h: string) => `def ${h}(old, *args):\n    return old\n`;

describe("upstream's files", async () => {
  const tasks = await loadTasks();
  it('every entry of a results file in upstream order is graded against the handler it names', () => {
    expect(UPSTREAM_HANDLERS).toHaveLength(49);
    const indexes = [0, 15, 64, 113, 200, 244];
    const doc: Record<string, Record<string, string[]>> = {};
    for (const i of indexes) {
      const h = UPSTREAM_HANDLERS[i % 49];
      doc[String(i)] = { [h]: [bare(h), i === 64 ? 'Error!' : bare(h), bare(h)] };
    }
    const f = parseAnswerFile(JSON.stringify(doc, null, 4), tasks, handlerOnlyTask);
    expect(f.format).toBe('osvbench');
    expect(f.problems).toEqual([]);
    expect(f.items).toHaveLength(indexes.length * 3);
    for (const it of f.items) {
      expect(it.task.handler).toBe(UPSTREAM_HANDLERS[it.index! % 49]);
      expect(it.task.id).toBe(`${it.task.handler}@osvbench-${it.index}`);
      // The correct implementation: no bug-following against code the model never saw.
      expect(it.task.bug_count).toBe(0);
    }
    expect(f.items.filter((i) => i.response === 'Error!')).toHaveLength(1);
    // A syscall OSVLab does not know is still a coded bad entry.
    const bad = parseAnswerFile(JSON.stringify({ ...doc, 7: { sys_nosuch: ['x'] } }), tasks, handlerOnlyTask);
    expect(bad.problems).toEqual([expect.objectContaining({ code: 'GRADE011' })]);
  });

  it("reads upstream's benchmark.json with its trailing comma and gives the class table both ways", () => {
    const entries = Array.from({ length: 98 }, (_, i) => ({
      syscall: UPSTREAM_HANDLERS[i % 49],
      declaration: '',
      description: '',
      code: '',
      ...(i >= 49 ? { bug_type: i === 50 ? 'mmeory leak' : i === 51 ? 'buffer overlfow, incorrect pointer' : 'incorrect pointer', bug_num: '1' } : {}),
    }));
    const text = JSON.stringify(entries, null, 4).replace(/("bug_num": "1")\n/, '$1,\n');
    const commaLine = text.split('\n').findIndex((l) => l.endsWith('"1",')) + 1;
    const b = parseBenchmarkFile(text);
    expect(b.entries).toHaveLength(98);
    expect(b.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'BENCH003', line: commaLine }),
        expect.objectContaining({ code: 'BENCH004', message: expect.stringContaining('mmeory leak') }),
        expect.objectContaining({ code: 'BENCH004', message: expect.stringContaining('buffer overlfow') }),
      ]),
    );
    const t = classTable(b, [
      { index: 0, pass: true },
      { index: 50, pass: true },
      { index: 51, pass: false },
      { index: 60, pass: true },
      { index: 500, pass: true },
    ]);
    const row = (rows: typeof t.asUpstream, l: string) => rows.find((r) => r.label === l)!;
    expect(row(t.asUpstream, 'correct')).toMatchObject({ tasks: 1, samples: 1, passes: 1 });
    expect(row(t.asUpstream, 'memory leak')).toMatchObject({ tasks: 0, samples: 0 });
    expect(row(t.corrected, 'memory leak')).toMatchObject({ tasks: 1, samples: 1, passes: 1 });
    expect(row(t.asUpstream, 'buffer overflow').samples).toBe(0);
    expect(row(t.corrected, 'buffer overflow')).toMatchObject({ samples: 1, passes: 0 });
    expect(row(t.asUpstream, 'incorrect pointer')).toMatchObject({ tasks: 2, samples: 2, passes: 1 });
    expect(t.unmatched).toBe(1);
  });
});
