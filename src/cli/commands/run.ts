/**
 * `osvlab run --provider P --model M` (options: ../declarations.ts):
 * evaluates a model on the benchmark. The key comes from the environment (OSVLAB_API_KEY, or the
 * provider's usual variable for the provider's own host only), never from
 * flags. Sampling parameters are sent only when given (docs/providers.md).
 * Rerunning the same command resumes the run in the same directory: nothing
 * is lost, and no answered request is paid twice (only requests in flight
 * when it stopped, or that failed for good, are sent again). Exit 0 done, 3
 * cancelled or incomplete (rerun to resume), 4 failed or usage error.
 */
import { join } from 'node:path';
import { selectTasks } from '../../core/eval/run/run-setup.ts';
import { RUN_DEFAULTS, type RunChoiceInput, runChoiceOf } from '../../core/eval/session/config.ts';
import { RunSession } from '../../core/eval/session/session.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import { requestDiagnostic } from '../../core/llm/errors.ts';
import { baseUrlProblem } from '../../core/llm/base-url.ts';
import { KEY_ENV, createProvider, keyFromEnv } from '../../core/llm/provider.ts';
import { PROVIDER_KINDS, type ProviderKind, type SamplingParams } from '../../core/llm/types.ts';
import { loadPrices } from '../../store/repository.ts';
import { type ParsedArgs, UsageError } from '../args.ts';
import { commandOptions, parseCommand } from '../declarations.ts';
import { printDiagnostic } from '../diagnostics.ts';
import { sessionPorts, withGrading } from '../session-ports.ts';
import { progressReporter } from '../progress.ts';
import { budgetLines, makeBudget, openRunDir, parseRunScale, pricesWith, shardSuffix, usageErrors } from '../run-scale.ts';
import { printReport } from './report.ts';
import { lensOption } from '../lens-option.ts';
import { SHAPE_LENS } from '../../core/shape/choice.ts';
import { RENAME_LENS } from '../../core/rename/choice.ts';

/** A base URL must be an absolute http(s) URL that holds no secret and no fragment (docs/providers.md, "Base URLs"). */
function checkBaseUrl(v: string): void {
  const why = baseUrlProblem(v);
  if (why) throw new UsageError(`--base-url: ${why}`, 'LLM017');
}

/**
 * The run options the flags state, every option left out taking its declared
 * default (the core's RUN_DEFAULTS); the core's `runChoiceOf` makes the run
 * from them, as it does for the Evaluate form and a study's cells
 * (test/app/evaluate-form.test.ts). An agent option without `--agent`, or
 * `--repair N` with it, is a usage error: the agent repairs with its tools.
 */
export function runOptionsOf(args: ParsedArgs, to: { provider: ProviderKind; baseUrl?: string; model: string }, tasks: readonly string[]): RunChoiceInput {
  const o = commandOptions('run', args);
  const agentOnly = ['max-turns', 'max-tool-calls', 'verify-against', 'tool-timeout'].filter((name) => args.values.has(name));
  if (agentOnly.length > 0 && !o.agent) throw new UsageError(`--${agentOnly[0]} is an option of the agent mode: add --agent`);
  if (o.agent && o.repair > 0) throw new UsageError('--repair is not an option of the agent mode: the model repairs with its tools (leave out --repair, or --agent)');
  const params: SamplingParams = Object.fromEntries(
    Object.entries({ temperature: o.temperature, topP: o.topP, maxTokens: o.maxTokens, seed: o.seed, reasoningEffort: o.reasoningEffort }).filter(([, v]) => v !== undefined),
  );
  const rename = lensOption(args, RENAME_LENS);
  const shape = lensOption(args, SHAPE_LENS);
  return {
    provider: to.provider,
    ...(to.baseUrl !== undefined ? { baseUrl: to.baseUrl } : {}),
    model: to.model,
    params,
    tasks: [...tasks],
    shots: o.shots,
    n: Math.max(1, o.n),
    repairRounds: o.repair,
    concurrency: o.concurrency,
    gradeConcurrency: o.gradeConcurrency,
    extract: o.extract,
    grading: { timeoutMs: o.budget, strict: !o.noLemmas, matrix: o.matrix },
    feedback: o.feedback,
    prompt: o.prompt,
    ...(rename ? { rename } : {}),
    ...(shape ? { shape } : {}),
    ...(o.agent ? { agent: { maxTurns: o.maxTurns, maxCalls: o.maxToolCalls, verifyAgainst: o.verifyAgainst, toolTimeoutMs: o.toolTimeout } } : {}),
  };
}

