/**
 * `osvlab verify <handler>` (options: ../declarations.ts). Exit codes: 0 verified, 1 refuted, 2 spec error or bad implementation (a
 * coded C error, docs/c-errors.md), 3 timeout/unknown, 4 usage or internal
 * error. `--budget` (old spelling `--timeout`) is the wall-clock budget of the whole check. The proof
 * runs in a worker thread (node-pool.ts, verifierThread): when Z3 runs out of memory or
 * will not stop, the worker is stopped and the verdict is `timeout` with a
 * coded error (RES001-RES003, docs/cli-errors.md), exit 3.
 */
import { findTask } from '../../core/tasks/load.ts';
import { diagnosticText } from '../../core/diagnostic-text.ts';
import { KERNEL } from '../../core/kernel/content.ts';
import { oracleSpec } from '../../core/kernel/content.ts';
import { NOT_EVALUATED, NOT_WELL_FORMED, outsideCText } from '../../core/verify/counterexample.ts';
import { ImplementationError, loadProgram, requireHandler } from '../../core/verify/index.ts';
import type { Diagnostic } from '../../core/diagnostic.ts';
import { exhaustionDiagnostic } from '../../core/service/exhaustion.ts';
import type { Verdict } from '../../core/verify/verdict.ts';
import { UsageError } from '../args.ts';
import { parseCommand } from '../declarations.ts';
import { diagnosticJson, printDiagnostic } from '../diagnostics.ts';
import { C_CAP, InputError, SPEC_CAP, readInput } from '../read-input.ts';
import { nodeCaches } from '../../z3/node.ts';
import { hardLimitMs } from '../../core/service/limits.ts';
import { verifierThread } from '../node-pool.ts';

const EXIT: Record<Verdict['status'], number> = { verified: 0, refuted: 1, 'spec-error': 2, timeout: 3, unknown: 3 };

/** The C error code of an internal error of the front end or executor (a bug of ours, exit 4). */
const C_INTERNAL = 'C057';

/** The override of benchmark task `id` (empty for a correct variant); it must be a task of `handler`. */
async function variantSource(id: string, handler: string): Promise<string> {
  const task = await findTask(id);
  if (!task) throw new UsageError(`no task '${id}' (osvlab tasks lists them)`, 'ARG007');
  if (task.handler !== handler) throw new UsageError(`task ${id} is a variant of ${task.handler}, not of ${handler}`);
  return task.impl_override;
}

export async function run(argv: string[]): Promise<number> {
  const { args, options: o } = parseCommand('verify', argv);
  const [handlerName, ...extra] = args.positionals;
  if (!handlerName) throw new UsageError('which handler? e.g. osvlab verify sys_dup --oracle');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if ((o.spec !== undefined) === o.oracle) throw new UsageError('give exactly one of --spec FILE or --oracle');
  if (o.impl !== undefined && o.variant !== undefined) throw new UsageError('give at most one of --impl FILE or --variant ID');
  const handler = requireHandler(handlerName);
  const { spec: specPath, impl: implPath, variant } = o;
  if (specPath === '-' && implPath === '-') throw new UsageError('only one of --spec and --impl can be - (standard input)');
  const timeoutMs = o.budget;
  const spec = specPath ? await readInput(specPath, 'spec', SPEC_CAP) : oracleSpec(handler.name);
  if (spec === undefined) throw new UsageError(`no oracle spec for ${handler.name}`);
  const implSource = implPath
    ? await readInput(implPath, 'implementation', C_CAP)
    : variant !== undefined
      ? await variantSource(variant, handler.name)
      : '';
  // An override replaces what it defines; one that defines nothing would verify the kernel's own code.
  const overridesNothing = () =>
    new InputError('IN004', implPath!, `implementation '${implPath}' defines no function: it would override nothing and verify the kernel's own ${handler.name}; give a C file that defines it, or leave --impl out`);
  if (implPath && implSource.trim() === '') throw overridesNothing();
  const strict = o.lemmas;
  // Z3 runs in a worker thread, loading while the C is checked here (node-pool.ts, verifierThread).
  const thread = verifierThread();
  const started = Date.now();
  let verdict: Verdict;
  let ms: number;
  let stopped: Diagnostic<undefined> | undefined;
  try {
    // A C error needs no solver: report it before any proof.
    const program = loadProgram(nodeCaches(), implSource);
    if (implPath && ![...program.functions.values()].some((f) => f.fromOverride && f.body)) throw overridesNothing();
    const r = await thread.check((api) => api.verify({ handler: handler.name, spec, implSource, timeoutMs, strict }), hardLimitMs({ kind: 'verify', timeoutMs, strict }));
    if (r.kind === 'failed') throw new Error(r.message);
    // The time of the check itself, not of loading Z3 (the budget is counted the same way).
    ms = r.ms;
    if (r.kind === 'exhausted') {
      stopped = exhaustionDiagnostic(r.exhaustion);
      verdict = { status: 'timeout', obligations: [] };
    } else verdict = r.value;
  } catch (e) {
    const d = e instanceof ImplementationError ? e.diagnostics[0] : undefined;
    if (!d) throw e;
    const ms = Date.now() - started;
    const file = d.file === OVERRIDE ? (implPath ?? `${variant} (override)`) : d.file;
    if (o.json) {
      process.stdout.write(`${JSON.stringify({ handler: handler.name, verdict: { status: 'impl-error', error: diagnosticJson(d, file) }, ms })}\n`);
    } else {
      printDiagnostic(process.stderr, d, { file, source: d.file === OVERRIDE ? implSource : KERNEL.files.get(d.file) });
    }
    return d.code === C_INTERNAL ? 4 : 2;
  } finally {
    await thread.dispose();
  }
  if (o.json) {
    const json = jsonVerdict(handler.name, verdict, ms) as { verdict: Record<string, unknown> };
    if (stopped) json.verdict.error = diagnosticJson(stopped);
    process.stdout.write(`${JSON.stringify(json)}\n`);
  } else {
    process.stdout.write(render(handler.name, verdict, ms, spec, specPath ?? `${handler.name} (oracle)`));
    if (stopped) printDiagnostic(process.stderr, stopped);
  }
  return EXIT[verdict.status];
}

