/**
 * Builds perf/corpus/answers.jsonl, the corpus `osvlab bench --corpus` grades
 * (docs/lemmas.md, "The corpus"): answers that look like what models write,
 * one JSON object per line, `{handler, response, made, grade}`:
 *
 * - `osvbench:<id>`: the OSVBench-style answers of test/dialect/osvbench-answers.ts
 *   (right and wrong ones, bare functions as OSVBench's results hold them);
 * - `rewrite:<how>`: a reference spec (tasks/hv6/specs) rewritten without
 *   changing what it means: comments and layout, local names, conjuncts
 *   reordered, De Morgan, `z3.If` for `util.If`, constants inlined, the
 *   condition in a helper function, independent writes reordered, a lambda
 *   instead of a point write, `z3.Not(a == b)` for `a != b`, several at once;
 * - `near-miss:<how>`: a reference spec changed only in what refinement does
 *   not compare (ghost permutations of a Refcnt, the page-table shadow
 *   fields), so it still refines: the slot a counter update records, an
 *   update undone and redone, a shadow write dropped, repeated, zeroed or
 *   written with the old value, the shadow of a freed page reset, the shadow
 *   of an unmapped entry cleared (the last two are harmless: no lemma reads
 *   them); and the golden lemma cases (test/cases/lemma);
 * - `wrong:<how>`: a reference spec with an ordinary mistake (a conjunct
 *   dropped, a misspelt helper), as models make them.
 *
 * Every rewrite and near miss is kept only if it refines the correct kernel
 * (a rewrite that does not is a bug of this script, and is reported);
 * `grade` is refinement's category when the corpus was built. Half of the
 * answers are bare functions (no import lines), as OSVBench's are.
 *
 *   npx tsx perf/corpus/make-corpus.ts [--out FILE] [--dry [--show]]
 *   npx tsx perf/corpus/make-corpus.ts --per-task [--out FILE]
 *
 * (`--dry` lists the candidates without grading them; `--show` prints each.)
 *
 * `--per-task` makes an OSVBench-style results corpus instead
 * (perf/corpus/per-task.jsonl): one answer for each of the 245 tasks, as a
 * benchmark run with one sample per task holds them, `{task_id, response,
 * made, grade}`. The five tasks of a handler get five of the same
 * candidates, taken in turn from each kind (rewrite, near miss, wrong, the
 * OSVBench-style answers), so every kind keeps about its share of the
 * corpus above; a handler with fewer candidates than tasks repeats one,
 * reworded, as models repeat themselves.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeEnv } from '../../src/z3/node.ts';
import { gradeResponse, handlerOnlyTask } from '../../src/core/eval/grade/grade.ts';
import { DT_BITVECS, DT_INTS } from '../../src/core/dialect/builtins/dt.ts';
import { ENUMS, SORTS } from '../../src/core/kernel/constants.ts';
import { oracleSpec, resolveUses } from '../../src/core/kernel/content.ts';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import { loadTasks } from '../../src/core/tasks/load.ts';
import { ALL_FIELDS } from '../../src/core/kernel/schema.ts';
import { loadCases } from '../../test/cases/load.ts';
import { ANSWERS } from '../../test/dialect/osvbench-answers.ts';
import { closing, params, renameIdentifier, rewriteCalls, splitArgs, stripComments } from './python-text.ts';

const PER_TASK = process.argv.includes('--per-task');
const OUT = process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : join(import.meta.dirname, PER_TASK ? 'per-task.jsonl' : 'answers.jsonl');

/** Rewrites kept per handler (chosen in turn from the list, so each kind appears about as often). */
const REWRITES_PER_HANDLER = 3;

interface Candidate {
  readonly handler: string;
  readonly made: string;
  readonly spec: string;
  /** What refinement must say for the candidate to be kept (undefined: whatever it says). */
  readonly mustRefine: boolean;
}

type Rewrite = (src: string, handler: string) => string | undefined;

