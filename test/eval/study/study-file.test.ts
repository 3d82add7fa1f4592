/**
 * The study file and its grid: a 3-mode x 2-variant study expands to six
 * cells in a fixed order with nine one-factor pairs; defaults fill what a
 * file leaves out; every mistake is a coded diagnostic at its line and
 * column, all of them at once.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTasks } from '../../../src/core/tasks/load.ts';
import { StudyError, planStudy } from '../../../src/core/eval/study/study-run.ts';
import { diagnosticText } from '../../../src/core/diagnostic-text.ts';
import { type JsonNode, JsonSyntaxError, parseJsonSource } from '../../../src/core/eval/study/json-source.ts';
import { expandStudy, oneFactorPairs, varyingFactors } from '../../../src/core/eval/study/grid.ts';
import { type Study, parseStudy } from '../../../src/core/eval/study/study-file.ts';

const ABLATION = `{
  "name": "feedback-x-guide",
  "provider": "openai-compatible",
  "baseUrl": "http://127.0.0.1:8080/v1",
  "models": ["learner"],
  "prompts": ["standard", "guide"],
  "feedback": ["counterexample", "verdict", "none"],
  "shots": 1,
  "repair": 3,
  "tasks": "handler:sys_dup",
  "params": {"temperature": 0, "maxTokens": 4000},
  "grading": {"strict": false}
}
`;

function ok(text: string): Study {
  const r = parseStudy(text);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => diagnosticText(d, { source: text })).join('\n'));
  return r.study;
}

function problems(text: string): string[] {
  const r = parseStudy(text);
  if (r.ok) throw new Error('the study was accepted');
  return r.diagnostics.map((d) => `${d.span.line}:${d.span.column} ${d.code} ${d.message}${d.notes ? ` (${d.notes.join('; ')})` : ''}`);
}

describe('study file', () => {
  it('reads a 3-mode x 2-variant study', () => {
    expect(ok(ABLATION)).toEqual({
      name: 'feedback-x-guide',
      models: [{ provider: 'openai-compatible', model: 'learner', baseUrl: 'http://127.0.0.1:8080/v1' }],
      prompts: ['standard', 'guide'],
      names: ['hv6'],
      renameSeed: 1,
      feedback: ['counterexample', 'verdict', 'none'],
      modes: ['answer'],
      shots: [1],
      samples: [1],
      repair: 3,
      tasks: 'handler:sys_dup',
      params: { temperature: 0, maxTokens: 4000 },
      grading: { strict: false },
    });
  });

  it('fills in the defaults: the standard prompt, counterexample feedback, 5 shots, 1 sample, no repair, every task', () => {
    const s = ok('{"name": "one", "models": [{"provider": "openai", "model": "gpt-4o"}]}');
    expect(s).toMatchObject({ prompts: ['standard'], names: ['hv6'], renameSeed: 1, feedback: ['counterexample'], modes: ['answer'], shots: [5], samples: [1], repair: 0, tasks: 'all', params: {}, grading: {} });
    expect(expandStudy(s).map((c) => c.label)).toEqual(['gpt-4o']);
  });

  it('reports every mistake at its line and column', () => {
    const text = `{
  "name": "bad",
  "provider": "openai",
  "models": ["gpt-4o", {"model": "m2", "provider": "mistral"}],
  "prompt": ["guide"],
  "prompts": ["standard", "guided", "standard"],
  "feedback": ["verdict", "hints"],
  "shots": [-1, 2.5],
  "samples": [],
  "repair": "3",
  "params": {"temperature": "hot"}
}`;
    expect(problems(text)).toEqual([
      '5:3 STUDY002 unknown key "prompt" in the study (did you mean "prompts"?)',
      '4:52 STUDY004 unknown provider "mistral"; known: openai, anthropic, gemini, openai-compatible',
      '6:27 STUDY004 unknown prompt variant "guided"; known: standard, guide (did you mean "guide"?)',
      '6:37 STUDY006 "prompts" lists the same level twice',
      '7:27 STUDY004 unknown feedback mode "hints"; known: counterexample, verdict, none',
      '8:13 STUDY007 a number of shots must be a whole number of at least 0, got -1',
      '8:17 STUDY007 a number of shots must be a whole number of at least 0, got 2.5',
      '9:14 STUDY006 "samples" is an empty list: a factor needs at least one level',
      '10:13 STUDY003 "repair" must be a whole number, not a string',
      '11:29 STUDY003 "temperature" must be a number, not a string',
    ]);
  });

  it('renders a diagnostic with its code frame', () => {
    const text = '{\n  "name": "x",\n  "models": ["m"]\n}\n';
    const r = parseStudy(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(diagnosticText(r.diagnostics[0], { source: text, file: 'x.json' })).toBe(
      [
        'x.json:3:14: error STUDY005: model "m" has no provider: give "provider" at the top, or write {"provider": ..., "model": ...}',
        '  2 |   "name": "x",',
        '> 3 |   "models": ["m"]',
        '    |              ^^^',
        '  4 | }',
      ].join('\n'),
    );
  });

  it('says where a file stops being JSON, and what a study must have', () => {
    expect(problems('{\n  "name": "x",\n  "models": ["m",]\n}')).toEqual(["3:18 STUDY001 the study file is not valid JSON: expected a value, found ']'"]);
    expect(problems('[1]')).toEqual(['1:1 STUDY003 a study file is one JSON object, not a list']);
    expect(problems('{"description": "no name, no models"}')).toEqual(['1:1 STUDY005 the study has no "name"', '1:1 STUDY005 the study has no "models"']);
    expect(problems('{"name": "x", "models": [{"provider": "openai-compatible", "model": "m"}]}')).toEqual(['1:26 STUDY005 openai-compatible needs a "baseUrl"']);
    // Where it is run may give the base URL the file leaves out (the Evaluate page, for the provider it is set to); the file's own wins.
    const page = { baseUrlFor: (k: string) => (k === 'openai-compatible' ? 'http://127.0.0.1:8080/v1' : undefined) };
    const given = parseStudy('{"name": "x", "provider": "openai-compatible", "models": ["m", {"model": "n", "baseUrl": "http://127.0.0.9/v1"}, {"provider": "openai", "model": "o"}]}', page);
    expect(given.ok && given.study.models).toEqual([
      { provider: 'openai-compatible', model: 'm', baseUrl: 'http://127.0.0.1:8080/v1' },
      { provider: 'openai-compatible', model: 'n', baseUrl: 'http://127.0.0.9/v1' },
      { provider: 'openai', model: 'o' },
    ]);
    // A base URL a provider may not use is not taken: the file still needs its own.
    const refused = parseStudy('{"name": "x", "provider": "openai-compatible", "models": ["m"]}', { baseUrlFor: () => 'http://user:pw@127.0.0.1/v1' });
    expect(refused.ok).toBe(false);
  });

  it('refuses a base URL that holds a password (docs/providers.md, "Base URLs")', () => {
    const [p] = problems('{"name": "x", "provider": "openai", "baseUrl": "https://me:pw9@h/v1", "models": ["m"]}');
    expect(p).toMatch(/^1:48 STUDY003 "baseUrl": a base URL must not hold a user name or password \(https:\/\/\*\*\*@h\/v1\)/);
    expect(p).not.toContain('pw9');
  });
});

describe('grid', () => {
  it('expands models x prompts x feedback x shots x samples, the last factor fastest', () => {
    const s = ok(ABLATION);
    expect(varyingFactors(s)).toEqual(['prompt', 'feedback']);
    const cells = expandStudy(s);
    expect(cells.map((c) => c.label)).toEqual([
      'standard / counterexample',
      'standard / verdict',
      'standard / none',
      'guide / counterexample',
      'guide / verdict',
      'guide / none',
    ]);
    expect(cells.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(cells[4].levels).toEqual({ model: s.models[0], prompt: 'guide', feedback: 'verdict', shots: 1, samples: 1 });
  });

  it('pairs the cells that differ in exactly one factor', () => {
    const pairs = oneFactorPairs(expandStudy(ok(ABLATION)));
    expect(pairs.map((p) => `${p.factor} ${p.a}-${p.b}`)).toEqual([
      'prompt 0-3', 'prompt 1-4', 'prompt 2-5',
      'feedback 0-1', 'feedback 0-2', 'feedback 1-2', 'feedback 3-4', 'feedback 3-5', 'feedback 4-5',
    ]);
    // Two models and two shot counts: 2 x 2 cells, each differing from two others in one factor.
    const s2 = ok('{"name": "x", "provider": "openai", "models": ["a", "b"], "shots": [0, 5]}');
    expect(expandStudy(s2).map((c) => c.label)).toEqual(['a / 0-shot', 'a / 5-shot', 'b / 0-shot', 'b / 5-shot']);
    expect(oneFactorPairs(expandStudy(s2)).map((p) => `${p.factor} ${p.a}-${p.b}`)).toEqual(['model 0-2', 'model 1-3', 'shots 0-1', 'shots 2-3']);
  });
});

describe('JSON with positions', () => {
  /** The plain value of a node, to compare with JSON.parse. */
  const plain = (n: JsonNode): unknown =>
    n.kind === 'object' ? Object.fromEntries(n.entries.map((e) => [e.key, plain(e.value)])) : n.kind === 'array' ? n.items.map(plain) : n.kind === 'null' ? null : n.value;

  it('reads what JSON.parse reads', () => {
    for (const text of ['{"a": [1, -2.5e3, 0, true, false, null], "b": {"c": "x\\"y\\u00e9\\n\\/"}}', '  []  ', '"s"', '{}', '[{"k": [[]]}]', '-0.125E-2']) {
      expect(plain(parseJsonSource(text)), text).toEqual(JSON.parse(text));
    }
  });

  it('gives each key and value its span', () => {
    const root = parseJsonSource('{\n  "k": [1,\n    "two"]\n}');
    if (root.kind !== 'object') throw new Error('not an object');
    const e = root.entries[0];
    expect([e.keySpan.line, e.keySpan.column, e.keySpan.endColumn]).toEqual([2, 3, 6]);
    if (e.value.kind !== 'array') throw new Error('not an array');
    expect(e.value.items.map((i) => [i.span.line, i.span.column])).toEqual([[2, 9], [3, 5]]);
  });

  it('stops at the first character that is not JSON', () => {
    const at = (text: string) => {
      try {
        parseJsonSource(text);
      } catch (e) {
        if (e instanceof JsonSyntaxError) return `${e.span.line}:${e.span.column} ${e.message}`;
        throw e;
      }
      return 'accepted';
    };
    expect(at('{"a": 1,}')).toBe("1:9 expected a key in double quotes, found '}'");
    expect(at('{"a" 1}')).toBe("1:6 expected ':' after the key, found '1'");
    expect(at('[1 2]')).toBe("1:4 expected ',' or ']' in a list, found '2'");
    expect(at('{"a": "x')).toBe('1:7 unterminated string');
    expect(at('"\\q"')).toBe("1:2 unknown escape '\\q' in a string");
    expect(at('{} x')).toBe("1:4 unexpected 'x' after the value");
    expect(at('')).toBe('1:1 expected a value, found the end of the file');
    expect(at('// no comments\n{}')).toBe("1:1 expected a value, found '/'");
  });
});

