/**
 * `osvlab lemmas <handler>` (options: ../declarations.ts): the lemma checks of a handler's spec: each lemma and each spec
 * invariant preserved, with its verdict. A spec whose step is the oracle's
 * reuses the oracle's proof unless --full is given (docs/lemmas.md). Exit 0 all proved, 1 some failed,
 * 2 spec error, 3 timeout/unknown, 4 usage error. The checks run in a worker
 * thread (node-pool.ts, verifierThread): Z3 out of memory or not stopping is a coded
 * timeout (RES001-RES003, docs/cli-errors.md), exit 3.
 */
import { oracleSpec } from '../../core/kernel/content.ts';
import { LEMMAS, findLemma } from '../../core/kernel/lemmas/index.ts';
import { exhaustionDiagnostic } from '../../core/service/exhaustion.ts';
import { requireHandler } from '../../core/verify/index.ts';
import { UsageError } from '../args.ts';
import { parseCommand } from '../declarations.ts';
import { diagnosticJson, printDiagnostic } from '../diagnostics.ts';
import { SPEC_CAP, readInput } from '../read-input.ts';
import { hardLimitMs } from '../../core/service/limits.ts';
import { verifierThread } from '../node-pool.ts';

export async function run(argv: string[]): Promise<number> {
  const { args, options: o } = parseCommand('lemmas', argv);
  const [name, ...extra] = args.positionals;
  if (!name) throw new UsageError('which handler? e.g. osvlab lemmas sys_alloc_pt --oracle');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if ((o.spec !== undefined) === o.oracle) throw new UsageError('give exactly one of --spec FILE or --oracle');
  const h = requireHandler(name);
  const path = o.spec;
  const spec = path ? await readInput(path, 'spec', SPEC_CAP) : oracleSpec(h.name);
  if (spec === undefined) throw new UsageError(`no oracle spec for ${h.name}`);
  const only = o.only?.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = only?.find((n) => !findLemma(n));
  if (unknown !== undefined) throw new UsageError(`--only: no lemma '${unknown}' (known: ${LEMMAS.map((l) => l.name).join(', ')})`, 'ARG007');
  const timeoutMs = o.queryTimeout;
  const thread = verifierThread();
  let done;
  try {
    done = await thread.check((api) => api.lemmas(h.name, spec, { timeoutMs, only, reuse: !o.full }), hardLimitMs({ kind: 'lemmas', queryTimeoutMs: timeoutMs }));
  } finally {
    await thread.dispose();
  }
  if (done.kind === 'failed') throw new Error(done.message);
  if (done.kind === 'exhausted') {
    const d = exhaustionDiagnostic(done.exhaustion);
    if (o.json) process.stdout.write(`${JSON.stringify({ handler: h.name, status: 'timeout', error: diagnosticJson(d), ms: done.ms })}\n`);
    else {
      process.stdout.write(`${h.name}: lemma checks timeout (${done.ms} ms)\n`);
      printDiagnostic(process.stderr, d);
    }
    return 3;
  }
  const r = done.value;
  if (o.json) {
    const out =
      r.status === 'spec-error'
        ? { handler: h.name, status: r.status, error: diagnosticJson(r.error) }
        : { handler: h.name, status: r.status, lemmas: r.results, ms: r.ms, ...(r.reused ? { reused: r.reused } : {}) };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } else if (r.status === 'spec-error') {
    printDiagnostic(process.stdout, r.error, { source: spec, file: path ?? h.name });
  } else {
    for (const x of r.results) {
      process.stdout.write(`${x.status === 'proved' ? 'ok  ' : x.status.toUpperCase().padEnd(4)} ${x.name.padEnd(44)} ${String(x.ms ?? '').padStart(6)} ms${x.reason ? `  (${x.reason})` : ''}\n`);
    }
    const via = r.reused ? `; the oracle's step (${r.reused.same}), its ${r.reused.proof === 'stored' ? 'committed' : 'memoised'} proof reused` : '';
    process.stdout.write(`${h.name}: lemma checks ${r.status} (${r.ms} ms${via})\n`);
  }
  return { proved: 0, failed: 1, 'spec-error': 2, timeout: 3, unknown: 3 }[r.status];
}