/** The `cond = z3.And(...)` (or `name = z3.And(...)`) that the entry returns first, with its name. */
function condCall(src: string): { name: string; start: number; close: number; args: string[] } | undefined {
  const m = /^ {4}(\w+) = z3\.And\(/m.exec(src);
  if (!m) return undefined;
  const open = m.index + m[0].length - 1;
  const close = closing(src, open);
  return { name: m[1], start: m.index + 4 + m[1].length + 3, close, args: splitArgs(src.slice(open + 1, close)) };
}

function replaceRange(src: string, start: number, end: number, text: string): string {
  return src.slice(0, start) + text + src.slice(end);
}

const layout: Rewrite = (src) => {
  const lines = stripComments(src)
    .split('\n')
    .filter((l, i, all) => l.trim() !== '' || (all[i + 1] ?? '').startsWith('def '))
    .map((l) => {
      const lead = /^ */.exec(l)![0].length;
      return ' '.repeat(Math.floor(lead / 2)) + l.slice(lead);
    });
  return lines.join('\n');
};

/** Names models use instead of the reference's. */
const SYNONYMS: Record<string, string> = { cond: 'ok', cur: 'caller', fn: 'file', pn: 'page', root: 'pml4_root', new: 'state' };

const renameLocals: Rewrite = (src, handler) => {
  const args = new Set(params(src, handler));
  const locals = [...src.matchAll(/^ {4}(\w+) = /gm)].map((m) => m[1]).filter((n) => !args.has(n) && n !== 'old');
  if (locals.length === 0) return undefined;
  let out = src;
  for (const n of new Set(locals)) out = renameIdentifier(out, n, SYNONYMS[n] ?? `${n}_val`);
  return out;
};

const reorderConjuncts: Rewrite = (src) => {
  const text = stripComments(src);
  const out = rewriteCalls(text, 'z3.And', (args) => (args.length > 1 ? `z3.And(${[...args].reverse().join(',\n        ')})` : undefined));
  return out === text ? undefined : out;
};

const deMorgan: Rewrite = (src) => {
  const text = stripComments(src);
  const c = condCall(text);
  if (!c || c.args.length < 2) return undefined;
  return replaceRange(text, c.start, c.close + 1, `z3.Not(z3.Or(${c.args.map((a) => `z3.Not(${a})`).join(',\n        ')}))`);
};

/** `util.If` on values (not on states) is z3's If. */
const z3If: Rewrite = (src) => {
  const text = stripComments(src);
  const stateLike = (a: string) => /^(new|old|released|\w*state\w*|\w+_new)$/.test(a) || a.startsWith('util.If(') || a.includes('.copy()');
  const out = rewriteCalls(text, 'util.If', (args) => (args.length === 3 && !stateLike(args[1]) && !stateLike(args[2]) ? `z3.If(${args.join(', ')})` : undefined));
  return out === text ? undefined : out;
};

const ENUM_VALUES = new Map<string, bigint>();
for (const [e, members] of Object.entries(ENUMS)) for (const [m, v] of Object.entries(members)) ENUM_VALUES.set(`${e}.${m}`, v);

/** dt's sorts, limits, bit masks and enum members written as the numbers they are. */
const inlineConstants: Rewrite = (src) => {
  const out = src.replace(/(?<![\w.])dt\.(\w+)(?:\.(\w+))?/g, (whole, a: string, b: string | undefined) => {
    if (b !== undefined) {
      const v = ENUM_VALUES.get(`${a}.${b}`);
      return v === undefined ? whole : `z3.BitVecVal(${v}, 64)`;
    }
    if (a in SORTS && SORTS[a] > 0) return String(SORTS[a]);
    if (a in DT_INTS) return String(DT_INTS[a]);
    if (a in DT_BITVECS) return `z3.BitVecVal(${DT_BITVECS[a]}, 64)`;
    return whole;
  });
  return out === src ? undefined : out;
};

/** The condition moves into a helper of its own, with the reads it needs. */
const helperGuard: Rewrite = (src, handler) => {
  const text = stripComments(src);
  const def = new RegExp(`^def ${handler}\\(([^)]*)\\):\\n`, 'm').exec(text);
  const c = condCall(text);
  if (!def || !c || c.start < def.index) return undefined;
  const bodyStart = def.index + def[0].length;
  // The condition must be the entry's own, not a shared helper's.
  if (text.slice(bodyStart, c.start).includes('\ndef ')) return undefined;
  const lineStart = text.lastIndexOf('\n', c.start) + 1;
  // Only plain reads of old may come before the condition.
  const before = text.slice(bodyStart, lineStart);
  if (/\bnew\b/.test(before)) return undefined;
  const helper = `def check_${handler}(${def[1]}):\n${before}    return z3.And(${c.args.join(',\n                  ')})\n\n\n`;
  const call = `check_${handler}(${def[1]})`;
  return text.slice(0, def.index) + helper + text.slice(def.index, c.start) + call + text.slice(c.close + 1);
};

interface Write {
  readonly line: number;
  /** The field name written (the last attribute of the target). */
  readonly field: string;
  readonly text: string;
}

/** One-line writes to `new` at the entry's top level. */
function writes(lines: readonly string[]): Write[] {
  const out: Write[] = [];
  lines.forEach((l, i) => {
    const m = /^ {4}new\.((?:\w+(?:\[[^\]]*\])*\.)*(\w+))(?:\[[^=]*\])?\s*(\+=|-=|=)\s*(.+)$/.exec(l);
    if (!m) return;
    const depth = [...l].reduce((d, ch) => d + (ch === '(' || ch === '[' ? 1 : ch === ')' || ch === ']' ? -1 : 0), 0);
    if (depth !== 0) return;
    out.push({ line: i, field: m[2], text: l });
  });
  return out;
}