describe('the example studies (studies/)', () => {
  it('read and plan: a contamination study, a feedback ablation and a guide ablation over every task', async () => {
    const dir = join(import.meta.dirname, '../../../studies');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    expect(files).toEqual(['contamination.json', 'feedback-ablation.json', 'guide-ablation.json']);
    const tasks = await loadTasks();
    const plans = await Promise.all(files.map((f) => planStudy(ok(readFileSync(join(dir, f), 'utf8')), tasks)));
    expect(plans.map((p) => [p.study.name, p.cells.map((c) => c.label), p.tasks.length])).toEqual([
      ['contamination', ['hv6', 'synonym #1', 'opaque #1'], 245],
      ['feedback-ablation', ['counterexample', 'verdict', 'none'], 245],
      ['guide-ablation', ['standard / 0-shot', 'standard / 5-shot', 'guide / 0-shot', 'guide / 5-shot'], 245],
    ]);
    // Every cell is its own run; a renamed cell's run is renamed, the hv6 cell's is not.
    for (const p of plans) expect(new Set(p.cells.map((c) => c.runId)).size).toBe(p.cells.length);
    expect(plans[0].cells.map((c) => c.choice.rename)).toEqual([undefined, { style: 'synonym', seed: 1 }, { style: 'opaque', seed: 1 }]);
  });

  it('a shape applies to every cell (docs/shape.md) and makes a study of its own; a wrong one is coded', async () => {
    const base = '{"name": "s", "provider": "openai", "models": ["m"], "names": ["hv6", "opaque"], "tasks": "sys_dup-v0"';
    const tasks = await loadTasks();
    const plain = await planStudy(ok(`${base}}`), tasks);
    const shaped = await planStudy(ok(`${base}, "shape": "permuted", "shapeSeed": 3}`), tasks);
    expect(plain.study.shape).toBeUndefined();
    expect(shaped.cells.map((c) => c.choice.shape)).toEqual([{ style: 'permuted', seed: 3 }, { style: 'permuted', seed: 3 }]);
    expect(shaped.cells.map((c) => c.label)).toEqual(plain.cells.map((c) => c.label));
    expect(shaped.id).not.toBe(plain.id);
    expect(shaped.cells[0].runId).not.toBe(plain.cells[0].runId);
    expect(problems(`${base}, "shape": "sorted", "shapeSeed": -1}`)).toEqual([
      '1:114 STUDY004 unknown shape "sorted"; known: permuted',
      '1:137 STUDY007 "shapeSeed" must be a whole number of at least 0, got -1',
    ]);
  });

  it('a task selection that names nothing this build has is STUDY008 at the "tasks" value', async () => {
    const text = '{"name": "x", "provider": "openai", "models": ["m"],\n  "tasks": "handler:sys_nope"}';
    const r = parseStudy(text);
    if (!r.ok) throw new Error('not parsed');
    const e = await planStudy(r.study, await loadTasks(), r.source).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StudyError);
    expect((e as StudyError).diagnostics.map((d) => `${d.span.line}:${d.span.column} ${d.code} ${d.message}`)).toEqual(['2:12 STUDY008 "tasks": no tasks for handler "sys_nope"']);
  });
});
