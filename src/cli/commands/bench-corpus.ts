/**
 * `osvlab bench --corpus FILE [--timeout MS] [--limit N] [--json]`: the cost of
 * strict grading on answers as models write them (perf/corpus/answers.jsonl,
 * docs/lemmas.md "Benchmarks"). FILE is the JSONL `osvlab grade` reads
 * (`{handler, response}` per line; a `made` label, if present, groups the
 * answers in the report). Every answer is graded twice in this one process,
 * without and with the strict check, the order alternating from one answer
 * to the next so that neither side always meets the warmer caches (the
 * worker's start and each handler's implementation proof, which every
 * answer of the handler shares, are done untimed first). Prints
 * the total of each side and their ratio, the strict part of each answer
 * (p50, p90, max), and how many answers took each path of the strict check.
 */
import { handlerOnlyTask } from '../../core/eval/grade/grade.ts';
import { gradeResponse } from '../../core/eval/grade/grade.ts';
import { DEFAULT_GRADE_TIMEOUT_MS } from '../../core/eval/grade/grade-types.ts';
import { oracleSpec } from '../../core/kernel/content.ts';
import { HANDLERS } from '../../core/kernel/handlers.ts';
import { declarativeCheck } from '../../core/verify/driver.ts';
import { oracleProofKey } from '../../core/verify/declarative.ts';
import { loadProgram, verify } from '../../core/verify/index.ts';
import { warmUp } from '../../core/smt/solver.ts';
import { STORED_PROOFS, storedProof } from '../../core/verify/proof-cache.ts';
import { VERIFIER_VERSION } from '../../core/version.ts';
import { UsageError, intOption, type ParsedArgs } from '../args.ts';
import { parseResponses } from './grade.ts';
import { RESPONSES_CAP, readInput } from '../read-input.ts';
import { nodeEngine } from '../z3-node.ts';
import { quantile } from './bench.ts';