/** Two adjacent writes to different fields that read nothing of `new`, in the other order. */
const reorderWrites: Rewrite = (src) => {
  const lines = stripComments(src).split('\n');
  const ws = writes(lines);
  for (let i = 0; i + 1 < ws.length; i++) {
    const [a, b] = [ws[i], ws[i + 1]];
    const rhs = (w: Write) => w.text.slice(w.text.search(/(\+=|-=|=)/));
    if (b.line !== a.line + 1 || a.field === b.field || /\bnew\b/.test(rhs(a)) || /\bnew\b/.test(rhs(b))) continue;
    [lines[a.line], lines[b.line]] = [b.text, a.text];
    return lines.join('\n');
  }
  return undefined;
};

/** How many indices each field takes (a write with fewer broadcasts, and is left alone). */
const ARITY = new Map(ALL_FIELDS.map((f) => [f.path, f.index.length]));

/** A point write `new.s[i].f[j] = v` as a whole-map lambda over the field. */
const lambdaWrite: Rewrite = (src) => {
  const lines = stripComments(src).split('\n');
  for (const [i, l] of lines.entries()) {
    const m = /^ {4}new\.(\w+)\[([^\]]+)\]\.(\w+)(?:\[([^\]]+)\])?\s*=\s*(.+)$/.exec(l);
    if (!m || /\bnew\b/.test(m[5])) continue;
    const [, struct, idx1, field, idx2, value] = m;
    const indices = idx2 === undefined ? [idx1] : [idx1, idx2];
    if (ARITY.get(`${struct}.${field}`) !== indices.length) continue;
    const vars = indices.map((_, k) => `i${k}_`);
    const hit = indices.length === 1 ? `i0_ == ${idx1}` : `z3.And(${indices.map((x, k) => `i${k}_ == ${x}`).join(', ')})`;
    lines[i] = `    new.${struct}.${field} = lambda ${vars.join(', ')}, oldfn: util.If(${hit}, ${value}, oldfn(${vars.join(', ')}))`;
    return lines.join('\n');
  }
  return undefined;
};

/** `a != b` conjuncts as `z3.Not(a == b)`. */
const notEqual: Rewrite = (src) => {
  const text = stripComments(src);
  const out = rewriteCalls(text, 'z3.And', (args) => {
    const changed = args.map((a) => {
      const parts = a.split(' != ');
      return parts.length === 2 && !/[<>=]/.test(parts[0] + parts[1]) ? `z3.Not(${parts[0]} == ${parts[1]})` : a;
    });
    return changed.some((a, i) => a !== args[i]) ? `z3.And(${changed.join(',\n        ')})` : undefined;
  });
  return out === text ? undefined : out;
};

const combo: Rewrite = (src, handler) => {
  let out = src;
  for (const r of [reorderConjuncts, z3If, renameLocals, layout]) out = r(out, handler) ?? out;
  return out === src ? undefined : out;
};

const REWRITES: readonly (readonly [string, Rewrite])[] = [
  ['layout', layout],
  ['reorder-conjuncts', reorderConjuncts],
  ['z3-if', z3If],
  ['helper-guard', helperGuard],
  ['rename-locals', renameLocals],
  ['de-morgan', deMorgan],
  ['inline-constants', inlineConstants],
  ['reorder-writes', reorderWrites],
  ['lambda-write', lambdaWrite],
  ['not-equal', notEqual],
  ['combo', combo],
];

