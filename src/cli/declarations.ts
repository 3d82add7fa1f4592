/**
 * Every `osvlab` command, declared once: its synopsis, what it is for, its
 * arguments, each option (its value's name, meaning, choices and default,
 * the default being the constant the command itself uses) and its exit
 * codes. The parser reads a command's options here (`parseArgs(argv,
 * declaration('verify').options)`), and so do `--help` and the overview
 * (help.ts) and docs/cli.md (generated from it, checked by
 * test/cli/help.test.ts). docs/CONTRIBUTING.md says how to add an option or
 * a command. What the options mean at length is in docs/cli-errors.md (the
 * limits every command shares), docs/scale.md (shards, merge, compare,
 * budgets), docs/research.md (feedback, prompt variants, studies),
 * docs/providers.md (providers, sampling parameters, keys) and
 * docs/lemmas.md.
 */
import { EXTRACT_MODES, type ExtractMode } from '../core/eval/grade/answer.ts';
import { DEFAULT_GRADE_TIMEOUT_MS } from '../core/eval/grade/grade-types.ts';
import { SHOT_COUNTS } from '../core/eval/prompt/prompt.ts';
import { DEFAULT_PROMPT_VARIANT, PROMPT_VARIANTS } from '../core/eval/prompt/variants.ts';
import { DEFAULT_FEEDBACK, FEEDBACK_MODES, RUN_DEFAULTS } from '../core/eval/session/config.ts';
import { AGENT_DEFAULTS, VERIFY_AGAINST } from '../core/eval/agent/tools.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS, PROVIDER_KINDS, REASONING_EFFORTS } from '../core/llm/types.ts';
import { DEFAULT_BUDGET_MS } from '../core/verify/index.ts';
import type { Lens } from '../core/lens.ts';
import { RENAME_LENS } from '../core/rename/choice.ts';
import { SHAPE_LENS } from '../core/shape/choice.ts';
import { MAX_TIME_LIMIT_MS, type OptionDecl, type OptionValues, type ParsedArgs, optionsOf, parseArgs } from './args.ts';

export interface CommandDecl {
  readonly name: string;
  /** Each form of the command line, after `osvlab `; every option it names is declared below, with the same value name. */
  readonly synopsis: readonly string[];
  /** What the command is for, in a sentence. */
  readonly purpose: string;
  /** Positional arguments: [name as in the synopsis, meaning]. */
  readonly args?: readonly (readonly [string, string])[];
  /** Every option the command accepts. */
  readonly options: readonly OptionDecl[];
  /** Anything else a user must know (where the key comes from). */
  readonly notes?: string;
  readonly exit: string;
}

const LIMIT = `1 to ${MAX_TIME_LIMIT_MS} ms`;
/** The range of a time limit the parser does not know by name (`SHARED` in args.ts has --budget's and the timeouts'). */
const TIME_LIMIT = { min: 1, max: MAX_TIME_LIMIT_MS, unit: 'ms' } as const;
/** The solver time limit of each query of `osvlab lemmas`. */
const LEMMA_QUERY_TIMEOUT_MS = 20_000;

/** An option declared with its literal name, choices and default, so that `optionsOf` types its value. */
const opt = <const O extends OptionDecl>(o: O): O => o;

const SPEC = opt({ name: 'spec', value: 'FILE', meaning: 'the spec to check, a Python file in the spec dialect (- reads standard input); give --spec or --oracle' });
const ORACLE = opt({ name: 'oracle', meaning: "check the handler's reference spec instead of a file" });
const JSON_OUT = (what: string) => opt({ name: 'json', meaning: `print ${what} as JSON` });
const SHARD = (what: string) =>
  opt({
    name: 'shard',
    value: 'K/N',
    meaning: `${what} (K counts from 1); env takes K as one more than JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, and N from OSVLAB_SHARD_TOTAL or SLURM_ARRAY_TASK_COUNT (docs/scale.md)`,
  });