interface Row {
  readonly handler: string;
  readonly made: string;
  readonly category: string;
  /** Wall time of the grade without and with the strict check (ms). */
  readonly plainMs: number;
  readonly strictMs: number;
  /** The strict check alone (ms), when it ran (the answer passed refinement). */
  readonly strictPartMs?: number;
  /** How the strict check went: identical, equivalent, full, spec-error. */
  readonly path?: string;
  readonly strict?: boolean;
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
function currentProofs(): { current: number; oracles: number } {
  let current = 0;
  let oracles = 0;
  for (const h of HANDLERS) {
    if (!oracleSpec(h.name)) continue;
    oracles++;
    if (storedProof(h.name, oracleProofKey(h.name)!)) current++;
  }
  return { current, oracles };
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function runCorpus(file: string, args: ParsedArgs): Promise<number> {
  const timeoutMs = intOption(args, 'timeout', DEFAULT_GRADE_TIMEOUT_MS);
  const limit = intOption(args, 'limit', Number.MAX_SAFE_INTEGER);
  const json = args.flags.has('json');
  const text = await readInput(file, 'corpus', RESPONSES_CAP);
  const parsed = await parseResponses(text);
  if (parsed.problems.length) throw new UsageError(`${file}: ${parsed.problems.map((p) => `line ${p.line}: ${p.code} ${p.message}`).join('; ')}`);
  if (parsed.items.length === 0) throw new UsageError(`${file}: no answers`);
  const labels = madeLabels(text);
  const items = parsed.items.slice(0, limit);
  const engine = await nodeEngine();
  const proofs = currentProofs();
  const log = (s: string) => json || process.stdout.write(s);
  log(`corpus ${file}: ${items.length} answers over ${new Set(items.map((i) => i.task.handler)).size} handlers\n`);
  log(`verifier ${VERIFIER_VERSION}; committed lemma proofs current for ${proofs.current}/${proofs.oracles} oracles (file made by ${STORED_PROOFS.verifier})\n\n`);

  // A worker's start (Z3's threads, the parsed kernel) is not grading.
  await warmUp(engine);
  loadProgram();
  const rows: Row[] = [];
  const warm = new Set<string>();
  const started = Date.now();
  for (const [n, item] of items.entries()) {
    const task = handlerOnlyTask(item.task.handler);
    // Nor is the implementation's side of a handler, which a worker proves once
    // for all its answers: proved here untimed, so that the first answer of a
    // handler does not charge it to whichever side goes first.
    if (!warm.has(task.handler)) {
      warm.add(task.handler);
      const oracle = oracleSpec(task.handler);
      if (oracle) await verify({ handler: task.handler, spec: oracle, timeoutMs }, { engine });
    }
    let strictPartMs: number | undefined;
    let path: string | undefined;
    let strictOk: boolean | undefined;
    // The check strict grading runs (grade.ts, strictChecker), timed, with its path.
    const strictCheck = async (handler: string, spec: string): Promise<boolean> => {
      const t0 = performance.now();
      const d = await declarativeCheck({ handler, spec }, { engine }, timeoutMs);
      strictPartMs = performance.now() - t0;
      path = d.status === 'spec-error' ? 'spec-error' : (d.reused?.same ?? 'full');
      strictOk = d.status === 'proved';
      return strictOk;
    };
    const grade = async (strict: boolean) => {
      const t0 = performance.now();
      const g = await gradeResponse(task, item.response, { engine, timeoutMs, ...(strict ? { strictCheck } : {}) });
      return { g, ms: performance.now() - t0 };
    };
    const [first, second] = n % 2 === 0 ? [false, true] : [true, false];
    const a = await grade(first);
    const b = await grade(second);
    const [plain, strict] = first ? [b, a] : [a, b];
    const row: Row = {
      handler: task.handler,
      made: labels.get(item.line) ?? '',
      category: strict.g.category,
      plainMs: plain.ms,
      strictMs: strict.ms,
      ...(strictPartMs !== undefined ? { strictPartMs, path, strict: strictOk } : {}),
    };
    rows.push(row);
    log(
      `${String(n + 1).padStart(4)} ${row.handler.padEnd(24)} ${row.made.padEnd(40)} ${row.category.padEnd(8)} ${String(Math.round(row.plainMs)).padStart(6)} ${String(Math.round(row.strictMs)).padStart(6)} ms` +
        (row.strictPartMs !== undefined ? `  strict ${row.strict ? 'yes' : 'no '} ${String(Math.round(row.strictPartMs)).padStart(6)} ms ${row.path}` : '') +
        '\n',
    );
  }
  const summary = summarise(rows);
  if (json) process.stdout.write(`${JSON.stringify({ file, verifier: VERIFIER_VERSION, proofs, wallMs: Date.now() - started, rows, summary })}\n`);
  else process.stdout.write(`\n${table(summary, proofs)}\n`);
  return 0;
}

interface Part {
  readonly answers: number;
  readonly p50: number;
  readonly p90: number;
  readonly max: number;
  readonly total: number;
}

function part(xs: readonly number[]): Part {
  return { answers: xs.length, p50: quantile([...xs], 0.5), p90: quantile([...xs], 0.9), max: xs.length ? Math.max(...xs) : NaN, total: xs.reduce((a, b) => a + b, 0) };
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
  /** The strict part by the first word of each answer's `made` label. */
  readonly byKind: Record<string, Part & { readonly strictYes: number }>;
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
  return {
    answers: rows.length,
    plain,
    strict,
    ratio: strict.total / plain.total,
    strictPart: part(checked.map((r) => r.strictPartMs!)),
    paths,
    strictResults: { yes: checked.filter((r) => r.strict).length, no: checked.filter((r) => !r.strict).length },
    byKind,
  };
}

function table(s: Summary, proofs: { current: number; oracles: number }): string {
  const ms = (x: number) => `${Math.round(x)} ms`;
  const line = (name: string, p: Part) => `${name.padEnd(22)} ${secs(p.total).padStart(9)}   p50 ${ms(p.p50).padStart(8)}   p90 ${ms(p.p90).padStart(8)}   max ${ms(p.max).padStart(9)}   (${p.answers} answers)`;
  return [
    line('grade without strict', s.plain),
    line('grade with strict', s.strict),
    line('strict part', s.strictPart),
    `strict / no-strict: ${s.ratio.toFixed(2)}x (totals over ${s.answers} answers)`,
    `strict paths: ${Object.entries(s.paths).map(([k, v]) => `${k} ${v}`).join(', ')}; strict holds for ${s.strictResults.yes}, not for ${s.strictResults.no}`,
    ...Object.entries(s.byKind).map(([k, p]) => `  ${line(k, p)}, strict holds for ${p.strictYes}`),
    `committed lemma proofs current: ${proofs.current}/${proofs.oracles}`,
  ].join('\n');
}