// Near misses: only what refinement does not compare changes.

const REFCNT_LINE = /^( {4}new\.[\w.[\]() ,]+?)\[([^\]]+)\]\s*(\+=|-=)\s*1\s*$/;

/** The slot a counter update records is another object's. */
const refcntIndex: Rewrite = (src) => {
  const lines = src.split('\n');
  const i = lines.findIndex((l) => REFCNT_LINE.test(l));
  if (i < 0) return undefined;
  const [, target, idx, op] = REFCNT_LINE.exec(lines[i])!;
  const shifted = idx.startsWith('(') ? idx.replace(/\)$/, ' + 1)') : `${idx} + 1`;
  lines[i] = `${target}[${shifted}] ${op} 1`;
  return lines.join('\n');
};

/** A counter update undone and redone: the same count, its permutation built another way. */
const refcntRoundTrip: Rewrite = (src) => {
  const lines = src.split('\n');
  const i = lines.findIndex((l) => REFCNT_LINE.test(l));
  if (i < 0) return undefined;
  const [, target, idx, op] = REFCNT_LINE.exec(lines[i])!;
  const undo = op === '+=' ? '-=' : '+=';
  lines.splice(i + 1, 0, `${target}[${idx}] ${undo} 1`, `${target}[${idx}] ${op} 1`);
  return lines.join('\n');
};

const SHADOW_LINE = /^ {4}new\.\w+\[[^\]]+\]\.(pgtable_\w+)(\[[^\]]+\])?\s*=\s*(.+)$/;

function shadowLine(lines: readonly string[], which = 0): number {
  const all = lines.flatMap((l, i) => (SHADOW_LINE.test(l) ? [i] : []));
  return all.length ? all[which % all.length] : -1;
}

const shadowDrop: Rewrite = (src) => {
  const lines = src.split('\n');
  const i = shadowLine(lines, 1);
  if (i < 0) return undefined;
  lines.splice(i, 1);
  return lines.join('\n');
};

const shadowTwice: Rewrite = (src) => {
  const lines = src.split('\n');
  const i = shadowLine(lines);
  if (i < 0) return undefined;
  lines.splice(i + 1, 0, lines[i]);
  return lines.join('\n');
};

const shadowZero: Rewrite = (src) => {
  const lines = src.split('\n');
  const i = shadowLine(lines, 2);
  if (i < 0) return undefined;
  lines[i] = lines[i].replace(/=\s*(.+)$/, '= z3.BitVecVal(0, 64)');
  return lines.join('\n');
};

/** A shadow write that writes back what was there (as if the update were forgotten). */
const shadowOld: Rewrite = (src) => {
  const lines = src.split('\n');
  const i = shadowLine(lines);
  if (i < 0) return undefined;
  const m = /^ {4}new\.(\w+)\[([^\]]+)\]\.(pgtable_\w+)(?:\[([^\]]+)\])?\s*=/.exec(lines[i])!;
  const read = m[4] === undefined ? `old.${m[1]}[${m[2]}].${m[3]}` : `old.${m[1]}[${m[2]}].${m[3]}(${m[4]})`;
  if (m[4] === undefined) return undefined;
  lines[i] = lines[i].replace(/=\s*(.+)$/, `= ${read}`);
  return lines.join('\n');
};

// Ghost changes no lemma minds: a page that is freed is no page table, and
// nothing reads its shadow fields or reverse pointer; an entry that is not
// present may have any shadow.

const FREED_PAGE = /^( {4})new\.pages\[(\w+)\]\.type = dt\.page_type\.PAGE_TYPE_FREE\s*$/m;
const SHADOW_RESETS = [
  'pgtable_type = dt.PGTYPE_NONE',
  'pgtable_pn = z3.BitVecVal(0, dt.uint64_t)',
  'pgtable_reverse_pn = z3.BitVecVal(0, dt.pn_t)',
  'pgtable_perm = z3.BitVecVal(0, dt.uint64_t)',
  'pgtable_reverse_idx = z3.BitVecVal(0, dt.uint64_t)',
];

