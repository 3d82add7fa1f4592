/**
 * `osvlab diff <handler> A.py B.py` (options: ../declarations.ts): two specs
 * of one handler compared by meaning (core/verify/equivalence.ts). Exit
 * codes: 0 equivalent, 1 different (with a distinguishing state replayed
 * through both specs), 2 spec error (DIFF001: a spec of another handler),
 * 3 timeout or unknown (never "equivalent"), 4 usage or internal error. The
 * comparison runs in a verifier worker thread, as `verify`'s proof does
 * (node-pool.ts, verifierThread), so a runaway query or spec is a coded timeout.
 */
import { diagnosticText } from '../../core/diagnostic-text.ts';
import type { Diagnostic } from '../../core/diagnostic.ts';
import { exhaustionDiagnostic } from '../../core/service/exhaustion.ts';
import type { DiffVerdict } from '../../core/verify/equivalence.ts';
import { NOT_EVALUATED } from '../../core/verify/counterexample.ts';
import { requireHandler } from '../../core/verify/index.ts';
import { UsageError } from '../args.ts';
import { parseCommand } from '../declarations.ts';
import { diagnosticJson, printDiagnostic } from '../diagnostics.ts';
import { SPEC_CAP, readInput } from '../read-input.ts';
import { hardLimitMs } from '../../core/service/limits.ts';
import { verifierThread } from '../node-pool.ts';

const EXIT: Record<DiffVerdict['status'], number> = { equivalent: 0, different: 1, 'spec-error': 2, timeout: 3, unknown: 3 };

export async function run(argv: string[]): Promise<number> {
  const { args, options: o } = parseCommand('diff', argv);
  const [handlerName, pathA, pathB, ...extra] = args.positionals;
  if (!handlerName || !pathA || !pathB) throw new UsageError('give a handler and two spec files, e.g. osvlab diff sys_dup a.py b.py');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if (pathA === '-' && pathB === '-') throw new UsageError('only one of the two specs can be - (standard input)');
  const handler = requireHandler(handlerName);
  const timeoutMs = o.timeout;
  const a = await readInput(pathA, 'spec', SPEC_CAP);
  const b = await readInput(pathB, 'spec', SPEC_CAP);
  const thread = verifierThread();
  let verdict: DiffVerdict;
  let stopped: Diagnostic<undefined> | undefined;
  try {
    const r = await thread.check((api) => api.diff({ handler: handler.name, a, b, timeoutMs }), hardLimitMs({ kind: 'diff', timeoutMs }));
    if (r.kind === 'failed') throw new Error(r.message);
    if (r.kind === 'exhausted') {
      stopped = exhaustionDiagnostic(r.exhaustion);
      verdict = { status: 'timeout', reason: stopped.message, ms: r.ms, queries: 0 };
    } else verdict = r.value;
  } finally {
    await thread.dispose();
  }
  const names = { a: pathA === '-' ? '<stdin>' : pathA, b: pathB === '-' ? '<stdin>' : pathB };
  if (o.json) {
    const json: Record<string, unknown> = { handler: handler.name, a: names.a, b: names.b, ...verdict };
    if (verdict.status === 'spec-error') {
      json.error = diagnosticJson(verdict.error, names[verdict.side]);
      json.warnings = verdict.warnings.map((w) => diagnosticJson(w, names[verdict.side]));
    }
    if (stopped) json.error = diagnosticJson(stopped);
    process.stdout.write(`${JSON.stringify(json)}\n`);
  } else {
    process.stdout.write(render(handler.name, verdict, names, { a, b }));
    if (stopped) printDiagnostic(process.stderr, stopped);
  }
  return EXIT[verdict.status];
}

const HOW: Record<Extract<DiffVerdict, { status: 'equivalent' }>['how'], string> = {
  'same-terms': 'cond and every compared field are the same terms',
  'both-refine': 'both refine the kernel',
  'known-goals': 'both refine the kernel, by proofs already made',
  query: 'proved by a query',
};

/** The terminal text of a diff verdict. */
function render(handler: string, v: DiffVerdict, names: { a: string; b: string }, sources: { a: string; b: string }): string {
  const out: string[] = [];
  const queries = `${v.queries} ${v.queries === 1 ? 'query' : 'queries'}`;
  switch (v.status) {
    case 'equivalent':
      out.push(`${handler}: ${names.a} and ${names.b} are equivalent (${HOW[v.how]}; ${queries}, ${v.ms} ms)`);
      if (v.ghost.kind === 'differ') out.push(`note: they differ in ghost fields only (not compared with the C state; the lemma checks read them): ${v.ghost.fields.join(', ')}`);
      if (v.ghost.kind === 'undecided') out.push(`note: whether their ghost fields agree is undecided (${v.ghost.reason})`);
      break;
    case 'different': {
      const w = v.witness;
      out.push(`${handler}: ${names.a} and ${names.b} differ in ${w.fields.join(', ')} (${queries}, ${v.ms} ms)`);
      const how = w.replayed ? 'replayed concretely through both specs' : "the solver's, not replayed: a quantifier";
      out.push('', `distinguishing state (${how}):`);
      out.push(`  arguments: ${w.args.map((x) => `${x.name}=${x.value}`).join(', ') || '(none)'}`);
      const cond = (c: boolean | null) => (c === null ? NOT_EVALUATED : c ? 'True' : 'False');
      out.push(`  cond: A ${cond(w.condA)}, B ${cond(w.condB)}${w.condA !== w.condB ? '   (differs)' : ''}`);
      if (w.rows.length) {
        out.push(`    ${'field'.padEnd(21)} ${'index'.padEnd(18)} ${'old'.padEnd(14)} ${'A new'.padEnd(14)} B new`);
        for (const r of w.rows) out.push(`  ${r.differs ? '*' : ' '} ${r.field.padEnd(21)} ${r.index.join(',').padEnd(18)} ${r.old.padEnd(14)} ${r.a.padEnd(14)} ${r.b}`);
      }
      if (w.context.length) out.push('  state read:', ...w.context.map((x) => `    ${x}`));
      break;
    }
    case 'spec-error':
      out.push(`${handler}: ${names[v.side]} has an error`);
      out.push(diagnosticText(v.error, { source: sources[v.side], file: names[v.side] }));
      break;
    case 'timeout':
    case 'unknown':
      out.push(`${handler}: ${v.status} (${v.reason}; ${queries}, ${v.ms} ms): not known to be equivalent`);
      break;
  }
  return `${out.join('\n')}\n`;
}
