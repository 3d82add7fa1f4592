/**
 * Specs that exhaust the verifier, as a user runs them: a 4096-bit
 * multiplication that runs Z3 out of its 2 GiB heap (or keeps it past its
 * time, whichever comes first), and a quantifier over a 1024-bit variable
 * that Z3 does not stop on. Each ends in a coded timeout (RES001/RES002,
 * exit 3) within the budget and its slack, never in a crash, a stack trace,
 * an uncoded message or a hang; in `grade` it is a `timeout` grade, which a
 * resumed grading keeps (only `internal` grades are graded again).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeAnswer, oracleSpec } from '../fake-provider/answers.ts';
import { startCli } from '../cli-process.ts';

const root = mkdtempSync(join(tmpdir(), 'osvlab-resources-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** sys_kill's oracle with one more conjunct in its condition. */
function killWith(conjunct: string): string {
  const spec = oracleSpec('sys_kill');
  const at = 'is_pid_valid(pid),';
  if (!spec.includes(at)) throw new Error('the sys_kill oracle changed');
  return spec.replace(at, `${at}\n        ${conjunct},`);
}

const OOM = killWith("z3.BitVec('a', 4096) * z3.BitVec('b', 4096) == z3.BitVecVal((1 << 4095) + 12345, 4096)");
const HANG = killWith("z3.ForAll([z3.BitVec('q', 1024)], z3.BitVec('q', 1024) * z3.BitVec('q', 1024) != z3.ZeroExt(960, pid) * z3.BitVec('q', 1024) + 3)");

function file(name: string, text: string): string {
  const p = join(root, name);
  writeFileSync(p, text);
  return p;
}

/** `osvlab ARGS`, killed after `limitMs` (a hang fails the test rather than the run). */
async function osvlab(limitMs: number, ...args: string[]) {
  const { child, result } = startCli(args, process.env);
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const r = await result;
  clearTimeout(timer);
  return r;
}

const CRASH = /RuntimeError|Aborted\(|node:internal|^\s+at /m;
const BUDGET = 10_000;
/** The slack a verification has past its budget (src/core/service/limits.ts), and a little for the timer. */
const SLACK = 15_000 + 2_000;

describe('a spec that exhausts Z3', () => {
  it('verify, lemmas and grade give coded timeouts (exit 3; grade: timeout, which a resume keeps)', async () => {
    const oom = file('oom.py', OOM);
    const hang = file('hang.py', HANG);
    const answers = file('answers.jsonl', `${JSON.stringify({ task_id: 'sys_kill-v0', response: codeAnswer(OOM) })}\n`);
    const out = join(root, 'graded');
    const [vOom, vHang, lOom, g] = await Promise.all([
      osvlab(240_000, 'verify', 'sys_kill', '--spec', oom, '--json'),
      osvlab(240_000, 'verify', 'sys_kill', '--spec', hang, '--timeout', String(BUDGET), '--json'),
      osvlab(240_000, 'lemmas', 'sys_kill', '--spec', oom, '--json'),
      osvlab(300_000, 'grade', '--responses', answers, '--out', out, '--no-lemmas', '--concurrency', '1'),
    ]);

    for (const [name, r] of [['verify (memory)', vOom], ['verify (quantifier)', vHang], ['lemmas (memory)', lOom]] as const) {
      expect(r.err, name).not.toMatch(CRASH);
      expect(r.code, `${name}: ${r.err}`).toBe(3);
    }
    const verdict = (r: { out: string }) => JSON.parse(r.out);
    expect(verdict(vOom).verdict).toMatchObject({ status: 'timeout', error: { code: expect.stringMatching(/^RES00[12]$/) } });
    expect(verdict(vHang).verdict).toMatchObject({ status: 'timeout', error: { code: expect.stringMatching(/^RES00[12]$/) } });
    // The budget holds: the check ends within its slack, not when Z3 pleases.
    expect(verdict(vHang).ms).toBeLessThanOrEqual(BUDGET + SLACK);
    expect(verdict(lOom)).toMatchObject({ status: 'timeout', error: { code: expect.stringMatching(/^RES00[12]$/) } });

    expect(g.err).not.toMatch(CRASH);
    expect(g.code, g.err).toBe(0);
    expect(g.out).toMatch(/sys_kill-v0\s+timeout/);
    // The last line of the attempt is its graded record (append-only file, src/store/jsonl.ts).
    const attempt = readFileSync(join(out, 'attempts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).at(-1);
    expect(attempt.grade).toMatchObject({ category: 'timeout', diagnosis: expect.stringMatching(/RES00[12]/) });
  });
});