/**
 * The JSON shape of docs/design.md §7: {handler, verdict:{status, failed?, found_by?, counterexample?,
 * error?:{code,message,line,column,severity,notes?,trace?}, warnings}, ms}.
 */
export function jsonVerdict(handler: string, v: Verdict, ms: number): unknown {
  const verdict: Record<string, unknown> = { status: v.status };
  if (v.status === 'refuted') {
    verdict.failed = v.failed;
    verdict.found_by = v.foundBy ?? 'solver';
    if (v.counterexample) verdict.counterexample = v.counterexample;
  }
  if (v.status === 'spec-error') {
    verdict.error = diagnosticJson(v.error);
  }
  if (v.status === 'unknown') verdict.reason = v.reason;
  if (v.status !== 'spec-error') verdict.obligations = v.obligations;
  verdict.warnings = (v.warnings ?? []).map((w) => diagnosticJson(w));
  return { handler, verdict, ms };
}

/** The name `loadProgram` gives the override unit. */
const OVERRIDE = 'override.c';

/** The terminal text of a verdict; errors and warnings as diagnosticText prints them (code frame, notes, call trace). */
function render(handler: string, v: Verdict, ms: number, spec: string, specName: string): string {
  const out: string[] = [];
  switch (v.status) {
    case 'verified':
      out.push(`${handler}: verified (${v.obligations.length} obligations, ${ms} ms)`);
      break;
    case 'spec-error':
      out.push(diagnosticText(v.error, { source: spec, file: specName }));
      break;
    case 'refuted':
      out.push(`${handler}: refuted (${ms} ms${v.foundBy === 'run' ? ', found by running the spec and the kernel in a concrete state, not by the solver' : ''})`);
      out.push(`failed: ${v.failed.join(', ')}`);
      if (v.counterexample) {
        const c = v.counterexample;
        const how = c.replayed ? ' (replayed concretely)' : c.quantified ? " (the solver's, not replayed: a quantifier)" : ' (NOT reproduced by replay: internal error)';
        out.push('', `counterexample${how}:`);
        out.push(`  arguments: ${c.args.map((a) => `${a.name}=${a.value}`).join(', ') || '(none)'}`);
        out.push(`  spec condition: ${c.specCond === null ? NOT_EVALUATED : c.specCond ? 'True' : 'False'}; implementation returns ${c.implRet}`);
        if (c.rows.length) {
          out.push('  field                  index              old            spec           impl');
          for (const r of c.rows) {
            out.push(`  ${r.differs ? '*' : ' '} ${r.field.padEnd(20)} ${r.index.join(',').padEnd(18)} ${r.old.padEnd(14)} ${r.spec.padEnd(14)} ${r.impl}`);
          }
        }
        if (c.context.length) out.push('  state read:', ...c.context.map((x) => `    ${x}`));
        if (c.wellFormed === false) out.push(`  note: ${NOT_WELL_FORMED}`);
        if (c.outsideC) out.push(`  note: ${outsideCText(c.outsideC)}`);
      }
      break;
    case 'timeout':
    case 'unknown':
      out.push(`${handler}: ${v.status}${v.status === 'unknown' ? ` (${v.reason})` : ''} (${ms} ms)`);
      for (const r of v.obligations.filter((x) => x.status !== 'proved')) out.push(`  ${r.name}: ${r.status}`);
      break;
  }
  for (const w of v.warnings ?? []) out.push(diagnosticText(w, { source: spec, file: specName }));
  return `${out.join('\n')}\n`;
}
