/**
 * A hostile probe of the spec maps the verifier reads after a spec returns
 * (docs/hv6-model.md §4.5): whole-map lambdas that count their reads, look
 * at their index with str(), repr(), id() or hash(), share state through
 * closures over lists, or raise at some reads; and the dialect's bounds on
 * format precision and rotations. Each input is verified in this process,
 * as `osvlab verify --lemmas` does, and its lemma checks are run with
 * the oracle's proof reused and, when that proves them, without (`lemmas
 * --full`). Each ends in one of
 *
 *   verdict   a verdict, and strict agrees with the full check
 *   coded     a coded spec error (not SPEC099)
 *   internal  an exception out of the verifier, or SPEC099
 *   wrong     lemma passes (the oracle's proof reused) where the full check fails
 *
 *   npx tsx scripts/probe-pinned.ts [--json]
 *   npx tsx scripts/probe-pinned.ts --corpus FILE   (writes the spec inputs as a corpus for `osvlab bench --corpus FILE --full`)
 *
 * About 3-6 minutes on two busy cores; every input has the interpreter's step
 * budget and a 60 s verification budget.
 */
import { writeFileSync } from 'node:fs';
import { nodeEnv } from '../src/z3/node.ts';
import { oracleSpec } from '../src/core/kernel/content.ts';
import { proveSpecLemmas } from '../src/core/verify/declarative.ts';
import { verify } from '../src/core/verify/index.ts';

type Column = 'verdict' | 'coded' | 'internal' | 'wrong';
interface Case {
  readonly family: string;
  readonly name: string;
  readonly handler: string;
  readonly spec: string;
}

const RIGHT = 'util.If(p == pid, dt.proc_state.PROC_RUNNABLE, oldfn(p))';
const WRONG = 'util.If(p == pid, dt.proc_state.PROC_RUNNING, oldfn(p))';
const RUNNABLE_WRITE = '    new.procs[pid].state = dt.proc_state.PROC_RUNNABLE\n';
const COPY_WRITE = '    new.pages.data = lambda p, i, oldfn: util.If(p == to, oldfn(frm, i), oldfn(p, i))\n';

/** sys_set_runnable's oracle with its write replaced by `body` (lines of the entry function). */
function runnable(body: string): string {
  return oracleSpec('sys_set_runnable')!.replace(RUNNABLE_WRITE, body);
}

/** A state lambda `def state(p, oldfn)` whose body is `lines`, with `setup` before it. */
function stateFn(lines: string, setup = ''): string {
  const indent = (s: string) => s.split('\n').filter((l) => l.trim()).map((l) => `    ${l}\n`).join('');
  return runnable(`${indent(setup)}    def state(p, oldfn):\n${indent(lines.split('\n').map((l) => `    ${l}`).join('\n'))}    new.procs.state = state\n`);
}

/** Right at the reads numbered in `right` (a Python list), wrong at the others. */
const counting = (right: string) => stateFn(`n[0] += 1\nif n[0] in ${right}:\n    return ${RIGHT}\nreturn ${WRONG}`, 'n = [0]');
/** Right when `test` (of p) holds. */
const when = (test: string) => stateFn(`if ${test}:\n    return ${RIGHT}\nreturn ${WRONG}`);
/** Raises `raise` at the reads where `test` holds, else right. */
const raising = (test: string, raise = '1 / 0', setup = 'n = [0]') => stateFn(`n[0] += 1\nif ${test}:\n    return ${raise}\nreturn ${RIGHT}`, setup);

/** sys_copy_frame's oracle with its data lambda replaced by `body`. */
function copyFrame(body: string): string {
  return oracleSpec('sys_copy_frame')!.replace(COPY_WRITE, body);
}
const COPY_RIGHT = 'util.If(p == to, oldfn(frm, i), oldfn(p, i))';
const COPY_WRONG = 'util.If(p == to, oldfn(frm, i) + 1, oldfn(p, i))';

/** A sys_kill spec whose module runs `line` first (a dialect bound). */
const kill = (line: string) => `import z3\n${line}\ndef sys_kill(old, pid):\n    return z3.BoolVal(False), old\n`;
/** sys_set_runnable's oracle with one more conjunct in its condition. */
const withConjunct = (c: string) => oracleSpec('sys_set_runnable')!.replace('        is_pid_valid(pid),\n', `        is_pid_valid(pid),\n        ${c},\n`);

