/**
 * `osvlab bench --corpus FILE` (options: declarations.ts): the cost of grading with lemmas on answers as models write them (perf/corpus/answers.jsonl,
 * docs/lemmas.md "Benchmarks"). FILE is the JSONL `osvlab grade` reads
 * (`{handler, response}` per line; a `made` label, if present, groups the
 * answers in the report). Every answer is graded twice in this one process,
 * without and with the lemma check, the order alternating from one answer
 * to the next so that neither side always meets the warmer caches (the
 * worker's start and each handler's implementation proof, which every
 * answer of the handler shares, are done untimed first). The lemma check is
 * the lemma grade's own (grade.ts, `strictChecker`), timed through its probe.
 * Prints the total of each side and their ratio, the lemma part of each
 * answer (p50, p90, max), and how many answers took each path of the strict
 * check. `--made` keeps the answers whose label starts with PREFIX,
 * `--limit` the first N. `--full` also runs, untimed by the totals, the full
 * check with nothing reused (no stored proof, known fact, kept model,
 * reachable state or subset query; caches of its own) on every answer that
 * passed refinement, and counts where its result differs from the strict
 * grade's: the shortcuts' soundness on the whole corpus, not the test's
 * sample (exit 1 on any). Where the time goes is printed by phase
 * (src/core/phases.ts: parsing the spec, running it, the C executor,
 * building terms, printing SMT-LIB, Z3 itself, reading models back, and the
 * rest) for each side and for the handlers' starts. Last, every answer is
 * graded once more without strict in a worker thread of the grading pool,
 * as `osvlab grade` grades it (cold: the worker's caches start empty; a
 * task_id line against its task, so with bug-following on a buggy variant), with
 * the worker's phases and the time the requests and answers spent between
 * the pool and the worker (IPC).
 */
import { extractSpec } from '../core/eval/grade/answer.ts';
import { type LemmaCheckRun, gradeResponse, handlerOnlyTask, strictChecker } from '../core/eval/grade/grade.ts';
import { parseAnswerFile } from '../core/eval/files/responses.ts';
import { loadTasks } from '../core/tasks/load.ts';
import { oracleSpec } from '../core/kernel/content.ts';
import { ascending, nearestRank } from '../core/quantile.ts';
import { HANDLERS } from '../core/kernel/handlers.ts';
import { warmUp } from '../core/smt/solver.ts';
import { oracleProofKey } from '../core/verify/declarative.ts';
import { verifyDeclarative } from '../core/verify/driver.ts';
import type { QueryInfo } from '../core/verify/fact-prover.ts';
import { VerifierCaches, type VerifyEnv, loadProgram, verify } from '../core/verify/index.ts';
import { STORED_PROOFS, storedProof } from '../core/verify/proof-cache.ts';
import { VERIFIER_VERSION } from '../core/version.ts';
import { PHASES, type PhaseTimes, phaseClock } from '../core/phases.ts';
import type { VerifierApi } from '../core/service/contract.ts';
import { WorkerPool } from '../core/pool/pool.ts';
import type { AnswerItem } from '../core/eval/files/responses.ts';
import { UsageError } from './args.ts';
import type { CommandOptions } from './declarations.ts';
import { RESPONSES_CAP, readInput } from './read-input.ts';
import { workerThread } from './node-pool.ts';
import { nodeEngine } from '../z3/node.ts';

/** The nearest-rank q-quantile of `xs` (core/quantile.ts); NaN when empty. */
const quantile = (xs: readonly number[], q: number): number => nearestRank(ascending(xs), q);

