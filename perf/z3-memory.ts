/**
 * How much memory Z3 needs (docs/app.md, "Z3's memory"): for each memory size
 * of src/z3/memory.ts, one process runs Z3 in that much memory
 * (OSVLAB_Z3_MEMORY; the one wasm whose import admits every size, as the
 * browser's), verifies the 50 oracle specs, then grades perf/corpus/answers.jsonl
 * with and without the lemma check (`osvlab bench --corpus`, in the same
 * process), and reports its verdicts and grades and the high-water mark of
 * Z3's memory after each part (src/z3/node.ts, z3HighWaterBytes). The
 * summary names the smallest size at which every verdict and grade equals
 * the 2 GiB ones.
 *
 *   npx tsx perf/z3-memory.ts [--sizes 2048,1024,512,256] [--limit N] [--no-corpus]
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface ChildReport {
  readonly mib: number;
  readonly oracles: Record<string, string>;
  readonly corpus: string[];
  readonly oraclesPeak: number;
  readonly corpusPeak: number;
  readonly oraclesMs: number;
  readonly corpusMs: number;
  readonly error?: string;
}

async function child(): Promise<void> {
  const { nodeEnv, nodeZ3MemoryMiB, z3HighWaterBytes } = await import('../src/z3/node.ts');
  const { HANDLERS } = await import('../src/core/kernel/handlers.ts');
  const { oracleSpec } = await import('../src/core/kernel/content.ts');
  const { verify } = await import('../src/core/verify/index.ts');
  const { main } = await import('../src/cli/main.ts');
  const oracles: Record<string, string> = {};
  const t0 = Date.now();
  const env = await nodeEnv();
  for (const h of HANDLERS) {
    const v = await verify({ handler: h.name, spec: oracleSpec(h.name) ?? '' }, env);
    oracles[h.name] = v.status;
  }
  const oraclesMs = Date.now() - t0;
  const oraclesPeak = await z3HighWaterBytes();
  let corpus: string[] = [];
  const t1 = Date.now();
  if (!process.argv.includes('--no-corpus')) {
    // `osvlab bench --corpus` in this process, on this process's Z3; its JSON goes to our stdout collector.
    let out = '';
    const write = process.stdout.write;
    process.stdout.write = ((s: string | Uint8Array, ...rest: unknown[]) => {
      out += String(s);
      const done = rest.find((x): x is () => void => typeof x === 'function');
      if (done) process.nextTick(done);
      return true;
    }) as typeof write;
    const limit = arg('limit');
    try {
      await main(['bench', '--corpus', join(ROOT, 'perf/corpus/answers.jsonl'), '--json', ...(limit ? ['--limit', limit] : [])]);
    } finally {
      process.stdout.write = write;
    }
    const rows = (JSON.parse(out.trim().split('\n').pop() ?? '{}') as { rows?: Array<{ handler: string; category: string; strict?: boolean }> }).rows ?? [];
    corpus = rows.map((r) => `${r.handler} ${r.category} strict=${r.strict ?? '-'}`);
  }
  const report: ChildReport = { mib: nodeZ3MemoryMiB(), oracles, corpus, oraclesPeak, corpusPeak: await z3HighWaterBytes(), oraclesMs, corpusMs: Date.now() - t1 };
  process.stdout.write(`\nREPORT ${JSON.stringify(report)}\n`);
  process.exit(0);
}

function parent(): void {
  const sizes = (arg('sizes') ?? '2048,1024,512,256').split(',').map(Number);
  const extra = process.argv.slice(2).filter((a, i, all) => a !== '--sizes' && all[i - 1] !== '--sizes');
  const reports: ChildReport[] = [];
  for (const mib of sizes) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'perf/z3-memory.ts'), '--child', ...extra], {
      cwd: ROOT,
      env: { ...process.env, OSVLAB_Z3_MEMORY: String(mib) },
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    const line = r.stdout.split('\n').find((l) => l.startsWith('REPORT '));
    if (!line) {
      const error = `${r.stderr.trim().split('\n').slice(-3).join(' / ')} (exit ${r.status})`;
      reports.push({ mib, oracles: {}, corpus: [], oraclesPeak: 0, corpusPeak: 0, oraclesMs: 0, corpusMs: 0, error });
      console.log(`${mib} MiB: no report: ${error}`);
      continue;
    }
    const rep = JSON.parse(line.slice(7)) as ChildReport;
    reports.push(rep);
    console.log(
      `${mib} MiB: ${Object.keys(rep.oracles).length} oracles in ${(rep.oraclesMs / 1000).toFixed(1)} s, peak ${(rep.oraclesPeak / 2 ** 20).toFixed(0)} MiB; ` +
        `${rep.corpus.length} corpus answers in ${(rep.corpusMs / 1000).toFixed(1)} s, peak ${(rep.corpusPeak / 2 ** 20).toFixed(0)} MiB`,
    );
  }
  const base = reports.find((r) => r.mib === 2048 && !r.error);
  if (!base) return void console.log('\nno 2 GiB run to compare with');
  const same = (r: ChildReport) =>
    !r.error && JSON.stringify(r.oracles) === JSON.stringify(base.oracles) && JSON.stringify(r.corpus) === JSON.stringify(base.corpus);
  console.log('\nsize      oracles same   corpus same   peak (oracles)   peak (oracles + corpus)');
  for (const r of reports) {
    const diffO = Object.keys(base.oracles).filter((h) => r.oracles[h] !== base.oracles[h]);
    const diffC = base.corpus.filter((g, i) => r.corpus[i] !== g).length;
    console.log(
      `${String(r.mib).padStart(4)} MiB  ${(r.error ? 'failed' : diffO.length ? `${diffO.length} differ` : 'yes').padEnd(13)}  ${(r.error ? '-' : diffC ? `${diffC} differ` : 'yes').padEnd(12)}  ${(r.oraclesPeak / 2 ** 20).toFixed(0).padStart(6)} MiB       ${(r.corpusPeak / 2 ** 20).toFixed(0).padStart(6)} MiB`,
    );
  }
  const ok = reports.filter(same).map((r) => r.mib);
  console.log(`\nsmallest size with every verdict and grade as at 2 GiB: ${ok.length ? `${Math.min(...ok)} MiB` : 'none'}`);
  const oracleStatuses = Object.values(base.oracles);
  console.log(`(2 GiB: ${oracleStatuses.filter((s) => s === 'verified').length}/${oracleStatuses.length} oracles verified, ${base.corpus.length} corpus grades)`);
}

if (process.argv.includes('--child')) await child();
else parent();