const CASES: Case[] = [
  // Lambdas that count their reads.
  ...['[2]', '[1, 2]', '[2, 3]', '[1]', '[3]', '[1, 3]', 'range(1, 100, 2)', 'range(2, 100, 2)', '[2, 4]', 'range(1, 5)'].map((r) => ({ family: 'counting', name: `right at reads ${r}`, handler: 'sys_set_runnable', spec: counting(r) })),
  { family: 'counting', name: 'module-level counter', handler: 'sys_set_runnable', spec: counting('[2]').replace('    n = [0]\n', '').replace('import z3\n', 'import z3\nn = [0]\n') },
  { family: 'counting', name: 'counter in a nested list', handler: 'sys_set_runnable', spec: stateFn(`box[0][0] += 1\nif box[0][0] == 2:\n    return ${RIGHT}\nreturn ${WRONG}`, 'box = [[0]]') },
  { family: 'counting', name: 'counter as a list length', handler: 'sys_set_runnable', spec: stateFn(`seen.append(1)\nif len(seen) == 2:\n    return ${RIGHT}\nreturn ${WRONG}`, 'seen = []') },
  { family: 'counting', name: 'names seen so far', handler: 'sys_set_runnable', spec: stateFn(`if str(p) not in seen:\n    seen.append(str(p))\nif len(seen) == 2:\n    return ${RIGHT}\nreturn ${WRONG}`, 'seen = []') },
  { family: 'counting', name: 'sys_copy_frame data, right at read 2', handler: 'sys_copy_frame', spec: copyFrame(`    n = [0]\n\n    def data(p, i, oldfn):\n        n[0] += 1\n        if n[0] == 2:\n            return ${COPY_RIGHT}\n        return ${COPY_WRONG}\n\n    new.pages.data = data\n`) },
  // Closures over mutable state shared between maps.
  { family: 'closure', name: 'flag flipped after the write (late binding)', handler: 'sys_set_runnable', spec: stateFn(`if flag[0]:\n    return ${WRONG}\nreturn ${RIGHT}`, 'flag = [True]').replace('    new.procs.state = state\n', '    new.procs.state = state\n    flag[0] = False\n') },
  { family: 'closure', name: 'another map read flips a flag', handler: 'sys_set_runnable', spec: stateFn(`if flag[0]:\n    return ${RIGHT}\nreturn ${WRONG}`, 'flag = [False]').replace('    new.procs.state = state\n', '    new.procs.state = state\n\n    def killed(q, oldfn):\n        flag[0] = True\n        return oldfn(q)\n\n    new.procs.killed = killed\n') },
  { family: 'closure', name: 'the state map reads itself through new', handler: 'sys_set_runnable', spec: stateFn(`n[0] += 1\nif n[0] > 1:\n    return oldfn(p)\nreturn util.If(new.procs[p].state == oldfn(p), ${RIGHT}, oldfn(p))`, 'n = [0]') },
  // Lambdas that look at their index.
  ...[
    ["str(p).startswith('same.')", 'str() names the comparison probe'],
    ["str(p).startswith('sk.')", "str() names refinement's skolem"],
    ["str(p).startswith('same.') or str(p).startswith('sk.')", 'str() names both'],
    ["'probe' in str(p)", 'str() contains probe'],
    ["str(p) == 'probe!0'", "str() is the run's old probe"],
    ['len(str(p)) > 20', 'str() is long'],
    ["repr(p).startswith('same.')", 'repr() names the probe'],
    ["('%s' % p).startswith('same.')", '% formatting names the probe'],
    ['id(p) % 2 == 0', 'id() parity'],
    ['hash(p) % 2 == 0', 'hash() parity'],
    ["p.sexpr().startswith('same.')", 'sexpr() names the probe'],
    ['p == pid', 'structural == as a bool'],
    ['z3.is_const(p)', 'is_const of the index'],
    ["'pin.' in str(p)", 'str() names the pin'],
  ].map(([test, name]) => ({ family: 'inspecting', name, handler: 'sys_set_runnable', spec: when(test) })),
  { family: 'inspecting', name: 'sys_copy_frame data by str()', handler: 'sys_copy_frame', spec: copyFrame(`    def data(p, i, oldfn):\n        if str(p).startswith('same.') or str(p).startswith('sk.'):\n            return ${COPY_RIGHT}\n        return ${COPY_WRONG}\n\n    new.pages.data = data\n`) },
  // Lambdas that raise at some reads.
  ...[
    ['True', '1 / 0', 'division by zero at every read'],
    ['n[0] == 2', '1 / 0', 'division by zero at read 2'],
    ['n[0] == 3', '1 / 0', 'division by zero at read 3'],
    ['n[0] == 1', '1 / 0', 'division by zero at read 1 only'],
    ["str(p).startswith('sk.')", '1 / 0', "division by zero at refinement's read"],
    ["str(p).startswith('same.')", '1 / 0', 'division by zero at the strict probe'],
    ['n[0] == 2', '[][5]', 'index error at read 2'],
    ['n[0] == 2', 'undefined_name', 'unknown name at read 2'],
    ['n[0] == 2', "'text'", 'a str returned at read 2'],
    ['n[0] == 2', '7', 'a Python int returned at read 2'],
    ['n[0] == 2', 'z3.BitVecVal(1, 8)', 'a value of the wrong width at read 2'],
    ['n[0] >= 2', 'state(p, oldfn)', 'recursion at read 2'],
  ].map(([test, raise, name]) => ({ family: 'raising', name, handler: 'sys_set_runnable', spec: raising(test, raise) })),
  // Format precision and width bombs.
  ...[
    "s = '%.999999999x' % 255",
    "s = '%.*d' % (10 ** 9, 1)",
    "s = '%.*f' % (10 ** 9, 1)",
    "s = format(1, '.999999999f')",
    "s = '%999999999d' % 1",
    "s = '%*d' % (10 ** 9, 1)",
    "s = '%.100000x' % 1",
    "s = '%.999999999s' % 'abc'",
    "s = '%.*s' % (10 ** 9, 'abc')",
    "s = '%0999999999.999999999d' % 1",
    "s = '%.99999999999999999999d' % 1",
  ].map((line) => ({ family: 'format', name: line.slice(4), handler: 'sys_kill', spec: kill(line) })),
  // Rotations.
  ...[
    'z3.RotateLeft(pid, 64) == pid',
    'z3.RotateRight(pid, 0) == pid',
    'z3.RotateLeft(z3.RotateRight(pid, 13), 13) == pid',
    'z3.RotateLeft(pid, 10 ** 30) == z3.RotateLeft(pid, (10 ** 30) % 64)',
    'z3.RotateRight(pid, pid) == z3.RotateRight(pid, pid)',
    'z3.RotateLeft(3, 4) == 3',
    'z3.RotateLeft(pid, z3.BitVecVal(1, 8)) == pid',
    'z3.RotateLeft(pid, z3.BoolVal(True)) == pid',
    'z3.RotateLeft(z3.ZeroExt(4000, pid), 4000) != 0',
  ].map((c) => ({ family: 'rotate', name: c, handler: 'sys_set_runnable', spec: withConjunct(c) })),
];

