/**
 * The agent mode's tools (docs/research.md, "The agent mode"): what the
 * model is offered, and how each call is answered. The only thing a call
 * reaches is the verifier, through the run's grader; nothing the model sends
 * is run as code. Every call gets a result the model reads: a verdict in the
 * words of the `counterexample` feedback mode, or a coded error (AGENT0xx)
 * for a call that cannot be answered (arguments that are not a JSON object,
 * an unknown tool, no spec, a spec over the size limit, a call over the
 * cap). A renamed run's model sends and reads its own names: its spec is
 * renamed back before it is verified and the result renamed forward
 * (docs/rename.md).
 */
import type { ToolCall, ToolSpec } from '../../llm/types.ts';
import type { Task } from '../../tasks/task.ts';
import type { GradeResult } from '../grade/grade-types.ts';
import type { RunInput, RunToolReply, RunToolRequest } from './run-tool.ts';
import { ToolOverrunError } from './tool-overrun.ts';

/** What `verify` checks a spec against: the implementation the task shows, or the grading reference. */
export type VerifyAgainst = 'shown' | 'reference';

export const VERIFY_AGAINST: readonly VerifyAgainst[] = ['shown', 'reference'];

/** The agent mode's settings, as a run's config records them. */
export interface AgentSettings {
  /** Model turns per task at most (each turn is one request). */
  readonly maxTurns: number;
  /** Tool calls per task at most; a call over it is answered with AGENT005. */
  readonly maxCalls: number;
  readonly verifyAgainst: VerifyAgainst;
  /** The time limit of one tool call (ms): the solver's for `verify`, the whole call's for `run` (AGENT011). */
  readonly toolTimeoutMs: number;
}

export const AGENT_DEFAULTS: AgentSettings = { maxTurns: 10, maxCalls: 20, verifyAgainst: 'shown', toolTimeoutMs: 20_000 };

/** The longest spec a call may carry (characters of its arguments); an oracle spec is under 6,000. */
export const MAX_TOOL_ARGUMENT_CHARS = 100_000;

const TOOL_NAMES = ['verify', 'run', 'submit'] as const;

const SPEC_PARAMETERS = {
  type: 'object',
  properties: { spec: { type: 'string', description: 'The complete Python module: imports, helpers and the entry function.' } },
  required: ['spec'],
} as const;

// One type per schema (Gemini's schema has no type unions): numbers travel as strings, and a JSON number is read too.
const NUMBER = 'an integer: decimal or "0x..." (a JSON number is accepted too)';

const RUN_PARAMETERS = {
  type: 'object',
  properties: {
    spec: SPEC_PARAMETERS.properties.spec,
    case: { type: 'integer', description: 'A reachable case of this system call (up to 4, numbered from 0): its state and its arguments.' },
    cells: {
      type: 'array',
      description: 'Cells set over the case\'s state (or the boot state).',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, index: { type: 'array', items: { type: 'string', description: NUMBER } }, value: { type: 'string', description: `${NUMBER}, an enum member's name, or true/false` } },
        required: ['field', 'index', 'value'],
      },
    },
    args: { type: 'array', description: 'The arguments, in order (they replace the case\'s).', items: { type: 'string', description: NUMBER } },
  },
  required: ['spec'],
} as const;

/** The tools as the model is offered them; `against` words the verify tool's description. */
export function agentTools(against: VerifyAgainst): ToolSpec[] {
  const what =
    against === 'shown'
      ? 'the C implementation shown in the task'
      : "the kernel's correct implementation (the grading reference, which may differ from the code shown)";
  return [
    {
      name: 'verify',
      description: `Proves or refutes that your specification matches ${what}. Returns the verdict: the failing obligations with a counterexample (arguments and state cells), or the spec error with its line, column and code frame.`,
      parameters: SPEC_PARAMETERS,
    },
    {
      name: 'run',
      description: `Runs your specification and ${what} on one concrete kernel state with concrete arguments, and returns the spec's condition, the implementation's return value and the state cells where the two new states differ (old value, your spec's, the implementation's). The state is either "case", one of the reachable cases of this system call (up to 4, numbered from 0: a real kernel state reached from boot by successful system calls, with arguments under which the correct kernel succeeds; the result says how it was reached), or the boot state; "cells" then sets cells over it ({"field": "procs.state", "index": [2], "value": "PROC_EMBRYO"}; indices and values are integers or "0x..." strings, enum cells take member names), and "args" gives the system call's arguments in order (required without a case).`,
      parameters: RUN_PARAMETERS,
    },
    {
      name: 'submit',
      description: 'Submits the specification as your final answer and ends the task.',
      parameters: SPEC_PARAMETERS,
    },
  ];
}