interface Row {
  readonly handler: string;
  readonly made: string;
  readonly category: string;
  /** Wall time of the grade without and with the lemma check (ms). */
  readonly plainMs: number;
  readonly strictMs: number;
  /** The lemma check alone (ms), when it ran (the answer passed refinement). */
  readonly strictPartMs?: number;
  /** How the lemma check went: identical, equivalent, full, spec-error. */
  readonly path?: string;
  readonly strict?: boolean;
  /** A model kept from an earlier answer refuted some fact (no solver query for it). */
  readonly kept?: true;
  /** A reachable state refuted some fact (state-bank.ts; no solver query for it). */
  readonly reachable?: true;
  /** Of the lemma part, the verdict's own queries (ms): see `verdictQueriesMs`. */
  readonly floorMs?: number;
  /** Queries without the instances (fact-prover.ts, `solveFromSubset`): asked, and how many proved their fact. */
  readonly subset?: { readonly asked: number; readonly proved: number };
  /** With `--full`: the full check's outcome (nothing reused) and its time (ms). */
  readonly full?: { readonly status: string; readonly ms: number };
}

/**
 * The solver time of the queries a strict verdict rests on (ms): for a step
 * that fails, the query (or kept model) that refuted its fact; for one that
 * holds, the proofs of the facts it does not share with the oracle's step or
 * an earlier one. No ordering of the facts and no reuse of what is known
 * removes them, only a cheaper query would: the rest of the lemma part
 * (comparing the steps, proofs asked before the failing fact, the spec's
 * run) is what a better pipeline could still save.
 */
function verdictQueriesMs(proved: boolean, queries: readonly QueryInfo[]): number {
  if (!proved) return queries.at(-1)?.ms ?? 0;
  return queries.filter((q) => q.status === 'unsat').reduce((a, q) => a + q.ms, 0);
}

function madeLabels(text: string): Map<number, string> {
  const out = new Map<number, string>();
  text.split('\n').forEach((l, i) => {
    try {
      const v = JSON.parse(l) as { made?: unknown };
      if (typeof v.made === 'string') out.set(i + 1, v.made);
    } catch {
      // parseResponses reports bad lines.
    }
  });
  return out;
}