const NO_LEMMAS = opt({ name: 'no-lemmas', alias: 'no-strict', meaning: 'skip the lemma checks (the spec invariants and the lemmas) on passing answers; they run by default' });
const MATRIX = opt({ name: 'matrix', meaning: "also record each first answer's verdict on all five variants of its handler (the variant matrix, which report counts)" });
const REQUEST_TIMEOUT = opt({ name: 'request-timeout', value: 'MS', meaning: `time limit of each request to the provider, ${LIMIT}`, default: DEFAULT_REQUEST_TIMEOUT_MS });
const WORKERS = opt({ name: 'concurrency', value: 'N', type: 'int', meaning: 'verifier worker threads (default one per core; at most two per core and one per GiB of memory)' });
const OUT_RUN = (what: string) => opt({ name: 'out', value: 'DIR', meaning: what });
const NAME = opt({ name: 'name', value: 'NAME', meaning: 'a label for the run (compare shows it in place of the run id)' });
/** A lens's style (core/lens.ts), under its own key, with what it does to this command and what no style means. */
const LENS = <K extends Lens<string>['key'], S extends string>(key: K, lens: Lens<S>, what: string, without: string) =>
  opt({ name: key, value: 'STYLE', meaning: `${what} (no --${key}: ${without}; docs/${key}.md)`, choices: lens.styles });
const LENS_SEED = <K extends Lens<string>['key']>(key: K, lens: Lens<string>) =>
  opt({ name: `${key}-seed`, value: 'N', meaning: `the seed of the ${lens.what}, a whole number (with --${key})`, default: lens.defaultSeed });
/** A renaming (docs/rename.md), with what it does to this command. */
const RENAME = (what: string) => LENS('rename', RENAME_LENS, what, "hv6's own names");
const RENAME_SEED = LENS_SEED('rename', RENAME_LENS);
/** A shape of the shown code (docs/shape.md), with what it does to this command. */
const SHAPE = (what: string) => LENS('shape', SHAPE_LENS, what, "the kernel's own order");
const SHAPE_SEED = LENS_SEED('shape', SHAPE_LENS);
const KEY = "The API key comes from the environment, never from a flag: OSVLAB_API_KEY, or the provider's own variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY), which is sent only to that provider's own host (docs/providers.md).";

