/**
 * The help text of each `osvlab` command, printed by `osvlab <command> --help`,
 * `osvlab <command> -h` and `osvlab help <command>`: its synopsis, what it is
 * for, its arguments, every option it knows with its value and default, and
 * its exit codes. The options are those of the command's `parseArgs` spec;
 * test/cli/help.test.ts checks that the text documents exactly those, so an
 * option added to a command without a line here fails the tests. What the
 * options mean is described in docs/cli-errors.md (the limits every command
 * shares), docs/scale.md (shards, merge, compare, budgets),
 * docs/research.md (feedback, prompt variants, studies), docs/providers.md
 * (providers, sampling parameters, keys) and docs/lemmas.md.
 */
import { DEFAULT_GRADE_TIMEOUT_MS } from '../core/eval/grade/grade-types.ts';
import { DEFAULT_PROMPT_VARIANT, PROMPT_VARIANTS } from '../core/eval/prompt/variants.ts';
import { DEFAULT_FEEDBACK, FEEDBACK_MODES } from '../core/eval/session/config.ts';
import { PROVIDER_KINDS, REASONING_EFFORTS } from '../core/llm/types.ts';
import { MAX_TIME_LIMIT_MS } from './args.ts';

interface Help {
  /** Each form of the command line, after `osvlab `. */
  readonly synopsis: readonly string[];
  /** What the command is for, in a sentence. */
  readonly purpose: string;
  /** Positional arguments: [name as in the synopsis, meaning]. */
  readonly args?: readonly (readonly [string, string])[];
  /** Every option: [`--name VALUE` or `--flag`, meaning]. */
  readonly options: readonly (readonly [string, string])[];
  /** Anything else a user must know (where the key comes from). */
  readonly notes?: string;
  readonly exit: string;
}