/** Handlers whose committed oracle proof matches the verifier now. */
function currentProofs(caches: VerifierCaches): { current: number; oracles: number } {
  let current = 0;
  let oracles = 0;
  for (const h of HANDLERS) {
    if (!oracleSpec(h.name)) continue;
    oracles++;
    if (storedProof(h.name, oracleProofKey(caches, h.name)!)) current++;
  }
  return { current, oracles };
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What a row says about its lemma check. */
function strictRowPart(r: LemmaCheckRun): Pick<Row, 'strictPartMs' | 'path' | 'strict' | 'floorMs' | 'subset' | 'kept' | 'reachable'> {
  const d = r.check;
  const ok = d.status === 'proved';
  const lean = r.queries.filter((q) => q.subset);
  return {
    strictPartMs: r.ms,
    path: d.status === 'spec-error' ? 'spec-error' : d.path,
    strict: ok,
    floorMs: d.status === 'spec-error' ? 0 : verdictQueriesMs(ok, r.queries),
    subset: { asked: lean.length, proved: lean.filter((q) => q.status === 'unsat').length },
    ...(d.status !== 'spec-error' && (d.kept ?? 0) > 0 ? { kept: true as const } : {}),
    ...(r.queries.some((q) => q.reachable) ? { reachable: true as const } : {}),
  };
}

/** `osvlab bench --corpus FILE`: prints the rows and the summary, returns the exit code (1: the full check differs somewhere). */
export async function benchCorpus(file: string, o: CommandOptions<'bench'>): Promise<number> {
  const timeoutMs = o.budget;
  const limit = o.limit ?? Number.MAX_SAFE_INTEGER;
  const json = o.json;
  const text = await readInput(file, 'corpus', RESPONSES_CAP, 'decode');
  // As `osvlab grade` reads it: a {task_id} line against its task, a {handler} line against the correct kernel.
  const parsed = parseAnswerFile(text, await loadTasks(), handlerOnlyTask);
  if (parsed.problems.length) throw new UsageError(`${file}: ${parsed.problems.map((p) => `line ${p.line}: ${p.code} ${p.message}`).join('; ')}`);
  if (parsed.items.length === 0) throw new UsageError(`${file}: no answers`);
  const labels = madeLabels(text);
  const made = o.made;
  const items = parsed.items.filter((i) => made === undefined || (labels.get(i.line) ?? '').startsWith(made)).slice(0, limit);
  // One environment for the whole run, as a worker builds one.
  const env: VerifyEnv = { engine: await nodeEngine(), caches: new VerifierCaches() };
  // The full check's own caches: nothing the shortcut side learnt reaches it.
  const fullEnv: VerifyEnv | undefined = o.full ? { engine: env.engine, caches: new VerifierCaches() } : undefined;
  const proofs = currentProofs(env.caches);
  // The lemma grade's own check, seen through its probe: timed, with its path and queries.
  let last: LemmaCheckRun | undefined;
  const strictCheck = strictChecker(env, timeoutMs, { now: () => performance.now(), checked: (r) => (last = r) });
  /** The lemma check of the answer just graded, if it ran (only a pass gets one). */
  const takeCheck = (): LemmaCheckRun | undefined => {
    const r = last;
    last = undefined;
    return r;
  };
  const log = (s: string) => json || process.stdout.write(s);
  log(`corpus ${file}: ${items.length} answers over ${new Set(items.map((i) => i.task.handler)).size} handlers\n`);
  log(`verifier ${VERIFIER_VERSION}; committed lemma proofs current for ${proofs.current}/${proofs.oracles} oracles (file made by ${STORED_PROOFS.verifier})\n\n`);

  // A worker's start (Z3's threads, the parsed kernel) is not grading.
  await warmUp(env.engine);
  loadProgram(env.caches);
  const rows: Row[] = [];
  const warm = new Set<string>();
  const started = Date.now();
  const profile = { starts: new PhaseTotal(), plain: new PhaseTotal(), strict: new PhaseTotal() };
  phaseClock.start(() => performance.now());
  for (const [n, item] of items.entries()) {
    const task = handlerOnlyTask(item.task.handler);
    // Nor is the implementation's side of a handler, which a worker proves once
    // for all its answers: proved here untimed, so that the first answer of a
    // handler does not charge it to whichever side goes first.
    if (!warm.has(task.handler)) {
      warm.add(task.handler);
      const oracle = oracleSpec(task.handler);
      if (oracle) await profile.starts.add(() => verify({ handler: task.handler, spec: oracle, timeoutMs }, env));
    }
    const grade = async (strict: boolean) => {
      const t0 = performance.now();
      const g = await (strict ? profile.strict : profile.plain).add(() => gradeResponse(task, item.response, { ...env, timeoutMs, ...(strict ? { strictCheck } : {}) }));
      return { g, ms: performance.now() - t0 };
    };
    const [first, second] = n % 2 === 0 ? [false, true] : [true, false];
    const a = await grade(first);
    const b = await grade(second);
    const [plain, strict] = first ? [b, a] : [a, b];
    const seen = takeCheck();
    let full: Row['full'];
    if (fullEnv && seen) {
      const t0 = performance.now();
      const d = await verifyDeclarative({ handler: task.handler, spec: seen.spec }, fullEnv, timeoutMs, { reuse: false });
      full = { status: d.status, ms: performance.now() - t0 };
    }
    const row: Row = {
      handler: task.handler,
      made: labels.get(item.line) ?? '',
      category: strict.g.category,
      plainMs: plain.ms,
      strictMs: strict.ms,
      ...(seen ? strictRowPart(seen) : {}),
      ...(full ? { full } : {}),
    };
    rows.push(row);
    log(
      `${String(n + 1).padStart(4)} ${row.handler.padEnd(24)} ${row.made.padEnd(40)} ${row.category.padEnd(8)} ${String(Math.round(row.plainMs)).padStart(6)} ${String(Math.round(row.strictMs)).padStart(6)} ms` +
        (row.strictPartMs !== undefined ? `  lemmas ${row.strict ? 'yes' : 'no '} ${String(Math.round(row.strictPartMs)).padStart(6)} ms ${row.path}${row.kept ? ' (kept model)' : ''}${row.reachable ? ' (reachable state)' : ''}` : '') +
        (row.full ? `  full ${row.full.status} ${Math.round(row.full.ms)} ms${disagrees(row) ? ' DIFFERS' : ''}` : '') +
        '\n',
    );
  }
  phaseClock.stop();
  const summary = summarise(rows);
  const inProcess = { starts: profile.starts.value(), plain: profile.plain.value(), strict: profile.strict.value() };
  log('\ngrading each answer once more without strict, in a worker thread of the grading pool...\n');
  const worker = await throughWorker(items, timeoutMs);
  const phases = { ...inProcess, worker };
  if (json) process.stdout.write(`${JSON.stringify({ file, verifier: VERIFIER_VERSION, proofs, wallMs: Date.now() - started, rows, summary, phases })}\n`);
  else process.stdout.write(`\n${table(summary, proofs)}\n\n${phaseTable(phases)}\n`);
  return summary.full && summary.full.differs.length ? 1 : 0;
}

/** Milliseconds since the epoch, comparable with a worker thread's `now` (serve.ts). */
const epochNow = (): number => performance.timeOrigin + performance.now();

/**
 * Grades `items` without strict, one after the other, in one worker thread
 * of the grading pool (node-pool.ts), as `osvlab grade` sends them: the
 * worker's phases, and the time each request took to reach the worker and
 * each answer to come back (`ipc`, with `send` and `back` apart). The worker
 * is started (Z3 loaded, the kernel parsed) before the clock starts.
 */
async function throughWorker(items: readonly AnswerItem[], timeoutMs: number): Promise<PhaseProfile & { readonly send: number; readonly back: number }> {
  const pool = new WorkerPool<VerifierApi>({ spawn: workerThread, size: 1, init: (api) => api.init() });
  const call = async <T>(run: (api: VerifierApi) => Promise<T>, affinity?: string): Promise<T> => {
    const o = await pool.submit(run, { affinity });
    if (o.kind !== 'done') throw new Error(`the benchmark's worker did not answer: ${o.kind === 'failed' || o.kind === 'crashed' ? o.message : o.kind}`);
    return o.value;
  };
  try {
    await call((api) => api.clock(true));
    const sent: { sent: number; got: number }[] = [];
    for (const item of items) {
      // As osvlab grade grades it: a task_id line against its task (bug-following on a buggy variant).
      const task = item.task;
      // Read where the CLI reads it (core/eval/session/grading.ts); an answer without code is sent as an empty spec.
      const spec = extractSpec(item.response) ?? '';
      let at = 0;
      await call((api) => {
        at = epochNow();
        return api.grade(task, spec, { timeoutMs, strict: false });
      }, task.handler);
      sent.push({ sent: at, got: epochNow() });
    }
    const measured = await call((api) => api.clock(false));
    if (measured.requests.length !== sent.length) throw new Error(`the worker timed ${measured.requests.length} requests, not ${sent.length}`);
    let send = 0;
    let back = 0;
    let wall = 0;
    sent.forEach((s, i) => {
      const r = measured.requests[i];
      send += r.arrived - s.sent;
      back += s.got - r.answered;
      wall += s.got - s.sent;
    });
    const phased = PHASES.reduce((a, p) => a + measured.phases[p], 0);
    return { jobs: sent.length, wall, ...measured.phases, ipc: send + back, send, back, other: Math.max(0, wall - phased - send - back) };
  } finally {
    await pool.dispose();
  }
}

/** Wall time and time by phase (ms) summed over jobs; `ipc` the time between the pool and a worker (none in this process); `other` is what no phase took. */
interface PhaseProfile extends PhaseTimes {
  readonly jobs: number;
  readonly wall: number;
  readonly ipc: number;
  readonly other: number;
}

/** Sums the phase clock's time over jobs (the clock runs throughout; each job's share is what it added). */
class PhaseTotal {
  private jobs = 0;
  private wall = 0;
  private readonly times = Object.fromEntries(PHASES.map((p) => [p, 0])) as PhaseTimes;

  async add<T>(job: () => Promise<T>): Promise<T> {
    const before = phaseClock.read();
    const t0 = performance.now();
    try {
      return await job();
    } finally {
      this.wall += performance.now() - t0;
      this.jobs++;
      const after = phaseClock.read();
      for (const p of PHASES) this.times[p] += after[p] - before[p];
    }
  }

  value(): PhaseProfile {
    const phased = PHASES.reduce((a, p) => a + this.times[p], 0);
    return { jobs: this.jobs, wall: this.wall, ...this.times, ipc: 0, other: Math.max(0, this.wall - phased) };
  }
}

/** The phase profile: one line per side, seconds per phase and each phase's share of the wall time. */
function phaseTable(phases: Record<'starts' | 'plain' | 'strict', PhaseProfile> & { readonly worker: PhaseProfile & { readonly send: number; readonly back: number } }): string {
  const names: Record<keyof typeof phases, string> = { starts: "handlers' starts", plain: 'grade without strict', strict: 'grade with strict', worker: 'in a worker, no strict' };
  const cols = [...PHASES, 'ipc', 'other'] as const;
  const head = `${'where the time goes (s)'.padEnd(26)} ${'wall'.padStart(7)} ${cols.map((c) => c.padStart(13)).join(' ')}`;
  const line = (k: keyof typeof phases) => {
    const p = phases[k];
    const cell = (ms: number) => `${(ms / 1000).toFixed(2)} ${p.wall > 0 ? `${Math.round((100 * ms) / p.wall)}%`.padStart(4) : ''}`.padStart(13);
    return `${`${names[k]} (${p.jobs})`.padEnd(26)} ${(p.wall / 1000).toFixed(2).padStart(7)} ${cols.map((c) => (c === 'ipc' && k !== 'worker' ? '-'.padStart(13) : cell(p[c]))).join(' ')}`;
  };
  const w = phases.worker;
  const each = (ms: number) => `${(ms / Math.max(1, w.jobs)).toFixed(2)} ms each`;
  return [
    head,
    line('starts'),
    line('plain'),
    line('strict'),
    line('worker'),
    `(in a worker: ipc is ${(w.send / 1000).toFixed(2)} s from the pool's hand-over to the worker's start of a request, ${each(w.send)}, and ${(w.back / 1000).toFixed(2)} s from its answer to the pool, ${each(w.back)}; the worker's handlers' starts are in its phases)`,
    "(parse: the spec's text; spec: running it; c: the kernel's parse and the handler's symbolic run; terms: obligations, facts and their instances; smtlib: printing queries; solver: Z3 itself; replay: reading models back; ipc: between the pool and its worker; other: the rest)",
  ].join('\n');
}

/** The full check came to a result (not a timeout or an unknown). */
const decided = (status: string): boolean => status === 'proved' || status === 'failed' || status === 'spec-error';

/** The full check decided, and its result is not the grade with lemmas'. */
const disagrees = (r: Row): boolean => r.full !== undefined && decided(r.full.status) && (r.full.status === 'proved') !== r.strict;

interface Part {
  readonly answers: number;
  readonly p50: number;
  readonly p90: number;
  readonly max: number;
  readonly total: number;
}

function part(xs: readonly number[]): Part {
  return { answers: xs.length, p50: quantile(xs, 0.5), p90: quantile(xs, 0.9), max: xs.length ? Math.max(...xs) : NaN, total: xs.reduce((a, b) => a + b, 0) };
}

interface Summary {
  readonly answers: number;
  readonly plain: Part;
  readonly strict: Part;
  /** Total with strict over total without. */
  readonly ratio: number;
  readonly strictPart: Part;
  readonly paths: Record<string, number>;
  readonly strictResults: { readonly yes: number; readonly no: number };
  /** Answers whose lemma check a kept model settled in part. */
  readonly kept: number;
  /** Answers whose lemma check a reachable state settled. */
  readonly reachable: number;
  /** The verdicts' own queries over all answers (ms, `verdictQueriesMs`), and the ratio if they were all of the lemma part. */
  readonly floor: { readonly total: number; readonly ratio: number };
  /** Queries without the instances over all answers, and how many proved their fact. */
  readonly subset: { readonly asked: number; readonly proved: number };
  /** The lemma part by the first word of each answer's `made` label. */
  readonly byKind: Record<string, Part & { readonly strictYes: number }>;
  /** With `--full`: the full checks' time, the answers they did not decide, and those where they differ from the grade with lemmas. */
  readonly full?: { readonly answers: number; readonly total: number; readonly undecided: number; readonly differs: readonly string[] };
}

function summarise(rows: readonly Row[]): Summary {
  const checked = rows.filter((r) => r.strictPartMs !== undefined);
  const paths: Record<string, number> = {};
  for (const r of checked) paths[r.path!] = (paths[r.path!] ?? 0) + 1;
  const byKind: Summary['byKind'] = {};
  for (const kind of [...new Set(checked.map((r) => r.made.split(':')[0] || '-'))].sort()) {
    const of = checked.filter((r) => (r.made.split(':')[0] || '-') === kind);
    byKind[kind] = { ...part(of.map((r) => r.strictPartMs!)), strictYes: of.filter((r) => r.strict).length };
  }
  const plain = part(rows.map((r) => r.plainMs));
  const strict = part(rows.map((r) => r.strictMs));
  const floor = checked.reduce((a, r) => a + (r.floorMs ?? 0), 0);
  const fulls = checked.filter((r) => r.full);
  return {
    answers: rows.length,
    plain,
    strict,
    ratio: strict.total / plain.total,
    strictPart: part(checked.map((r) => r.strictPartMs!)),
    paths,
    strictResults: { yes: checked.filter((r) => r.strict).length, no: checked.filter((r) => !r.strict).length },
    kept: checked.filter((r) => r.kept).length,
    reachable: checked.filter((r) => r.reachable).length,
    floor: { total: floor, ratio: (plain.total + floor) / plain.total },
    subset: { asked: checked.reduce((a, r) => a + (r.subset?.asked ?? 0), 0), proved: checked.reduce((a, r) => a + (r.subset?.proved ?? 0), 0) },
    byKind,
    ...(fulls.length
      ? {
          full: {
            answers: fulls.length,
            total: fulls.reduce((a, r) => a + r.full!.ms, 0),
            undecided: fulls.filter((r) => !decided(r.full!.status)).length,
            differs: fulls.filter(disagrees).map((r) => `${r.handler} ${r.made}`.trim()),
          },
        }
      : {}),
  };
}

function table(s: Summary, proofs: { current: number; oracles: number }): string {
  // No answers in a part (none passed refinement): no quantiles to print.
  const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : '-');
  const line = (name: string, p: Part) => `${name.padEnd(22)} ${secs(p.total).padStart(9)}   p50 ${ms(p.p50).padStart(8)}   p90 ${ms(p.p90).padStart(8)}   max ${ms(p.max).padStart(9)}   (${p.answers} answers)`;
  return [
    line('grade without strict', s.plain),
    line('grade with strict', s.strict),
    line('lemma part', s.strictPart),
    `strict / no-strict: ${s.ratio.toFixed(2)}x (totals over ${s.answers} answers)`,
    `of the lemma part, ${secs(s.floor.total)} is the verdicts' own queries (each failing step's refutation, each passing one's proofs of the facts it changes); with only those, ${s.floor.ratio.toFixed(2)}x`,
    `queries without the instances (the oracle's fact beside the goal): ${s.subset.asked} asked, ${s.subset.proved} proved their fact`,
    `strict paths: ${Object.entries(s.paths).map(([k, v]) => `${k} ${v}`).join(', ')}; strict holds for ${s.strictResults.yes}, not for ${s.strictResults.no}; a model kept from an earlier answer settled ${s.kept}, a reachable state ${s.reachable}`,
    ...Object.entries(s.byKind).map(([k, p]) => `  ${line(k, p)}, strict holds for ${p.strictYes}`),
    ...(s.full
      ? [
          `full check, nothing reused: ${secs(s.full.total)} over ${s.full.answers} answers (${(s.full.total / s.strictPart.total).toFixed(1)}x the lemma part); ` +
            `${s.full.undecided} undecided; differs from the grade with lemmas on ${s.full.differs.length}${s.full.differs.length ? `: ${s.full.differs.join(', ')}` : ''}`,
        ]
      : []),
    `committed lemma proofs current: ${proofs.current}/${proofs.oracles}`,
  ].join('\n');
}
