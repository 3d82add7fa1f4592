/**
 * Published results to compare a run with: the OSVBench paper's Pass@1 (%)
 * per bug class, 5-shot prompt, one sample per task (245 tasks). Copied from
 * the performance table the authors publish in their repository README
 * (the same table as the paper, arXiv 2504.20964). These are their numbers on
 * Hyperkernel with their verifier, not ours: show them as a reference, never
 * as results of this app.
 */
import type { BugClass } from '../../tasks/task.ts';

export const REFERENCE_LABEL = 'as reported by the OSVBench paper on Hyperkernel';

export const REFERENCE_SOURCE = {
  title: 'OSVBench: Benchmarking LLMs on Specification Generation Tasks for Operating System Verification',
  paper: 'https://arxiv.org/abs/2504.20964',
  table: 'https://github.com/lishangyu-hkust/OSVBench/blob/3247b75e34bec129328e4930d9b5f56448d072a1/README.md',
  setting: 'Pass@1 (%), 5-shot prompt, 245 tasks',
} as const;

export interface ReferenceRow {
  readonly institution: string;
  readonly model: string;
  /** The paper marks reasoning models. */
  readonly reasoning: boolean;
  /** The paper marks closed-source models. */
  readonly closed: boolean;
  /** Pass@1 % on tasks with each injected bug class. */
  readonly byBugClass: Readonly<Record<BugClass, number>>;
  /** Pass@1 % on the bug-free variants. */
  readonly correct: number;
  /** Pass@1 % over all 245 tasks. */
  readonly total: number;
}

function row(
  institution: string,
  model: string,
  reasoning: boolean,
  closed: boolean,
  [pointer, privilege, leak, overflow, bounds, correct, total]: readonly number[],
): ReferenceRow {
  return {
    institution,
    model,
    reasoning,
    closed,
    byBugClass: {
      'incorrect-pointer': pointer,
      'incorrect-privilege': privilege,
      'memory-leak': leak,
      'buffer-overflow': overflow,
      'bounds-checking': bounds,
    },
    correct,
    total,
  };
}

// Columns: incorrect pointer, incorrect privilege, memory leak, buffer
// overflow, bounds checking, correct, total. As published, including the
// DeepSeek-R1 row whose bug-class cells repeat o1's in four columns.
export const OSVBENCH_PASS1: readonly ReferenceRow[] = [
  row('OpenAI', 'o1', true, true, [12.68, 21.43, 13.51, 20.37, 23.15, 28.57, 23.67]),
  row('OpenAI', 'o3-mini', true, true, [19.72, 18.75, 18.92, 12.96, 15.74, 26.53, 22.04]),
  row('OpenAI', 'GPT-4o', false, true, [33.8, 34.82, 32.43, 33.33, 36.11, 42.86, 38.78]),
  row('DeepSeek', 'DeepSeek-R1', true, false, [32.39, 21.43, 13.51, 20.37, 23.15, 42.86, 40.0]),
  row('DeepSeek', 'DeepSeek-Chat', false, false, [38.02, 39.29, 36.49, 44.44, 43.52, 51.02, 46.53]),
  row('Meta', 'Llama-3.1-70b-instruct', false, false, [12.68, 18.75, 12.16, 16.67, 22.22, 22.45, 22.45]),
  row('Meta', 'Llama-3.1-8B-Instruct', false, false, [0.0, 11.61, 0.0, 12.96, 9.26, 10.2, 10.61]),
  row('Qwen Team', 'QwQ-32B-Preview', true, false, [14.08, 23.21, 20.27, 20.37, 23.15, 22.45, 24.08]),
  row('Qwen Team', 'Qwen2.5-72b-instruct', false, false, [25.35, 26.79, 24.32, 25.93, 30.56, 34.69, 32.24]),
  row('Qwen Team', 'Qwen2.5-Coder-7B-Instruct', false, false, [0.0, 8.04, 0.0, 3.7, 5.56, 4.08, 4.9]),
  row('Anthropic', 'Claude-3.5-sonnet', false, true, [39.44, 41.96, 39.19, 48.15, 39.81, 46.94, 44.9]),
  row('ByteDance', 'Doubao-1.5-pro', false, true, [50.7, 48.21, 45.95, 40.74, 52.78, 63.27, 55.1]),
];
