/**
 * A seeded, time-bounded fuzzer of the spec dialect: generated malformed and
 * hostile specs (mutations of a real spec, token soup, names from
 * JavaScript's object model, deep and long chains, quantifiers, names that
 * match the verifier's own) go through parse + check, and a bounded subset
 * through verify() on the kernel. Every result must be a coded spec error or
 * a clean check / a verdict: never SPEC099 or an exception (internal), never
 * slower than HANG_MS (hang). Prints tried / coded error / verdict /
 * internal / hang.
 */
import { describe, expect, it } from 'vitest';
import { nodeCaches, nodeEngine } from '../../src/z3/node.ts';
import { lintSpec } from '../../src/core/dialect/index.ts';
import { verify } from '../../src/core/verify/index.ts';
import { seeded } from '../../src/core/rng.ts';

const SEED = 20261201;
const CHECK_BUDGET_MS = 3000;
const VERIFY_COUNT = 3;
const HANG_MS = 5000;
const MIN_CHECKS = 40;

const BASE = `def sys_kill(old, pid):
    cond = z3.And(is_pid_valid(pid), old.procs[pid].state != dt.proc_state.PROC_UNUSED,
                  old.procs[pid].state != dt.proc_state.PROC_ZOMBIE)
    new = old.copy()
    new.procs[pid].killed = z3.BoolVal(True)
    new.procs[pid].state = util.If(old.procs[pid].state != dt.proc_state.PROC_RUNNING,
                                   dt.proc_state.PROC_ZOMBIE, old.procs[pid].state)
    return cond, util.If(cond, new, old)
`;

const JS_NAMES = ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty', 'prototype', 'isPrototypeOf', '__defineGetter__', 'call', 'apply', 'bind', 'then', 'length', 'Symbol', 'globalThis', 'process', 'eval', 'Function'];
const TOKENS = ['(', ')', '[', ']', ':', ',', '.', '=', '==', '+', '-', '*', '**', '<<', 'lambda', 'if', 'else', 'not', 'and', 'return', 'def', 'import', 'from', 'pid', 'old', 'new', 'z3', 'util', 'dt', '0', '1', '-1', "'s'", 'None', 'True', '\n', '    ', 'z3.ForAll', 'z3.Exists', 'z3.BitVec', 'old.procs[pid]', '.ofile', '.state', '()'];

function hostile(r: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const name = pick(JS_NAMES);
  const n = 1000 + Math.floor(r() * 3000);
  const ret = '    return z3.BoolVal(True), old\n';
  const forms = [
    () => `import ${name}\n${BASE}`,
    () => `from ${name} import x\n${BASE}`,
    () => `from z3 import ${name}\n${BASE}`,
    () => `from hv6py.${name} import x\n${BASE}`,
    () => `def sys_kill(old, pid):\n    x = ${pick(['old', 'z3', 'dt', 'util', 'pid', '1', "'a'", '[]', '()', 'old.procs', 'old.procs[pid]', 'old.procs[pid].ofile'])}.${name}\n${ret}`,
    () => `def sys_kill(old, pid):\n    x = ${name}\n${ret}`,
    () => `def sys_kill(old, pid):\n    x = ${Array(n).fill(pick(['1', 'pid', 'old.current'])).join(` ${pick(['+', '-', '*', '&', '|', '<<', 'and', 'or', '<'])} `)}\n${ret}`,
    () => `def sys_kill(old, pid):\n    x = old${'.procs'.repeat(n)}\n${ret}`,
    () => `def sys_kill(old, pid):\n    x = old.procs${'[pid]'.repeat(n)}\n${ret}`,
    () => `def sys_kill(old, pid):\n    x = util.i64${'(1)'.repeat(n)}\n${ret}`,
    () => `def sys_kill(old, pid):\n    x = ${'('.repeat(n)}1${')'.repeat(n)}\n${ret}`,
    () => `def sys_kill(old, pid):\n    x = ${'not '.repeat(n)}True\n${ret}`,
    () => `def sys_kill(old, pid):\n    q = z3.BitVec('${pick(['arg.pid', 'probe!0', 'procs.state', 'pid', 'sk.x.0', '&procs'])}', ${pick(['1', '8', '32', '64'])})\n    return z3.And(is_pid_valid(pid), q == q + 1), old\n`,
    () => `def sys_kill(old, pid):\n    f = z3.Function('${pick(['procs.state', 'arg.pid', 'fn'])}', dt.pid_t, dt.uint64_t)\n    return f(pid) == 0, old\n`,
    () => `def sys_kill(old, pid):\n    q = z3.BitVec('q', 64)\n    return z3.And(is_pid_valid(pid), z3.${pick(['ForAll', 'Exists'])}([q], z3.ULE(q, pid))), old\n`,
    () => `def sys_kill(old, pid):\n    q = z3.BitVec('q', 64)\n    new = old.copy()\n    new.procs[pid].state = util.If(z3.ForAll([q], z3.ULE(q, pid)), util.i64(1), util.i64(2))\n    return z3.BoolVal(True), new\n`,
  ];
  return pick(forms)();
}

