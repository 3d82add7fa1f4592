/**
 * A closed standard output (`osvlab ... | head`) ends printing, not the
 * command: no stack trace, the command's own exit code, and its work done
 * (grade --out still writes the run directory).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeAnswer, oracleSpec, proseAnswer } from '../fake-provider/answers.ts';
import { startCli } from '../cli-process.ts';

const root = mkdtempSync(join(tmpdir(), 'osvlab-closed-out-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs `osvlab ARGS`, closing its standard output after the first `bytes` bytes (0: at once). */
async function closedAfter(bytes: number, ...args: string[]) {
  const { child, result } = startCli(args, process.env);
  let seen = 0;
  if (bytes === 0) child.stdout!.destroy();
  else
    child.stdout!.on('data', (s: string) => {
      seen += s.length;
      if (seen >= bytes) child.stdout!.destroy();
    });
  return result;
}

describe('a closed standard output', () => {
  it('tasks --format osvbench | head -c 100: exits 0 without a stack trace', async () => {
    const r = await closedAfter(100, 'tasks', '--format', 'osvbench');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('grade --out DIR | head -1: every answer is graded and the run directory written', async () => {
    const responses = join(root, 'answers.jsonl');
    writeFileSync(
      responses,
      [
        // Answers that need no proof: the test is about the output, not the verifier.
        JSON.stringify({ task_id: 'sys_kill-v0', response: codeAnswer(oracleSpec('sys_kill').replace('return cond', 'return (cond')) }),
        JSON.stringify({ task_id: 'sys_kill-v1', response: proseAnswer() }),
      ].join('\n'),
    );
    const out = join(root, 'run');
    const r = await closedAfter(0, 'grade', '--responses', responses, '--out', out, '--no-lemmas', '--concurrency', '1');
    expect(r.err).not.toMatch(/EPIPE|at .*\(/);
    expect(r.code).toBe(0);
    // The file is append-only: a later line with the same id replaces an earlier one (src/store/jsonl.ts).
    const lines = readFileSync(join(out, 'attempts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const attempts = [...new Map(lines.map((a) => [a.id, a])).values()];
    expect(attempts.map((a) => [a.taskId, a.grade?.category]).sort()).toEqual([
      ['sys_kill-v0', 'syntax'],
      ['sys_kill-v1', 'syntax'],
    ]);
  });
});