/** "a, b or c", each in the order given. */
const choices = (xs: readonly string[]): string => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`);

/** "a (default), b or c": the choices with the default marked. */
const withDefault = (xs: readonly string[], fallback: string): string => choices(xs.map((x) => (x === fallback ? `${x} (default)` : x)));

const LIMIT = `1 to ${MAX_TIME_LIMIT_MS} ms`;
const SPEC = ['--spec FILE', 'the spec to check, a Python file in the spec dialect (- reads standard input); give --spec or --oracle'] as const;
const ORACLE = ['--oracle', "check the handler's reference spec instead of a file"] as const;
const JSON_OUT = (what: string) => ['--json', `print ${what} as JSON`] as const;
const SHARD = (what: string) => ['--shard K/N', `${what} (K counts from 1); env takes K as one more than JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, and N from OSVLAB_SHARD_TOTAL or SLURM_ARRAY_TASK_COUNT (docs/scale.md)`] as const;
const NO_STRICT = ['--no-strict', 'skip the declarative checks (strict) on passing answers; they run by default'] as const;
const MATRIX = ['--matrix', "also record each first answer's verdict on all five variants of its handler (the variant matrix, which report counts)"] as const;
const REQUEST_TIMEOUT = ['--request-timeout MS', `time limit of each request to the provider, ${LIMIT} (default 600000, 10 minutes)`] as const;
const WORKERS = 'verifier worker threads (default one per core; at most two per core and one per GiB of memory)';
const KEY = "The API key comes from the environment, never from a flag: OSVLAB_API_KEY, or the provider's own variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY), which is sent only to that provider's own host (docs/providers.md).";

const HELP = new Map<string, Help>([
  [
    'verify',
    {
      synopsis: ['verify <handler> (--spec FILE | --oracle) [--impl FILE | --variant ID] [--timeout MS] [--strict] [--json]'],
      purpose: "Proves or refutes that a spec refines one handler of the kernel, and prints the verdict (with a counterexample when refuted).",
      args: [['<handler>', 'the handler (system call) to check, e.g. sys_dup']],
      options: [
        SPEC,
        ORACLE,
        ['--impl FILE', "a C file whose functions replace the kernel's (- reads standard input); it must define at least one"],
        ['--variant ID', 'check against the implementation of benchmark task ID, a variant of the same handler (osvlab tasks lists them); at most one of --impl and --variant'],
        ['--timeout MS', `wall-clock budget of the whole check, ${LIMIT} (default 120000)`],
        ['--strict', 'also run the declarative checks: the spec invariants and the lemmas (docs/lemmas.md)'],
        JSON_OUT('the verdict'),
      ],
      exit: '0 verified, 1 refuted, 2 spec error or bad C (docs/c-errors.md), 3 timeout or unknown, 4 usage or internal error.',
    },
  ],
  [
    'lemmas',
    {
      synopsis: ['lemmas <handler> (--spec FILE | --oracle) [--only NAMES] [--full] [--timeout MS] [--json]'],
      purpose: "Runs the declarative checks of a handler's spec alone: each spec invariant preserved and each lemma, with its verdict.",
      args: [['<handler>', 'the handler whose spec is checked, e.g. sys_alloc_pt']],
      options: [
        SPEC,
        ORACLE,
        ['--only NAMES', 'check only these lemmas (comma-separated names; an unknown one is refused with the list)'],
        ['--full', "prove everything again; by default a spec whose step is the oracle's reuses the oracle's proof (docs/lemmas.md)"],
        ['--timeout MS', `solver time limit of each query, ${LIMIT} (default 20000)`],
        JSON_OUT('the results'),
      ],
      exit: '0 all proved, 1 some failed, 2 spec error, 3 timeout or unknown, 4 usage error.',
    },
  ],
  [
    'tasks',
    {
      synopsis: ['tasks [--json | --format osvbench]'],
      purpose: 'Lists the benchmark tasks: id, number of injected bugs and bug classes.',
      options: [
        ['--json', 'print every task as one JSON array of task objects (tasks/README.md)'],
        ['--format osvbench', "print the tasks as OSVBench's benchmark.json, for OSVBench's own harness (docs/osvbench.md); osvbench is the only format"],
      ],
      exit: '0 listed, 4 usage error or no tasks.',
    },
  ],
  [
    'task',
    {
      synopsis: ['task show <id> [--json]'],
      purpose: 'Shows one task: its header, description, the code shown to the model, where the injected bugs are and the override the verifier links.',
      args: [
        ['show', 'the only subcommand'],
        ['<id>', 'a task id, e.g. sys_dup-v1 (osvlab tasks lists them)'],
      ],
      options: [JSON_OUT('the task object')],
      exit: '0 shown, 4 usage error or no such task.',
    },
  ],
  [
    'prompt',
    {
      synopsis: ['prompt <task-id> [--shots N] [--prompt VARIANT] [--stats] [--json]', 'prompt --stats --all [--shots N] [--json]'],
      purpose: 'Prints the benchmark prompt of one task, or its size in tokens; with --stats --all, prompt sizes over all tasks.',
      args: [['<task-id>', 'a task id, e.g. sys_dup-v1']],
      options: [
        ['--shots N', 'worked examples in the prompt (default 5; with --all, each of 0, 1, 3, 5, 7 and 9 unless given)'],
        ['--prompt VARIANT', `prompt variant (not with --all): ${withDefault(PROMPT_VARIANTS, DEFAULT_PROMPT_VARIANT)} (docs/research.md)`],
        ['--stats', "print the prompt's size in tokens (o200k tokenizer), per message, instead of its text"],
        ['--all', 'with --stats: token statistics over all tasks, per shot count (median, p10, p90, ...)'],
        JSON_OUT('the prompt or its statistics'),
      ],
      exit: '0 printed, 4 usage error.',
    },
  ],
  [
    'bench',
    {
      synopsis: ['bench [--handlers NAMES] [--runs N] [--lemmas [--full]] [--timeout MS] [--json]', 'bench --corpus FILE [--made PREFIX] [--limit N] [--full] [--timeout MS] [--json]'],
      purpose: "Times the cold verification of every handler's oracle spec; with --corpus, times grading a corpus of answers without and with the strict check.",
      options: [
        ['--handlers NAMES', 'time only these handlers (comma-separated; default all)'],
        ['--runs N', 'runs per handler, of which the median is reported (default 3)'],
        ['--lemmas', 'also time the declarative checks as strict grading runs them, and their ratio to refinement'],
        ['--full', 'with --lemmas: also time the full declarative check, no proof reused; with --corpus: also run it on every answer that passed refinement and count where it differs from the strict grade'],
        ['--timeout MS', `time limit, ${LIMIT} (default 60000): of each verification or graded answer, and of each query of the declarative checks`],
        ['--corpus FILE', 'grade the answers of FILE (JSONL as osvlab grade reads it, e.g. perf/corpus/answers.jsonl) twice each, without and with the strict check (docs/lemmas.md)'],
        ['--made PREFIX', "with --corpus: only the answers whose made label starts with PREFIX"],
        ['--limit N', 'with --corpus: only the first N answers'],
        JSON_OUT('the rows and the summary'),
      ],
      exit: '0 done, 1 some oracle not verified or some lemma not proved (with --corpus --full: some full check differs from the strict grade), 4 usage error.',
    },
  ],
  [
    'grade',
    {
      synopsis: ['grade --responses FILE [--out DIR] [--shard K/N] [--model NAME] [--name NAME] [--concurrency N] [--timeout MS] [--no-strict] [--matrix] [--json]'],
      purpose: 'Grades answers obtained elsewhere with the verifier, and prints one line per answer and a summary.',
      options: [
        ['--responses FILE', 'the answers (required; - reads standard input): JSONL with {"task_id", "response"} or {"handler", "response"} per line, or an OSVBench results file'],
        ['--out DIR', 'also write the grades as a run directory, which osvlab report reads; rerunning with the same DIR keeps what it already graded'],
        SHARD('grade part K of N of the answers, split by (task, sample) as a run is'),
        ['--model NAME', "the model name the run records (default the file's name without its extension)"],
        ['--name NAME', 'a label for the run (compare shows it in place of the run id)'],
        ['--concurrency N', WORKERS],
        ['--timeout MS', `time limit of each answer's check, refinement then strict with what is left, ${LIMIT} (default ${DEFAULT_GRADE_TIMEOUT_MS})`],
        NO_STRICT,
        MATRIX,
        JSON_OUT('the results, the bad lines and the summary'),
      ],
      exit: '0 every line graded, 2 some lines were bad input (the others are graded), 4 usage error.',
    },
  ],
  [
    'run',
    {
      synopsis: ['run --provider P --model M [--base-url URL] [--tasks SEL] [--n N] [--shots K] [--repair R] [--out DIR] [options]'],
      purpose: "Evaluates a model on the benchmark: asks it for each task's spec, grades every answer, runs the repair rounds, keeps everything in a run directory and prints its report; rerunning the same command resumes.",
      options: [
        ['--provider P', `the provider kind: ${choices(PROVIDER_KINDS)} (required)`],
        ['--model M', "the provider's model id (required)"],
        ['--base-url URL', "the provider's endpoint, http:// or https:// (default its own); required for openai-compatible, e.g. http://localhost:11434/v1"],
        ['--tasks SEL', 'which tasks: all (default), first:N, handler:NAME or task ids, comma-separated'],
        ['--n N', 'samples per task (default 1)'],
        ['--shots K', 'worked examples in the prompt (default 5)'],
        ['--repair R', 'repair rounds after a failed answer (default 0)'],
        ['--feedback MODE', `what a repair round tells the model: ${withDefault(FEEDBACK_MODES, DEFAULT_FEEDBACK)} (docs/research.md)`],
        ['--prompt VARIANT', `prompt variant: ${withDefault(PROMPT_VARIANTS, DEFAULT_PROMPT_VARIANT)} (docs/research.md)`],
        ['--out DIR', 'the run directory (default .osvlab/runs/MODEL-ID, with -shard-K-of-N for a shard)'],
        ['--name NAME', 'a label for the run (compare shows it in place of the run id)'],
        ['--concurrency C', 'requests in flight at most (default 4; fewer while the provider rate-limits)'],
        ['--grade-concurrency G', 'verifier worker threads grading the answers (default 2)'],
        ['--temperature T', 'sampling temperature; this and the next four are sent only when given (docs/providers.md)'],
        ['--top-p P', 'nucleus sampling top_p'],
        ['--max-tokens N', "the cap on each answer's tokens"],
        ['--seed S', 'sampling seed'],
        ['--reasoning-effort E', `reasoning effort: ${choices(REASONING_EFFORTS)}`],
        ['--extract MODE', "how the code is taken from an answer: osvlab (default; the reasoning dropped first) or osvbench (exactly as OSVBench's harness does; docs/providers.md)"],
        ['--timeout MS', `time limit of each grade, ${LIMIT} (default ${DEFAULT_GRADE_TIMEOUT_MS})`],
        REQUEST_TIMEOUT,
        NO_STRICT,
        MATRIX,
        SHARD('do part K of N of the run, split by (task, sample)'),
        ['--max-cost USD', 'stop before a request that could take the cost past USD; needs --max-tokens (docs/scale.md)'],
        ['--max-total-tokens N', 'stop before a request that could take the tokens in and out past N; needs --max-tokens'],
        ['--price IN/OUT', "USD per million input and output tokens, in place of the price table's, for the budget and the recorded costs"],
        JSON_OUT('the report'),
      ],
      notes: KEY,
      exit: '0 done, 3 cancelled or incomplete (rerun to resume), 4 failed or usage error.',
    },
  ],
  [
    'report',
    {
      synopsis: ['report DIR [--benchmark FILE] [--json]'],
      purpose: "Prints the metrics of a run directory: pass@k, rates by category, OSVBench's three categories, and tables by bug class, bug count and handler.",
      args: [['DIR', 'a run directory (made by run, grade --out, merge or regrade --out)']],
      options: [
        ['--benchmark FILE', "OSVBench's benchmark.json (upstream's, or osvlab tasks --format osvbench): adds the table by OSVBench bug class"],
        JSON_OUT('the report'),
      ],
      exit: '0 reported (a damaged directory gives a report marked partial), 4 usage error or no run.',
    },
  ],
  [
    'merge',
    {
      synopsis: ['merge DIR|FILE... --out DIR [--export FILE] [--allow-incomplete] [--json]'],
      purpose: 'Combines the shards of a run (made with --shard K/N) into one run directory (docs/scale.md).',
      args: [['DIR|FILE...', 'the shards: run directories, or run files exported from the Runs page']],
      options: [
        ['--out DIR', 'the directory of the merged run (required; new or empty)'],
        ['--export FILE', 'also write the merged run as a run file, which the Runs page imports'],
        ['--allow-incomplete', 'merge shards that are not finished too (refused otherwise, MERGE007)'],
        JSON_OUT('the summary'),
      ],
      exit: '0 merged, 2 refused (MERGE001-MERGE007) or merged without damaged lines, 4 usage error.',
    },
  ],
  [
    'compare',
    {
      synopsis: ['compare A B [--seed S] [--resamples R] [--json]'],
      purpose: 'Compares two runs task by task: flips, the pass@1 difference B - A with a paired bootstrap 95% interval and an exact McNemar test, also by bug class and bug count (docs/scale.md).',
      args: [['A B', 'two runs: run directories or run files']],
      options: [
        ['--seed S', 'seed of the bootstrap resampling (default osvlab-compare)'],
        ['--resamples R', 'bootstrap resamples (default 10000, at least 100)'],
        JSON_OUT('the comparison'),
      ],
      exit: '0 compared, 4 usage error.',
    },
  ],
  [
    'study',
    {
      synopsis: ['study FILE.json [--out DIR] [--shard K/N] [--request-timeout MS] [--json]', 'study FILE.json --report [--out DIR] [--json]', 'study FILE.json --merge DIR... [--out DIR] [--json]'],
      purpose: "Runs a study's grid of configurations as one resumable job, one run per cell, and prints the study report (docs/research.md).",
      args: [
        ['FILE.json', 'the study file'],
        ['DIR...', 'with --merge: the shard study directories'],
      ],
      options: [
        ['--out DIR', 'the study directory (default .osvlab/studies/NAME-ID; a shard writes DIR-shard-K-of-N)'],
        SHARD('run part K of N of every cell'),
        ['--report', 'only print the report of what the study directory holds'],
        ['--merge', 'put the shard study directories named after FILE.json together, cell by cell, into the study directory'],
        REQUEST_TIMEOUT,
        JSON_OUT('the study report'),
      ],
      notes: KEY,
      exit: '0 done, 2 a bad study file, 3 cancelled or incomplete (rerun to resume), 4 failed or usage error.',
    },
  ],
  [
    'regrade',
    {
      synopsis: ['regrade DIR|FILE [--out DIR] [--concurrency N] [--json]'],
      purpose: "Grades every stored answer of a run again with this verifier and the run's own grading settings, and lists each grade that changed.",
      args: [['DIR|FILE', 'a run directory, an exported run file, or an answers file (JSONL or OSVBench results; its answers count as new)']],
      options: [
        ['--out DIR', 'write the re-verified run to a new run directory'],
        ['--concurrency N', WORKERS],
        JSON_OUT('the comparison of the grades'),
      ],
      exit: '0 every grade unchanged, 1 some changed, 4 usage error.',
    },
  ],
  [
    'publish',
    {
      synopsis: ['publish RUN... --out DIR [--title T] [--base PATH] [--app DIR] [--json]', 'publish --check DIR [--concurrency N] [--json]'],
      purpose:
        'Writes a static site of runs that opens on its Results page, where every reader re-verifies each cell in the browser; --check re-verifies a published site here and prints the same per-cell verdicts (docs/publish.md).',
      args: [['RUN...', 'run directories, run files exported from the Runs page, or study directories (each cell that has a run)']],
      options: [
        ['--out DIR', 'the directory of the site (new or empty)'],
        ['--title T', 'the title of the Results page (default "OSVLab results")'],
        ['--base PATH', "the absolute path the site is served under, e.g. /paper/ (index.html gets <base href>); the site's URLs are relative, so it works under any path without it"],
        ['--app DIR', 'the built app to copy (default dist/, made by npm run build; it must be a build of this checkout\'s verifier)'],
        ['--check DIR', "re-verify the published site in DIR instead: each run's answers graded again, each cell reproduced or changed"],
        ['--concurrency N', `with --check: ${WORKERS}`],
        JSON_OUT('what was published, or the verdicts'),
      ],
      exit: '0 published, or every cell reproduced; 1 (--check) a cell changed, an answer altered or a run missing; 4 usage error (PUB001-PUB005, docs/cli-errors.md).',
    },
  ],
]);