/** The paragraph the agent mode adds to the first prompt. */
export function agentInstruction(settings: AgentSettings): string {
  return [
    '## Tools',
    '',
    `You may call the tools \`verify\` (check a draft with the verifier), \`run\` (run a draft and the implementation side by side on one concrete state) and \`submit\` (hand in your final specification). You have at most ${settings.maxTurns} turns and ${settings.maxCalls} tool calls.`,
    'When you are done, call `submit`, or answer with one ```python block holding the complete module and no tool call.',
  ].join('\n');
}

/** One call's answer as a trajectory stores it. */
export interface ToolResult {
  /** The id of the call it answers. */
  readonly callId: string;
  readonly name: string;
  /** The text the model was sent (in its own names in a renamed run). */
  readonly text: string;
  /** The AGENT0xx code of a call that could not be answered. */
  readonly error?: string;
  /** A verify or submit call's grade category against what it checked. */
  readonly category?: GradeResult['category'];
  /** The spec it carried, in hv6's names (what was verified); absent for an error. */
  readonly spec?: string;
  readonly ms: number;
}

/** How a call is answered: the run's grader, its settings, its renaming. */
export interface ToolContext {
  readonly settings: AgentSettings;
  /** Grades a spec against the correct kernel, or `implSource` when given, with a time limit. */
  readonly check: (task: Task, spec: string, implSource: string | undefined) => Promise<GradeResult>;
  /** The model's names to hv6's (identity unless renamed). */
  readonly toKernelNames: (spec: string) => string | Promise<string>;
  /** hv6's names to the model's, in feedback text. */
  readonly toModelNames: (text: string) => string;
  readonly now: () => number;
  /** Answers a `run` call's request (run-tool.ts `answerRun`, on a verifier worker in the page and the CLI); rejects when the runner failed. */
  readonly run: (req: RunToolRequest) => Promise<RunToolReply>;
}

/** A spec fenced for the grader, with a fence longer than any run of backticks in it. */
export function fenced(spec: string): string {
  const longest = Math.max(2, ...(spec.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}python\n${spec.trimEnd()}\n${fence}\n`;
}

function errorResult(call: ToolCall, code: string, message: string, started: number, now: () => number): ToolResult {
  return { callId: call.id, name: call.name, text: `Error ${code}: ${message}`, error: code, ms: now() - started };
}

/**
 * The spec a call carries, or the error to answer it with. The size is
 * checked on the raw text first, so a huge argument is never parsed.
 */
export function specOfCall(call: ToolCall): { spec: string } | { code: string; message: string } {
  if (!(TOOL_NAMES as readonly string[]).includes(call.name)) {
    return { code: 'AGENT002', message: `there is no tool "${call.name.slice(0, 80)}"; the tools are ${TOOL_NAMES.slice(0, -1).join(', ')} and ${TOOL_NAMES[TOOL_NAMES.length - 1]}.` };
  }
  if (call.arguments.length > MAX_TOOL_ARGUMENT_CHARS) {
    return { code: 'AGENT004', message: `the arguments of ${call.name} are ${call.arguments.length} characters long; a call may carry at most ${MAX_TOOL_ARGUMENT_CHARS}.` };
  }
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch (e) {
    return { code: 'AGENT001', message: `the arguments of ${call.name} are not JSON (${(e as Error).message}). Send {"spec": "<the complete python module>"}.` };
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { code: 'AGENT001', message: `the arguments of ${call.name} are not a JSON object. Send {"spec": "<the complete python module>"}.` };
  }
  const spec = (args as Record<string, unknown>).spec;
  if (typeof spec !== 'string' || spec.trim() === '') {
    return { code: 'AGENT003', message: `${call.name} needs "spec", a string holding the complete python module.` };
  }
  return { spec };
}

/** The verdict's words: what was checked, then the verifier's diagnosis (the `counterexample` feedback mode's text). */
function verdictText(grade: GradeResult, against: VerifyAgainst, task: Task): string {
  const what = against === 'shown' || task.bug_count === 0 ? 'the implementation shown in the task' : "the kernel's correct implementation";
  if (grade.category === 'internal') return `Error AGENT006: the verifier failed on this call (${grade.internalError ?? 'internal error'}); this says nothing about your spec. Try again.`;
  const head = grade.category === 'pass' ? `Verified against ${what}.` : `Not verified against ${what} (${grade.category}).`;
  return `${head}\n${grade.diagnosis.trim()}`;
}

/**
 * Answers one call. `overCap` says the call is past the run's cap (AGENT005).
 * Never throws for anything the model sent; a grader that throws is answered
 * with AGENT006 (not the model's fault).
 */
export async function answerCall(task: Task, call: ToolCall, ctx: ToolContext, overCap: boolean): Promise<ToolResult> {
  const started = ctx.now();
  if (overCap) return errorResult(call, 'AGENT005', `this task allows ${ctx.settings.maxCalls} tool calls and they are used up; answer now with one python block.`, started, ctx.now);
  const read = specOfCall(call);
  if ('code' in read) return errorResult(call, read.code, read.message, started, ctx.now);
  const spec = await ctx.toKernelNames(read.spec);
  if (call.name === 'submit') return { callId: call.id, name: call.name, text: 'Submitted. Your specification will be graded.', spec, ms: ctx.now() - started };
  const impl = ctx.settings.verifyAgainst === 'shown' && task.bug_count > 0 ? task.impl_override : undefined;
  if (call.name === 'run') return runCall(task, call, spec, impl, ctx, started);
  let grade: GradeResult;
  try {
    grade = await ctx.check(task, spec, impl);
  } catch (e) {
    if (e instanceof ToolOverrunError) {
      // The solver ignored its budget and its worker was stopped (core/service/limits.ts): no verdict, a `timeout` as far as the model's spec goes.
      const stopped = errorResult(call, 'AGENT011', `verify ran past its time limit of ${ctx.settings.toolTimeoutMs} ms and was stopped, its worker with it; there is no verdict on this spec. Try a simpler spec, or \`run\` it on a case.`, started, ctx.now);
      return { ...stopped, category: 'timeout', spec };
    }
    return errorResult(call, 'AGENT006', `the verifier failed on this call (${e instanceof Error ? e.message : String(e)}); this says nothing about your spec. Try again.`, started, ctx.now);
  }
  const text = ctx.toModelNames(verdictText(grade, ctx.settings.verifyAgainst, task));
  return { callId: call.id, name: call.name, text, category: grade.category, spec, ms: ctx.now() - started, ...(grade.category === 'internal' ? { error: 'AGENT006' } : {}) };
}

