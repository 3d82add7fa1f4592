/**
 * Helpers of the scale tests: the CLI in child processes (as a user or a
 * batch engine starts it) against the fake OpenAI-compatible provider.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '../../../src/core/tasks/task.ts';
import { oracleSpec } from '../../../src/core/kernel/content.ts';
import { type CliResult, startCli } from '../../cli-process.ts';
import { codeAnswer, proseAnswer } from '../../fake-provider/answers.ts';

export const KEY = 'sk-local-test-key-0001';

export type { CliResult } from '../../cli-process.ts';

export class Cli {
  private readonly children = new Set<ChildProcess>();
  private readonly dirs: string[] = [];

  start(args: readonly string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; result: Promise<CliResult> } {
    const e: NodeJS.ProcessEnv = { ...process.env, OSVLAB_API_KEY: KEY, ...env };
    delete e.OPENAI_API_KEY;
    const started = startCli(args, e);
    this.children.add(started.child);
    return started;
  }

  run(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
    return this.start(args, env).result;
  }

  tempDir(): string {
    const d = mkdtempSync(join(tmpdir(), 'osvlab-scale-'));
    this.dirs.push(d);
    return d;
  }

  /** Kills what a failed test left running. */
  killAll(): void {
    for (const c of this.children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    this.children.clear();
  }

  cleanup(): void {
    this.killAll();
    for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** The task a prompt is about: the C code of its "Your task" section. */
export function taskOf(prompt: string, candidates: readonly Task[]): Task {
  const at = prompt.indexOf('Your task: `');
  if (at < 0) throw new Error('prompt has no task section');
  const code = /```c\n([\s\S]*?)\n```/.exec(prompt.slice(at))?.[1];
  const found = candidates.filter((t) => t.code.trimEnd() === code);
  if (found.length !== 1) throw new Error(`prompt matches ${found.length} of the selected tasks`);
  return found[0];
}

/** 0 for the first answer, r for the r-th repair (src/core/eval/prompt/prompt.ts buildRepairPrompt's text). */
export function roundOf(prompt: string): number {
  return prompt.split('The verifier did not accept this specification').length - 1;
}

export function oracleAnswer(handler: string): string {
  const s = oracleSpec(handler);
  if (!s) throw new Error(`no oracle for ${handler}`);
  return codeAnswer(s);
}

export { proseAnswer };

/**
 * A wrong answer for sys_set_runnable: its oracle with the child made
 * RUNNING instead of RUNNABLE (a semantic failure with a counterexample on
 * procs.state, the same in every front end).
 */
export function wrongRunnableAnswer(): string {
  const spec = oracleSpec('sys_set_runnable');
  const wrong = spec?.replace('dt.proc_state.PROC_RUNNABLE', 'dt.proc_state.PROC_RUNNING');
  if (!spec || wrong === spec) throw new Error('the sys_set_runnable oracle no longer sets PROC_RUNNABLE');
  return codeAnswer(wrong!);
}

/** Complete lines of a JSONL file a child writes. */
export function completeLines(path: string): string[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter((l) => l.trim() !== '');
}

export async function waitFor(what: string, cond: () => boolean, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** `report DIR` text without the one line that holds timings (latency). */
export function reportWithoutTimings(text: string): string {
  return text.replace(/ {3}latency: .*$/m, '   latency: (timing)');
}