/** The freed page's shadow is reset too (one field, chosen by the handler). */
const ghostResetFreed: Rewrite = (src, handler) => {
  const m = FREED_PAGE.exec(src);
  if (!m) return undefined;
  const reset = SHADOW_RESETS[[...handler].reduce((a, c) => a + c.charCodeAt(0), 0) % SHADOW_RESETS.length];
  return src.replace(m[0], `${m[0]}\n${m[1]}new.pages[${m[2]}].${reset}`);
};

/** The unmapped entry's shadow is cleared with the entry. */
const ghostClearUnmapped: Rewrite = (src) => {
  const m = /^( {4})new\.pages\[(\w+)\]\.data\[(\w+)\] = z3\.BitVecVal\(0, dt\.pte_t\)\s*$/m.exec(src);
  if (!m || !FREED_PAGE.test(src)) return undefined;
  const [line, lead, page, index] = m;
  return src.replace(line, `${line}\n${lead}new.pages[${page}].pgtable_pn[${index}] = z3.BitVecVal(0, dt.pn_t)\n${lead}new.pages[${page}].pgtable_type[${index}] = dt.PGTYPE_NONE`);
};

/** [how, rewrite, every n-th handler it applies to]: a near miss for about a third of the passing answers, as in real runs. */
const NEAR_MISSES: readonly (readonly [string, Rewrite, number])[] = [
  ['refcnt-index', refcntIndex, 2],
  ['refcnt-round-trip', refcntRoundTrip, 2],
  ['shadow-drop', shadowDrop, 2],
  ['shadow-twice', shadowTwice, 2],
  ['shadow-zero', shadowZero, 2],
  ['shadow-old', shadowOld, 2],
  ['ghost-reset-freed', ghostResetFreed, 1],
  ['ghost-clear-unmapped', ghostClearUnmapped, 1],
];

// Ordinary mistakes.

const dropConjunct: Rewrite = (src) => {
  const text = stripComments(src);
  const c = condCall(text);
  if (!c || c.args.length < 3) return undefined;
  return replaceRange(text, c.start, c.close + 1, `z3.And(${c.args.slice(0, -1).join(',\n        ')})`);
};