/** The run's inputs beside the spec: checked for their JSON types (their values are checked when the state is built). */
function runInput(raw: Record<string, unknown>): RunInput | { code: string; message: string } {
  const { case: c, cells, args } = raw;
  if (c !== undefined && (typeof c !== 'number' || !Number.isInteger(c))) return { code: 'AGENT008', message: '"case" must be an integer (a case number, from 0).' };
  if (cells !== undefined && !Array.isArray(cells)) return { code: 'AGENT010', message: '"cells" must be an array of {"field", "index", "value"}.' };
  if (args !== undefined && !Array.isArray(args)) return { code: 'AGENT009', message: '"args" must be an array of the arguments, in order.' };
  return { ...(c !== undefined ? { case: c } : {}), ...(cells !== undefined ? { cells: cells as RunInput['cells'] } : {}), ...(args !== undefined ? { args } : {}) };
}

/**
 * Answers a `run` call: the spec and the implementation the run checks
 * against, on one concrete state (run-tool.ts). Concrete evaluation only, no
 * solver, on the context's runner (a verifier worker in the page and the
 * CLI, off the thread this loop runs on); the call's time limit is a
 * deadline the spec's interpreter and the comparison read as they go
 * (AGENT011 past it), besides the dialect's step limit, and the runner's
 * job has a hard limit behind it.
 */
async function runCall(task: Task, call: ToolCall, spec: string, impl: string | undefined, ctx: ToolContext, started: number): Promise<ToolResult> {
  const against = ctx.settings.verifyAgainst === 'shown' || task.bug_count === 0 ? 'the implementation shown in the task' : "the kernel's correct implementation";
  const limitMs = ctx.settings.toolTimeoutMs;
  let reply: RunToolReply;
  try {
    const input = runInput(JSON.parse(call.arguments) as Record<string, unknown>);
    if ('code' in input) return errorResult(call, input.code, input.message, started, ctx.now);
    // A renamed run's model names cells in its own names ("tasks.state"): hv6's before the state is built.
    const cells = input.cells && (await Promise.all(input.cells.map(async (c) => (c !== null && typeof c === 'object' && typeof c.field === 'string' ? { ...c, field: await ctx.toKernelNames(c.field) } : c))));
    const req: RunToolRequest = { handler: task.handler, spec, against, input: { ...input, ...(cells ? { cells } : {}) }, limitMs, spentMs: ctx.now() - started, ...(impl !== undefined ? { implSource: impl } : {}) };
    reply = await ctx.run(req);
  } catch (e) {
    return errorResult(call, 'AGENT006', `the run failed on this call (${e instanceof Error ? e.message : String(e)}); this says nothing about your spec. Try again.`, started, ctx.now);
  }
  if ('overrun' in reply) return errorResult(call, 'AGENT011', `run stopped at its time limit of ${limitMs} ms and its worker with it; nothing more was compared. Look for a huge loop or deep recursion in your spec, or try another case.`, started, ctx.now);
  if ('code' in reply) return errorResult(call, reply.code, reply.message, started, ctx.now);
  return { callId: call.id, name: call.name, text: ctx.toModelNames(reply.text), spec, ms: ctx.now() - started };
}