const WIDTH = 80;

/** `words` in lines of at most WIDTH characters, each after `indent` (the first after `first`, when given). */
function wrap(words: readonly string[], indent: string, first = indent): string[] {
  const lines: string[] = [];
  let line = first;
  let fresh = true;
  for (const w of words) {
    if (!fresh && line.length + 1 + w.length > WIDTH) {
      lines.push(line);
      line = indent;
      fresh = true;
    }
    line += fresh ? w : ` ${w}`;
    fresh = false;
  }
  lines.push(line);
  return lines;
}

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** A synopsis in pieces that stay on one line: words outside brackets, bracketed groups whole. */
function groups(synopsis: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of synopsis) {
    if (ch === ' ' && depth === 0) {
      if (cur) out.push(cur);
      cur = '';
      continue;
    }
    if (ch === '[' || ch === '(') depth++;
    if (ch === ']' || ch === ')') depth--;
    cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

/** Name-and-meaning rows: the meaning beside the name, or under it when the name is long. */
function table(rows: readonly (readonly [string, string])[]): string[] {
  const col = Math.min(24, Math.max(...rows.map(([k]) => k.length)) + 2);
  const indent = ' '.repeat(2 + col);
  return rows.flatMap(([k, v]) => {
    const head = `  ${k}`;
    if (head.length + 2 > indent.length) return [head, ...wrap(words(v), indent)];
    return wrap(words(v), indent, head.padEnd(indent.length));
  });
}

function render(h: Help): string {
  const out: string[] = [];
  h.synopsis.forEach((s, i) => {
    const [name, ...rest] = groups(s);
    const first = `${i === 0 ? 'usage: ' : '       '}osvlab ${name} `;
    out.push(...wrap(rest, ' '.repeat(first.length), first));
  });
  out.push('', ...wrap(words(h.purpose), ''));
  if (h.args?.length) out.push('', 'arguments:', ...table(h.args));
  out.push('', 'options:', ...table(h.options));
  if (h.notes) out.push('', ...wrap(words(h.notes), ''));
  out.push('', ...wrap(words(`exit codes: ${h.exit}`), ''));
  return `${out.map((l) => l.trimEnd()).join('\n')}\n`;
}

/** The help text of command `name`, or undefined for a name that is no command. */
export function commandHelp(name: string): string | undefined {
  const h = HELP.get(name);
  return h ? render(h) : undefined;
}