const DECLARED = [
  {
    name: 'verify',
    synopsis: ['verify <handler> (--spec FILE | --oracle) [--impl FILE | --variant ID] [--budget MS] [--lemmas] [--json]'],
    purpose: 'Proves or refutes that a spec refines one handler of the kernel, and prints the verdict (with a counterexample when refuted).',
    args: [['<handler>', 'the handler (system call) to check, e.g. sys_dup']],
    options: [
      SPEC,
      ORACLE,
      { name: 'impl', value: 'FILE', meaning: "a C file whose functions replace the kernel's (- reads standard input); it must define at least one" },
      { name: 'variant', value: 'ID', meaning: 'check against the implementation of benchmark task ID, a variant of the same handler (osvlab tasks lists them); at most one of --impl and --variant' },
      { name: 'budget', value: 'MS', meaning: `wall-clock budget of the whole check, ${LIMIT}`, default: DEFAULT_BUDGET_MS, alias: 'timeout' },
      { name: 'lemmas', alias: 'strict', meaning: 'also run the lemma checks: the spec invariants and the lemmas (docs/lemmas.md)' },
      JSON_OUT('the verdict'),
    ],
    exit: '0 verified, 1 refuted, 2 spec error or bad C (docs/c-errors.md), 3 timeout or unknown, 4 usage or internal error.',
  },
  {
    name: 'diff',
    synopsis: ['diff <handler> <A.py> <B.py> [--timeout MS] [--json]'],
    purpose:
      'Compares two specs of one handler by meaning: equivalent when, in every state satisfying the representation invariants and for every argument vector, they give the same cond and the same value in every field refinement compares; otherwise prints a distinguishing state replayed through both.',
    args: [
      ['<handler>', 'the handler both specs are of, e.g. sys_dup'],
      ['<A.py>', 'the first spec (- reads standard input)'],
      ['<B.py>', 'the second spec'],
    ],
    options: [{ name: 'timeout', value: 'MS', meaning: `wall-clock budget of the whole comparison, ${LIMIT}`, default: DEFAULT_BUDGET_MS, range: TIME_LIMIT }, JSON_OUT('the verdict')],
    notes: 'A difference in ghost fields only (never compared with the C state, read by the lemma checks) is a note beside an equivalent verdict (docs/hv6-model.md §2.1).',
    exit: '0 equivalent, 1 different, 2 spec error (DIFF001: the specs are of different handlers), 3 timeout or unknown, 4 usage or internal error.',
  },
  {
    name: 'lemmas',
    synopsis: ['lemmas <handler> (--spec FILE | --oracle) [--only NAMES] [--full] [--query-timeout MS] [--json]'],
    purpose: "Runs the lemma checks of a handler's spec alone: each spec invariant preserved and each lemma, with its verdict.",
    args: [['<handler>', 'the handler whose spec is checked, e.g. sys_alloc_pt']],
    options: [
      SPEC,
      ORACLE,
      { name: 'only', value: 'NAMES', meaning: 'check only these lemmas (comma-separated names; an unknown one is refused with the list)' },
      { name: 'full', meaning: "prove everything again; by default a spec whose step is the oracle's reuses the oracle's proof (docs/lemmas.md)" },
      { name: 'query-timeout', value: 'MS', meaning: `solver time limit of each query, ${LIMIT}`, default: LEMMA_QUERY_TIMEOUT_MS, alias: 'timeout' },
      JSON_OUT('the results'),
    ],
    exit: '0 all proved, 1 some failed, 2 spec error, 3 timeout or unknown, 4 usage error.',
  },
  {
    name: 'tasks',
    synopsis: ['tasks [--json | --format osvbench] [--rename STYLE [--rename-seed N]] [--shape STYLE [--shape-seed N]]'],
    purpose: 'Lists the benchmark tasks: id, number of injected bugs and bug classes.',
    options: [
      { name: 'json', meaning: 'print every task as one JSON array of task objects (tasks/README.md)' },
      {
        name: 'format',
        value: 'FORMAT',
        meaning: "print the tasks as another benchmark's task file",
        choices: ['osvbench'],
        note: "(OSVBench's benchmark.json, for OSVBench's own harness; docs/osvbench.md)",
      },
      RENAME("print each task's declaration, description, code, bugs and override in a renaming, under the same id"),
      RENAME_SEED,
      SHAPE("print each task's code in a shape, its bugs' lines following their statements, under the same id"),
      SHAPE_SEED,
    ],
    exit: '0 listed, 4 usage error or no tasks.',
  },
  {
    name: 'task',
    synopsis: ['task show <id> [--json]'],
    purpose: 'Shows one task: its header, description, the code shown to the model, where the injected bugs are and the override the verifier links.',
    args: [
      ['show', 'the only subcommand'],
      ['<id>', 'a task id, e.g. sys_dup-v1 (osvlab tasks lists them)'],
    ],
    options: [JSON_OUT('the task object')],
    exit: '0 shown, 4 usage error or no such task.',
  },
  {
    name: 'prompt',
    synopsis: ['prompt <task-id> [--shots N] [--prompt VARIANT] [--rename STYLE [--rename-seed N]] [--shape STYLE [--shape-seed N]] [--stats] [--json]', 'prompt --stats --all [--shots N] [--rename STYLE [--rename-seed N]] [--shape STYLE [--shape-seed N]] [--json]'],
    purpose: 'Prints the benchmark prompt of one task, or its size in tokens; with --stats --all, prompt sizes over all tasks.',
    args: [['<task-id>', 'a task id, e.g. sys_dup-v1']],
    options: [
      { name: 'shots', value: 'N', meaning: 'worked examples in the prompt', default: RUN_DEFAULTS.shots, note: `(with --all, each of ${SHOT_COUNTS.join(', ')} unless given)` },
      { name: 'prompt', value: 'VARIANT', meaning: 'prompt variant (not with --all)', choices: PROMPT_VARIANTS, default: DEFAULT_PROMPT_VARIANT, note: '(docs/research.md)' },
      { name: 'stats', meaning: "print the prompt's size in tokens (o200k tokenizer), per message, instead of its text" },
      { name: 'all', meaning: 'with --stats: token statistics over all tasks, per shot count (median, p10, p90, ...)' },
      RENAME('the prompt in a renaming, as a renamed run sends it'),
      RENAME_SEED,
      SHAPE('the prompt with its code in a shape, as a shaped run sends it'),
      SHAPE_SEED,
      JSON_OUT('the prompt or its statistics'),
    ],
    exit: '0 printed, 4 usage error.',
  },
  {
    name: 'bench',
    synopsis: ['bench [--handlers NAMES] [--runs N] [--lemmas [--full]] [--budget MS] [--json]', 'bench --corpus FILE [--made PREFIX] [--limit N] [--full] [--budget MS] [--json]'],
    purpose: "Times the cold verification of every handler's oracle spec; with --corpus, times grading a corpus of answers without and with the lemma check.",
    options: [
      { name: 'handlers', value: 'NAMES', meaning: 'time only these handlers (comma-separated; default all)' },
      { name: 'runs', value: 'N', meaning: 'runs per handler, of which the median is reported', default: 3 },
      { name: 'lemmas', meaning: 'also time the lemma checks as grading with lemmas runs them, and their ratio to refinement' },
      { name: 'full', meaning: 'with --lemmas: also time the full lemma check, no proof reused; with --corpus: also run it on every answer that passed refinement and count where it differs from the grade with lemmas' },
      { name: 'budget', value: 'MS', meaning: `wall-clock budget of each verification or graded answer (and of each query of the lemma checks), ${LIMIT}`, default: DEFAULT_GRADE_TIMEOUT_MS, alias: 'timeout' },
      { name: 'corpus', value: 'FILE', meaning: 'grade the answers of FILE (JSONL as osvlab grade reads it, e.g. perf/corpus/answers.jsonl) twice each, without and with the lemma check (docs/lemmas.md)' },
      { name: 'made', value: 'PREFIX', meaning: 'with --corpus: only the answers whose made label starts with PREFIX' },
      { name: 'limit', value: 'N', type: 'int', meaning: 'with --corpus: only the first N answers' },
      JSON_OUT('the rows and the summary'),
    ],
    exit: '0 done, 1 some oracle not verified or some lemma not proved (with --corpus --full: some full check differs from the grade with lemmas), 4 usage error.',
  },
  {
    name: 'grade',
    synopsis: ['grade --responses FILE [--out DIR] [--shard K/N] [--model NAME] [--name NAME] [--concurrency N] [--budget MS] [--no-lemmas] [--matrix] [--rename STYLE [--rename-seed N]] [--json]'],
    purpose: 'Grades answers obtained elsewhere with the verifier, and prints one line per answer and a summary.',
    options: [
      { name: 'responses', value: 'FILE', meaning: 'the answers (required; - reads standard input): JSONL with {"task_id", "response"} or {"handler", "response"} per line, or an OSVBench results file' },
      OUT_RUN('also write the grades as a run directory, which osvlab report reads; rerunning with the same DIR keeps what it already graded'),
      SHARD('grade part K of N of the answers, split by (task, sample) as a run is'),
      { name: 'model', value: 'NAME', meaning: "the model name the run records (default the file's name without its extension)" },
      NAME,
      WORKERS,
      { name: 'budget', value: 'MS', meaning: `wall-clock budget of each answer's whole check, refinement then the lemma checks with what is left, ${LIMIT}`, default: DEFAULT_GRADE_TIMEOUT_MS, alias: 'timeout' },
      NO_LEMMAS,
      MATRIX,
      RENAME('the answers are written in a renaming (a model was shown its names): each spec is renamed back before it is graded'),
      RENAME_SEED,
      JSON_OUT('the results, the bad lines and the summary'),
    ],
    exit: '0 every line graded, 2 some lines were bad input (the others are graded), 3 stopped (Ctrl+C) before every answer was graded (rerun with the same --out to grade the rest), 4 usage error.',
  },
  {
    name: 'run',
    synopsis: ['run --provider P --model M [--base-url URL] [--tasks SEL] [--n N] [--shots K] [--repair R | --agent [--max-turns N]] [--rename STYLE [--rename-seed N]] [--shape STYLE [--shape-seed N]] [--out DIR] [options]'],
    purpose: "Evaluates a model on the benchmark: asks it for each task's spec, grades every answer, runs the repair rounds, keeps everything in a run directory and prints its report; rerunning the same command resumes.",
    options: [
      { name: 'provider', value: 'P', meaning: 'the provider kind (required)', choices: PROVIDER_KINDS },
      { name: 'model', value: 'M', meaning: "the provider's model id (required)" },
      { name: 'base-url', value: 'URL', meaning: "the provider's endpoint, http:// or https:// (default its own); required for openai-compatible, e.g. http://localhost:11434/v1" },
      { name: 'tasks', value: 'SEL', meaning: 'which tasks: all, first:N, handler:NAME or task ids, comma-separated', default: 'all' },
      { name: 'n', value: 'N', meaning: 'samples per task', default: RUN_DEFAULTS.n },
      { name: 'shots', value: 'K', meaning: 'worked examples in the prompt', default: RUN_DEFAULTS.shots },
      { name: 'repair', value: 'R', meaning: 'repair rounds after a failed answer', default: RUN_DEFAULTS.repairRounds },
      { name: 'feedback', value: 'MODE', meaning: 'what a repair round tells the model', choices: FEEDBACK_MODES, default: DEFAULT_FEEDBACK, note: '(docs/research.md)' },
      { name: 'agent', meaning: 'the agent mode: the model calls the verifier as a tool (verify, submit) until it answers; part of the run id (docs/research.md)' },
      { name: 'max-turns', value: 'N', meaning: 'with --agent: model turns per task at most; then the last spec it sent is graded (turns exhausted)', default: AGENT_DEFAULTS.maxTurns },
      { name: 'max-tool-calls', value: 'N', meaning: 'with --agent: tool calls per task at most; a call over it is answered with an error', default: AGENT_DEFAULTS.maxCalls },
      { name: 'verify-against', value: 'WHAT', meaning: "with --agent: what the verify tool checks a spec against: the code the task shows, or the grading reference", choices: VERIFY_AGAINST, default: AGENT_DEFAULTS.verifyAgainst },
      { name: 'tool-timeout', value: 'MS', meaning: "with --agent: the verifier's time limit of one tool call", default: AGENT_DEFAULTS.toolTimeoutMs },
      { name: 'prompt', value: 'VARIANT', meaning: 'prompt variant', choices: PROMPT_VARIANTS, default: DEFAULT_PROMPT_VARIANT, note: '(docs/research.md)' },
      RENAME('show the model every name renamed (prompt, code, descriptions, examples, feedback) and rename its answers back before grading; part of the run id'),
      RENAME_SEED,
      SHAPE("show the model every task's code (its own and the examples') in a shape: fields, helper functions and independent assignments reordered; answers are graded as written; part of the run id"),
      SHAPE_SEED,
      OUT_RUN('the run directory (default .osvlab/runs/MODEL-ID, with -shard-K-of-N for a shard)'),
      NAME,
      { name: 'concurrency', value: 'C', meaning: 'requests in flight at most; fewer while the provider rate-limits', default: RUN_DEFAULTS.concurrency },
      { name: 'grade-concurrency', value: 'G', meaning: 'verifier worker threads grading the answers', default: RUN_DEFAULTS.gradeConcurrency },
      { name: 'temperature', type: 'number', value: 'T', meaning: 'sampling temperature; this and the next four are sent only when given (docs/providers.md)' },
      { name: 'top-p', type: 'number', value: 'P', meaning: 'nucleus sampling top_p' },
      { name: 'max-tokens', type: 'number', value: 'N', meaning: "the cap on each answer's tokens" },
      { name: 'seed', type: 'number', value: 'S', meaning: 'sampling seed' },
      { name: 'reasoning-effort', value: 'E', meaning: 'reasoning effort', choices: REASONING_EFFORTS },
      {
        name: 'extract',
        value: 'MODE',
        meaning: 'how the code is taken from an answer',
        choices: EXTRACT_MODES,
        default: 'osvlab' satisfies ExtractMode,
        note: "(osvlab drops the reasoning first; osvbench reads it exactly as OSVBench's harness does; docs/providers.md)",
      },
      { name: 'budget', value: 'MS', meaning: `wall-clock budget of each answer's whole check (its grade), ${LIMIT}`, default: DEFAULT_GRADE_TIMEOUT_MS, alias: 'timeout' },
      REQUEST_TIMEOUT,
      NO_LEMMAS,
      MATRIX,
      SHARD('do part K of N of the run, split by (task, sample)'),
      { name: 'max-cost', value: 'USD', meaning: 'stop before a request that could take the cost past USD; needs --max-tokens (docs/scale.md)' },
      { name: 'max-total-tokens', value: 'N', meaning: 'stop before a request that could take the tokens in and out past N; needs --max-tokens' },
      { name: 'price', value: 'IN/OUT', meaning: "USD per million input and output tokens, in place of the price table's, for the budget and the recorded costs" },
      JSON_OUT('the report'),
    ],
    notes: KEY,
    exit: '0 done, 3 cancelled or incomplete (rerun to resume), 4 failed or usage error.',
  },
  {
    name: 'report',
    synopsis: ['report DIR [--benchmark FILE] [--json]'],
    purpose: "Prints the metrics of a run directory: pass@k, rates by category, OSVBench's three categories, and tables by bug class, bug count and handler.",
    args: [['DIR', 'a run directory (made by run, grade --out, merge or regrade --out)']],
    options: [
      { name: 'benchmark', value: 'FILE', meaning: "OSVBench's benchmark.json (upstream's, or osvlab tasks --format osvbench): adds the table by OSVBench bug class" },
      JSON_OUT('the report'),
    ],
    exit: '0 reported (a damaged directory gives a report marked partial), 4 usage error or no run.',
  },
  {
    name: 'merge',
    synopsis: ['merge DIR|FILE... --out DIR [--export FILE] [--allow-incomplete] [--json]'],
    purpose: 'Combines the shards of a run (each made by run, grade or study with its shard option) into one run directory (docs/scale.md).',
    args: [['DIR|FILE...', 'the shards: run directories, or run files exported from the Runs page']],
    options: [
      OUT_RUN('the directory of the merged run (required; new or empty)'),
      { name: 'export', value: 'FILE', meaning: 'also write the merged run as a run file, which the Runs page imports' },
      { name: 'allow-incomplete', meaning: 'merge shards that are not finished too (refused otherwise, MERGE007)' },
      JSON_OUT('the summary'),
    ],
    exit: '0 merged, 2 refused (MERGE001-MERGE007) or merged without damaged lines, 4 usage error.',
  },
  {
    name: 'compare',
    synopsis: ['compare A B [--seed S] [--resamples R] [--json]'],
    purpose: 'Compares two runs task by task: flips, the pass@1 difference B - A with a paired bootstrap 95% interval and an exact McNemar test, also by bug class and bug count (docs/scale.md).',
    args: [['A B', 'two runs: run directories or run files']],
    options: [
      { name: 'seed', value: 'S', meaning: 'seed of the bootstrap resampling', default: 'osvlab-compare' },
      { name: 'resamples', value: 'R', meaning: 'bootstrap resamples, at least 100', default: 10_000 },
      JSON_OUT('the comparison'),
    ],
    exit: '0 compared, 3 nothing to compare (no task paired; says why), 4 usage error.',
  },
  {
    name: 'study',
    synopsis: [
      'study FILE.json [--out DIR] [--shard K/N] [--rename STYLE [--rename-seed N]] [--shape STYLE [--shape-seed N]] [--request-timeout MS] [--json]',
      'study FILE.json --report [--out DIR] [--rename STYLE [--rename-seed N]] [--shape STYLE [--shape-seed N]] [--json]',
      'study FILE.json --merge DIR... [--out DIR] [--rename STYLE [--rename-seed N]] [--shape STYLE [--shape-seed N]] [--json]',
    ],
    purpose: "Runs a study's grid of configurations as one resumable job, one run per cell, and prints the study report (docs/research.md).",
    args: [
      ['FILE.json', 'the study file'],
      ['DIR...', 'with --merge: the shard study directories'],
    ],
    options: [
      OUT_RUN('the study directory (default .osvlab/studies/NAME-ID; a shard writes DIR-shard-K-of-N)'),
      SHARD('run part K of N of every cell'),
      { name: 'report', meaning: 'only print the report of what the study directory holds' },
      { name: 'merge', meaning: 'put the shard study directories named after FILE.json together, cell by cell, into the study directory' },
      RENAME('show every cell renamed names, in place of the file\'s "names" (a study of its own)'),
      RENAME_SEED,
      SHAPE('show every cell\'s code in a shape, in place of the file\'s "shape" (a study of its own)'),
      SHAPE_SEED,
      REQUEST_TIMEOUT,
      JSON_OUT('the study report'),
    ],
    notes: KEY,
    exit: '0 done, 2 a bad study file, 3 cancelled or incomplete (rerun to resume), 4 failed or usage error.',
  },
  {
    name: 'regrade',
    synopsis: ['regrade DIR|FILE [--out DIR] [--concurrency N] [--rename STYLE [--rename-seed N]] [--json]'],
    purpose: "Grades every stored answer of a run again with this verifier and the run's own grading settings, and lists each grade that changed.",
    args: [['DIR|FILE', 'a run directory, an exported run file, or an answers file (JSONL or OSVBench results; its answers count as new)']],
    options: [
      OUT_RUN('write the re-verified run to a new run directory'),
      WORKERS,
      RENAME("for an answers file: its answers are written in a renaming; a run records its own, which this must match"),
      RENAME_SEED,
      JSON_OUT('the comparison of the grades'),
    ],
    exit: '0 every grade unchanged, 1 some changed, 4 usage error.',
  },
  {
    name: 'publish',
    synopsis: ['publish RUN... --out DIR [--title T] [--base PATH] [--app DIR] [--json]', 'publish --check DIR [--concurrency N] [--json]'],
    purpose:
      'Writes a static site of runs that opens on its Results page, where every reader re-verifies each cell in the browser; --check re-verifies a published site here and prints the same per-cell verdicts (docs/publish.md).',
    args: [['RUN...', 'run directories, run files exported from the Runs page, or study directories (each cell that has a run)']],
    options: [
      OUT_RUN('the directory of the site (new or empty)'),
      { name: 'title', value: 'T', meaning: 'the title of the Results page', default: 'OSVLab results' },
      { name: 'base', value: 'PATH', meaning: "the absolute path the site is served under, e.g. /paper/ (index.html gets <base href>); the site's URLs are relative, so it works under any path without it" },
      { name: 'app', value: 'DIR', meaning: "the built app to copy (default dist/, made by npm run build; it must be a build of this checkout's verifier)" },
      { name: 'check', value: 'DIR', meaning: "re-verify the published site in DIR instead: each run's answers graded again, each cell reproduced or changed" },
      { ...WORKERS, range: { min: 1 }, meaning: `with --check: ${WORKERS.meaning}` },
      JSON_OUT('what was published, or the verdicts'),
    ],
    exit: '0 published, or every cell reproduced; 1 (--check) a cell changed, an answer altered or a run missing; 4 usage error (PUB001-PUB005, docs/cli-errors.md).',
  },
] as const satisfies readonly CommandDecl[];

