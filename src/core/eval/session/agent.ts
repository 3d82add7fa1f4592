/**
 * The agent mode's tools for a run (docs/research.md, "The agent mode"):
 * the run's grader answers each `verify` call against the implementation the
 * task shows, or the grading reference when the config says `reference`,
 * with the tool's own time limit and without strict; a renamed run's model
 * sends and reads its own names (docs/rename.md). The same in the CLI and
 * the page.
 */
import { loadNameFilter, mayNeedNameFilter } from '../../dialect/unicode-names.ts';
import { lensFor } from '../../rename/lens.ts';
import { specText } from '../grade/answer.ts';
import { agentInstruction, agentTools, answerCall } from '../agent/tools.ts';
import type { AgentDeps } from '../run/run-loop.ts';
import type { RunConfig } from '../run/run-types.ts';
import { VerifierCaches } from '../../verify/caches.ts';
import type { AgentRunner, Grader } from './ports.ts';

/** The tools of an agent run with `config` over `grader` and `runner` (`run` calls; absent: on this thread); `now` times each call. */
export function agentDeps(config: RunConfig, grader: Grader, now: () => number = Date.now, runner?: AgentRunner): AgentDeps | undefined {
  const settings = config.agent;
  if (!settings) return undefined;
  const lens = config.rename ? lensFor(config.rename) : undefined;
  const run = runner ?? localRunner(now);
  return {
    tools: agentTools(settings.verifyAgainst),
    instruction: agentInstruction(settings),
    answer: (task, call, overCap, signal) =>
      answerCall(
        task,
        call,
        {
          settings,
          // The tool's limit is the solver's budget; the job's hard limit is a tool call's (core/service/limits.ts).
          check: (t, spec, implSource) =>
            grader(t, specText(spec), { timeoutMs: settings.toolTimeoutMs, strict: false, signal, toolCall: true, ...(implSource !== undefined ? { implSource } : {}) }),
          // The lens lexes the spec: one with a `\N{...}` escape waits for the Unicode names (docs/design.md, "The worker's first code").
          toKernelNames: async (spec) => {
            if (!lens) return spec;
            if (mayNeedNameFilter(spec)) await loadNameFilter();
            return lens.inverse.codeText(spec, 'python');
          },
          toModelNames: (text) => (lens ? lens.forward.feedback(text) : text),
          now,
          run: (req) => run(req, signal),
        },
        overCap,
      ),
  };
}

/**
 * `run` calls answered on this thread, for a session given no runner (a
 * test's ports): the parsed kernel and the implementation's symbolic runs
 * are kept for the run's calls. Loaded on the first call, so the C frontend
 * and the kernel stay out of a page's first chunks.
 */
function localRunner(now: () => number): AgentRunner {
  const caches = new VerifierCaches();
  return async (req) => (await import('../agent/run-tool.ts')).answerRun(req, caches, now);
}