interface Row {
  readonly family: string;
  readonly name: string;
  readonly column: Column;
  readonly detail: string;
}

async function probe(c: Case, env: Awaited<ReturnType<typeof nodeEnv>>): Promise<Row> {
  const row = (column: Column, detail: string): Row => ({ family: c.family, name: c.name, column, detail });
  try {
    const v = await verify({ handler: c.handler, spec: c.spec, strict: true, timeoutMs: 60_000 }, env);
    if (v.status === 'spec-error') return row(v.error.code === 'SPEC099' ? 'internal' : 'coded', `${v.error.code} line ${v.error.span.line}: ${v.error.message.slice(0, 60)}`);
    const fast = await proveSpecLemmas(c.handler, c.spec, env, { timeoutMs: 20_000 });
    if (fast.status === 'spec-error') return row(fast.error.code === 'SPEC099' ? 'internal' : 'coded', `strict ${v.status}; lemmas ${fast.error.code}`);
    const via = fast.path;
    if (fast.status !== 'proved') return row('verdict', `strict ${v.status}; lemmas ${fast.status} (${via})`);
    const full = await proveSpecLemmas(c.handler, c.spec, env, { timeoutMs: 20_000, reuse: false });
    if (full.status === 'spec-error') return row('internal', `strict ${v.status}; lemmas proved (${via}), full ${full.error.code}`);
    if (full.status !== 'proved') return row('wrong', `strict ${v.status}; lemmas proved (${via}); full ${full.status}`);
    return row('verdict', `strict ${v.status}; lemmas proved (${via}) = full`);
  } catch (e) {
    return row('internal', `threw: ${(e instanceof Error ? e.message : String(e)).slice(0, 80)}`);
  }
}

const COLUMNS: readonly Column[] = ['verdict', 'coded', 'internal', 'wrong'];
const corpusAt = process.argv.indexOf('--corpus');
if (corpusAt > 0) {
  // The spec inputs as answers (JSONL as `osvlab grade` and `osvlab bench --corpus` read them).
  const answers = CASES.filter((c) => c.family !== 'format' && c.family !== 'rotate');
  writeFileSync(process.argv[corpusAt + 1], answers.map((c) => JSON.stringify({ handler: c.handler, response: `\`\`\`python\n${c.spec}\`\`\``, made: `probe:${c.family}:${c.name}` })).join('\n') + '\n');
  process.exit(0);
}
const env = await nodeEnv();
const rows: Row[] = [];
for (const c of CASES) {
  const r = await probe(c, env);
  rows.push(r);
  if (!process.argv.includes('--json')) console.log(`${r.column.padEnd(8)} ${r.family.padEnd(10)} ${r.name.padEnd(52)} ${r.detail}`);
}
if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
else {
  console.log(`\n${'family'.padEnd(12)}${COLUMNS.map((c) => c.padStart(9)).join('')}`);
  for (const f of [...new Set(rows.map((r) => r.family))]) {
    console.log(`${f.padEnd(12)}${COLUMNS.map((c) => String(rows.filter((r) => r.family === f && r.column === c).length).padStart(9)).join('')}`);
  }
  console.log(`${'all'.padEnd(12)}${COLUMNS.map((c) => String(rows.filter((r) => r.column === c).length).padStart(9)).join('')}  (${rows.length} inputs)`);
}
process.exit(0);
