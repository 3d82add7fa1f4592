/**
 * The agent mode's tools for a run (docs/research.md, "The agent mode"):
 * the run's grader answers each `verify` call against the implementation the
 * task shows, or the grading reference when the config says `reference`,
 * with the tool's own time limit and without strict; a renamed run's model
 * sends and reads its own names (docs/rename.md). The same in the CLI and
 * the page.
 */
import { lensFor } from '../../rename/lens.ts';
import { specText } from '../grade/answer.ts';
import { agentInstruction, agentTools, answerCall } from '../agent/tools.ts';
import type { AgentDeps } from '../run/run-loop.ts';
import type { RunConfig } from '../run/run-types.ts';
import { VerifierCaches } from '../../verify/caches.ts';
import type { Grader } from './ports.ts';

/** The tools of an agent run with `config` over `grader`; `now` times each call. */
export function agentDeps(config: RunConfig, grader: Grader, now: () => number = Date.now): AgentDeps | undefined {
  const settings = config.agent;
  if (!settings) return undefined;
  const lens = config.rename ? lensFor(config.rename) : undefined;
  // The `run` tool evaluates concretely on this thread; its parsed kernel and symbolic runs are kept for the run's calls.
  const caches = new VerifierCaches();
  return {
    tools: agentTools(settings.verifyAgainst),
    instruction: agentInstruction(settings),
    answer: (task, call, overCap, signal) =>
      answerCall(
        task,
        call,
        {
          settings,
          // The tool's budget is the solver's; its job is stopped past twice that and half a minute.
          check: (t, spec, implSource) =>
            grader(t, specText(spec), { timeoutMs: settings.toolTimeoutMs, strict: false, signal, hardTimeoutMs: settings.toolTimeoutMs * 2 + 30_000, ...(implSource !== undefined ? { implSource } : {}) }),
          toKernelNames: (spec) => (lens ? lens.inverse.codeText(spec, 'python') : spec),
          toModelNames: (text) => (lens ? lens.forward.feedback(text) : text),
          now,
          caches,
        },
        overCap,
      ),
  };
}