const misspell: Rewrite = (src) => {
  const m = /\bis_(\w+)_valid\(/.exec(src.slice(src.indexOf('def ')));
  if (!m) return undefined;
  const at = src.indexOf('def ') + m.index;
  return replaceRange(src, at, at + m[0].length, `is_${m[1]}_vaild(`);
};

const WRONG: readonly (readonly [string, Rewrite, number])[] = [
  // [how, rewrite, every n-th handler]
  ['drop-conjunct', dropConjunct, 2],
  ['misspelt-helper', misspell, 5],
];

const IMPORTS = /^(import |from ).*\n/gm;

const INTROS = [
  'Here is the specification of the system call:',
  'The state transition, as a Python spec:',
  "Below is the spec. It checks the arguments first, then updates the copy of the state.",
  'Specification:',
];

/** A reply as a model writes it: a sentence, the code in a python fence, sometimes a closing remark. */
function response(spec: string, n: number, bare: boolean): string {
  const code = bare ? spec.replace(IMPORTS, '').replace(/^\n+/, '') : spec;
  const outro = n % 3 === 0 ? '\n\nThe condition mirrors the checks of the C code; the state is unchanged when it fails.' : '';
  return `${INTROS[n % INTROS.length]}\n\n\`\`\`python\n${code.trimEnd()}\n\`\`\`${outro}\n`;
}

function candidates(): Candidate[] {
  const out: Candidate[] = [];
  const applied = new Map<string, number>();
  HANDLERS.forEach((h, hi) => {
    const oracle = oracleSpec(h.name);
    if (!oracle) return;
    let kept = 0;
    for (let k = 0; k < REWRITES.length && kept < REWRITES_PER_HANDLER; k++) {
      const [how, r] = REWRITES[(hi + k) % REWRITES.length];
      const spec = r(oracle, h.name);
      if (spec === undefined) continue;
      out.push({ handler: h.name, made: `rewrite:${how}`, spec, mustRefine: true });
      kept++;
    }
    NEAR_MISSES.forEach(([how, r, every], k) => {
      const spec = r(oracle, h.name);
      if (spec === undefined) return;
      // Every n-th of the handlers it applies to, starting at a different one per kind.
      const seen = (applied.get(how) ?? 0) + 1;
      applied.set(how, seen);
      if ((seen + k) % every === 0) out.push({ handler: h.name, made: `near-miss:${how}`, spec, mustRefine: true });
    });
    for (const [how, r, every] of WRONG) {
      if (hi % every !== 0) continue;
      const spec = r(oracle, h.name);
      if (spec !== undefined) out.push({ handler: h.name, made: `wrong:${how}`, spec, mustRefine: false });
    }
  });
  for (const c of loadCases('lemma')) out.push({ handler: c.handler!, made: `near-miss:golden-${c.name.replace(/\.py$/, '')}`, spec: resolveUses(c.text), mustRefine: true });
  return out;
}

interface Line {
  readonly handler: string;
  readonly spec: string;
  readonly made: string;
  readonly grade: string;
}

/**
 * One line per task: the handler's graded candidates, kinds in turn (each
 * kind's own order kept), the i-th task of a handler taking the i-th (from
 * the start again when they run out), worded as the n-th reply.
 */
async function perTask(lines: readonly Line[]): Promise<string[]> {
  const kinds = ['rewrite', 'near-miss', 'wrong', 'osvbench'];
  const byHandler = new Map<string, Line[]>();
  for (const h of HANDLERS) {
    const of = (k: string) => lines.filter((l) => l.handler === h.name && l.made.startsWith(`${k}:`));
    const queues = kinds.map(of);
    const turn: Line[] = [];
    while (queues.some((q) => q.length)) for (const q of queues) if (q.length) turn.push(q.shift()!);
    byHandler.set(h.name, turn);
  }
  const seen = new Map<string, number>();
  return (await loadTasks()).flatMap((t, n) => {
    const mine = byHandler.get(t.handler) ?? [];
    if (!mine.length) return [];
    const i = seen.get(t.handler) ?? 0;
    seen.set(t.handler, i + 1);
    const l = mine[i % mine.length];
    return [JSON.stringify({ task_id: t.id, response: response(l.spec, n, n % 2 === 0), made: l.made, grade: l.grade })];
  });
}

async function main(): Promise<void> {
  if (process.argv.includes('--dry')) {
    for (const c of candidates()) process.stdout.write(`=== ${c.handler} ${c.made}\n${process.argv.includes('--show') ? `${c.spec}\n` : ''}`);
    return;
  }
  const env = await nodeEnv();
  const graded: Line[] = [];
  let lines: string[] = [];
  const dropped: string[] = [];
  let n = 0;
  for (const a of ANSWERS) {
    graded.push({ handler: a.handler, spec: a.code, made: `osvbench:${a.id}`, grade: a.osvlab ?? a.expect });
    lines.push(JSON.stringify({ handler: a.handler, response: response(a.code, n++, true), made: `osvbench:${a.id}`, grade: a.osvlab ?? a.expect }));
  }
  for (const c of candidates()) {
    const text = response(c.spec, n, n % 2 === 0);
    const g = await gradeResponse(handlerOnlyTask(c.handler), text, env);
    if (c.mustRefine && g.category !== 'pass') {
      dropped.push(`${c.handler} ${c.made}: ${g.category}${g.verdict?.status === 'spec-error' ? ` ${g.verdict.error.code} ${g.verdict.error.message}` : ''}`);
      continue;
    }
    n++;
    graded.push({ handler: c.handler, spec: c.spec, made: c.made, grade: g.category });
    lines.push(JSON.stringify({ handler: c.handler, response: text, made: c.made, grade: g.category }));
    process.stdout.write(`${c.handler.padEnd(24)} ${c.made.padEnd(36)} ${g.category}\n`);
  }
  if (PER_TASK) lines = await perTask(graded);
  writeFileSync(OUT, `${lines.join('\n')}\n`);
  const byKind = new Map<string, number>();
  for (const l of lines) {
    const k = (JSON.parse(l) as { made: string }).made.split(':')[0];
    byKind.set(k, (byKind.get(k) ?? 0) + 1);
  }
  const handlers = new Set(lines.map((l) => { const v = JSON.parse(l) as { handler?: string; task_id?: string }; return v.handler ?? v.task_id!.replace(/-v\d+$/, ''); }));
  process.stdout.write(`\n${lines.length} answers over ${handlers.size} handlers (${[...byKind].map(([k, v]) => `${k} ${v}`).join(', ')}) -> ${OUT}\n`);
  if (dropped.length) process.stdout.write(`dropped ${dropped.length} candidates that do not refine:\n  ${dropped.join('\n  ')}\n`);
}

await main();