export async function run(argv: string[]): Promise<number> {
  const { args, options: o } = parseCommand('run', argv);
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const { provider, model, baseUrl } = o;
  if (!provider) throw new UsageError(`--provider must be one of ${PROVIDER_KINDS.join(', ')}`);
  if (!model) throw new UsageError('--model is required');
  if (provider === 'openai-compatible' && !baseUrl) throw new UsageError('--base-url is required for openai-compatible (e.g. http://localhost:11434/v1)');
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  const apiKey = keyFromEnv(provider, baseUrl, process.env);
  if (!apiKey && provider !== 'openai-compatible') {
    const [general, ...own] = KEY_ENV[provider];
    const alt = own.length ? ` or ${own.join(' or ')} (these go only to ${provider}'s own host)` : '';
    throw new UsageError(`no API key: set ${general}${alt} in the environment (keys are never taken from flags)`);
  }

  const scale = parseRunScale(args);
  const tasks = await loadTasks();
  let selected: string[];
  try {
    selected = selectTasks(tasks, o.tasks);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const providerObj = createProvider({ kind: provider, baseUrl, apiKey, timeoutMs: o.requestTimeout });
  const choice = runChoiceOf(runOptionsOf(args, { provider, baseUrl: providerObj.baseUrl, model }, selected));
  const id = await RunSession.idOf(choice);
  const dir = o.out ?? join('.osvlab', 'runs', `${model.replace(/[^\w.-]+/g, '_')}-${id}${shardSuffix(scale)}`);
  const store = await openRunDir(dir);
  const stopping = 'stopping: answers already received are kept; rerun the same command to resume';
  try {
    return await withGrading({ workers: Math.max(1, choice.gradeConcurrency ?? RUN_DEFAULTS.gradeConcurrency), stopping }, async ({ grader, runner, control }) => {
      const ports = sessionPorts(tasks, store, { grader, runner }, { provider: providerObj, cache: store, requests: choice.concurrency });
      const session = await usageErrors(() => RunSession.open(choice, ports, { name: o.name, shard: scale.shard, where: dir }));
      process.stderr.write(`${session.created ? 'new' : 'resuming'} run ${id} in ${dir}\n`);
      const prices = pricesWith(scale, await loadPrices(store), model);
      // The tokenizer's 2 MB tables are loaded only for a budget, the one thing that counts prompt tokens here.
      const limited = scale.maxCostUsd !== undefined || scale.maxTotalTokens !== undefined;
      const countPrompt = limited ? (await import('../../core/eval/prompt/tokens.ts')).promptTokens : () => 0;
      const budget = makeBudget(scale, { model, baseUrl: session.run.config.baseUrl, outputCap: choice.params.maxTokens }, prices, await store.listAttempts(id), countPrompt);
      const bar = progressReporter();
      const outcome = await session.execute({ prices, control, budget, onProgress: (p) => bar.update(p) });
      bar.done();
      if (outcome.status === 'failed') {
        process.stderr.write('run failed: ');
        if (outcome.error) printDiagnostic(process.stderr, requestDiagnostic(outcome.error));
        else process.stderr.write('unknown error\n');
      }
      if (budget) for (const l of budgetLines(budget, outcome.progress)) process.stderr.write(`${l}\n`);
      for (const g of outcome.gradeErrors) process.stderr.write(`grading error on ${g.attemptId}: ${g.message}\n`);
      if (outcome.status === 'incomplete') {
        process.stderr.write(`run incomplete: ${outcome.progress.errors} answers missing (requests that failed for good, or gradings that failed); rerun the same command to retry them\n`);
      }
      await printReport(store, id, tasks, o.json, store.damaged);
      return outcome.status === 'done' ? 0 : outcome.status === 'cancelled' || outcome.status === 'incomplete' ? 3 : 4;
    });
  } finally {
    await store.close();
  }
}