/** The commands, in the order the overview lists them. */
export const COMMANDS: readonly CommandDecl[] = DECLARED;

/** A declared command's name. */
export type CommandName = (typeof DECLARED)[number]['name'];

// A Map, not an object: `osvlab constructor` must be an unknown command, not Object's constructor.
const BY_NAME = new Map<string, CommandDecl>(COMMANDS.map((c) => [c.name, c]));

/** The declaration of command `name`, or undefined for a name that is no command. */
export function findCommand(name: string): CommandDecl | undefined {
  return BY_NAME.get(name);
}

/** The declared options of command `name`, for its parser. */
export function declaredOptions(name: CommandName): readonly OptionDecl[] {
  return BY_NAME.get(name)!.options;
}

/** The declaration of command `name`, with its options' literal names, choices and defaults. */
type Declared<N extends CommandName> = Extract<(typeof DECLARED)[number], { readonly name: N }>;

/** A command's options as `optionsOf` types them. */
export type CommandOptions<N extends CommandName> = OptionValues<Declared<N>['options']>;

/** Command `name`'s options read from its parsed arguments, each as its declaration types it (`runOptionsOf` takes them so). */
export function commandOptions<N extends CommandName>(name: N, args: ParsedArgs): CommandOptions<N> {
  return optionsOf(declaredOptions(name), args) as CommandOptions<N>;
}

/**
 * Parses `argv` against command `name`'s declared options and reads each
 * one as its declaration types it: `options.budget` is a number in its
 * range, `options.feedback` one of its choices, `options.json` a boolean.
 */
export function parseCommand<N extends CommandName>(name: N, argv: readonly string[]): { args: ParsedArgs; options: CommandOptions<N> } {
  const args = parseArgs(argv, declaredOptions(name));
  return { args, options: commandOptions(name, args) };
}