function mutate(r: () => number, src: string): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  let s = src;
  const k = 1 + Math.floor(r() * 4);
  for (let i = 0; i < k; i++) {
    const at = Math.floor(r() * (s.length + 1));
    switch (Math.floor(r() * 5)) {
      case 0:
        s = s.slice(0, at) + s.slice(at + 1 + Math.floor(r() * 8));
        break;
      case 1:
        s = s.slice(0, at) + pick(TOKENS) + s.slice(at);
        break;
      case 2:
        s = s.slice(0, at) + pick(JS_NAMES) + s.slice(at);
        break;
      case 3: {
        const lines = s.split('\n');
        const a = Math.floor(r() * lines.length);
        lines.splice(Math.floor(r() * lines.length), 0, lines[a]);
        s = lines.join('\n');
        break;
      }
      default:
        s = s.slice(0, at) + s.slice(at).replace(/[A-Za-z_]+/, pick(JS_NAMES));
    }
  }
  return s;
}

function soup(r: () => number): string {
  const n = 5 + Math.floor(r() * 60);
  return Array.from({ length: n }, () => TOKENS[Math.floor(r() * TOKENS.length)]).join(r() < 0.5 ? ' ' : '');
}

describe('spec fuzzer', () => {
  it('every generated spec ends in a coded error or a verdict', async () => {
    const r = seeded(SEED);
    const counts = { tried: 0, coded: 0, verdict: 0, internal: 0, hang: 0 };
    const bad: string[] = [];
    const cleanOnes: string[] = [];
    const started = Date.now();
    // At least MIN_CHECKS inputs, more while the time budget lasts.
    while (counts.tried < MIN_CHECKS || Date.now() - started < CHECK_BUDGET_MS) {
      const roll = r();
      const src = roll < 0.4 ? hostile(r) : roll < 0.85 ? mutate(r, BASE) : soup(r);
      counts.tried++;
      const t0 = Date.now();
      let diags;
      try {
        diags = lintSpec(src, 'sys_kill');
      } catch (e) {
        counts.internal++;
        bad.push(`threw ${String(e)}: ${src.slice(0, 120)}`);
        continue;
      }
      if (Date.now() - t0 > HANG_MS) {
        counts.hang++;
        bad.push(`slow: ${src.slice(0, 120)}`);
      }
      const err = diags.find((d) => d.severity !== 'warning');
      if (err && err.code === 'SPEC099') {
        counts.internal++;
        bad.push(`${err.message}: ${src.slice(0, 120)}`);
      } else if (err) counts.coded++;
      else {
        counts.verdict++;
        if (cleanOnes.length < 50) cleanOnes.push(src);
      }
    }
    // A bounded subset through the verifier: hostile forms (quantifiers and
    // clashing names included) and the clean mutants.
    const engine = await nodeEngine();
    const toVerify = [...Array.from({ length: VERIFY_COUNT }, () => hostile(r)), ...cleanOnes.slice(0, 1)];
    for (const src of toVerify) {
      counts.tried++;
      const t0 = Date.now();
      try {
        const v = await verify({ handler: 'sys_kill', spec: src, timeoutMs: 10_000 }, { engine, caches: nodeCaches() });
        if (v.status === 'spec-error' && v.error.code === 'SPEC099') {
          counts.internal++;
          bad.push(`verify ${v.error.message}: ${src.slice(0, 120)}`);
        } else if (v.status === 'spec-error') counts.coded++;
        else counts.verdict++;
      } catch (e) {
        counts.internal++;
        bad.push(`verify threw ${String(e).slice(0, 200)}: ${src.slice(0, 120)}`);
      }
      if (Date.now() - t0 > 60_000) counts.hang++;
    }
    console.log(`spec fuzzer (seed ${SEED}): tried ${counts.tried} / coded error ${counts.coded} / verdict ${counts.verdict} / internal ${counts.internal} / hang ${counts.hang}`);
    expect(bad).toEqual([]);
    expect(counts.internal).toBe(0);
    expect(counts.hang).toBe(0);
    expect(counts.tried).toBeGreaterThanOrEqual(MIN_CHECKS + VERIFY_COUNT);
  }, 300_000);
});
