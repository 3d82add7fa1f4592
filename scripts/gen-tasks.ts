/**
 * Generates the 245 benchmark tasks (`npm run tasks`): for each of the 49
 * OSVBench handlers the correct variant and four buggy ones, written to
 * tasks/hv6/tasks/<id>.json with an index, then the lazily loaded bundle
 * tasks/hv6/tasks.json.
 *
 * Every candidate mutation is screened (gcc accepts it, our front end links
 * it, and one solver query finds a state where the oracle and the mutant
 * disagree); every finished variant is verified in full with `verify()`
 * (buggy ones must come out `refuted`, correct ones `verified`). Verdicts are
 * cached in tasks/hv6/gen-cache.json by content (and dropped when
 * the verifier version changes), so a second run, or a run that was killed,
 * only does what is missing. Deterministic from --seed.
 *
 *   npm run tasks -- [--seed S] [--jobs N] [--fresh] [--timeout MS]
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lex, parseProgram } from '../src/core/c/index.ts';
import { buildTask } from '../src/core/tasks/build-task.ts';
import { indexSource } from '../src/core/tasks/c-source.ts';
import { type InjectedVariant, composeVariant } from '../src/core/tasks/inject.ts';
import { CLASS_TARGETS, COUNT_TARGETS, planVariants } from '../src/core/tasks/plan.ts';
import { quickRefute } from '../src/core/tasks/refute.ts';
import { BUG_CLASSES, type Task } from '../src/core/tasks/task.ts';
import { KERNEL, oracleSpec } from '../src/core/kernel/content.ts';
import { HANDLERS } from '../src/core/kernel/handlers.ts';
import { verify } from '../src/core/verify/index.ts';
import { VERIFIER_VERSION } from '../src/core/version.ts';
import { nodeEnv } from '../src/z3/node.ts';
import { tasksBundleText } from './bundle-lib.ts';

const ROOT = join(import.meta.dirname, '..');
const TASK_DIR = join(ROOT, 'tasks/hv6/tasks');
const CACHE = join(ROOT, 'tasks/hv6/gen-cache.json');
const GCC_FLAGS = ['-std=gnu11', '-fsyntax-only', '-ffreestanding', '-nostdinc', '-Wall', '-Werror', '-I', join(ROOT, 'tasks/hv6/kernel')];
export const DEFAULT_SEED = 'osvlab-hv6-1';

/** One check for a worker: `quick` is the one-query screening, `full` is `verify()`. */
interface FullJob {
  readonly kind: 'quick' | 'full';
  readonly handler: string;
  readonly spec: string;
  readonly implSource: string;
  readonly timeoutMs: number;
}

// ------------------------------------------------------------------ worker mode: full verifications

async function worker(): Promise<void> {
  const env = await nodeEnv();
  process.on('disconnect', () => process.exit(0));
  process.on('message', async (msg: { id: number; job: FullJob }) => {
    const started = Date.now();
    let status: string;
    const { kind, handler, spec, implSource, timeoutMs } = msg.job;
    try {
      if (kind === 'quick') status = links(implSource) ? await quickRefute({ handler, spec, implSource, timeoutMs }, env) : 'no-link';
      else status = (await verify({ handler, spec, implSource, timeoutMs }, env)).status;
    } catch (e) {
      status = `error: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (process.connected) process.send!({ id: msg.id, status, ms: Date.now() - started });
  });
  process.send!({ ready: true });
}

/**
 * A few forked verifier processes, fed from one queue. A worker that dies
 * (Z3's WASM build now and then fails with "memory access out of bounds") is
 * replaced, and its job is tried again on the new worker, twice at most.
 */
class Pool {
  private readonly idle: ChildProcess[] = [];
  private readonly busy = new Map<ChildProcess, Job>();
  private readonly queue: Job[] = [];
  private next = 0;
  private closed = false;

  constructor(size: number) {
    for (let i = 0; i < size; i++) this.spawn();
  }

  private spawn(): void {
    const w = fork(process.argv[1], ['--worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    w.on('message', (m: { ready?: boolean; id?: number; status?: string; ms?: number }) => {
      if (!m.ready) {
        const job = this.busy.get(w)!;
        this.busy.delete(w);
        job.resolve({ status: m.status!, ms: m.ms! });
      }
      this.idle.push(w);
      this.pump();
    });
    w.on('exit', () => {
      const i = this.idle.indexOf(w);
      if (i >= 0) this.idle.splice(i, 1);
      const job = this.busy.get(w);
      this.busy.delete(w);
      if (this.closed) return;
      if (job) {
        if (job.tries < 2) this.queue.unshift({ ...job, tries: job.tries + 1 });
        else job.resolve({ status: 'error: the verifier process died', ms: 0 });
      }
      this.spawn();
    });
  }

  run(job: FullJob): Promise<{ status: string; ms: number }> {
    return new Promise((resolve) => {
      // Screening first: the planner waits for it, while full verifications only have to finish by the end.
      const entry = { id: this.next++, job, tries: 0, resolve };
      const firstFull = this.queue.findIndex((j) => j.job.kind !== 'quick');
      if (job.kind === 'quick' && firstFull >= 0) this.queue.splice(firstFull, 0, entry);
      else this.queue.push(entry);
      this.pump();
    });
  }

  private pump(): void {
    while (this.idle.length && this.queue.length) {
      const w = this.idle.shift()!;
      const job = this.queue.shift()!;
      this.busy.set(w, job);
      w.send({ id: job.id, job: job.job });
    }
  }

  close(): void {
    this.closed = true;
    for (const w of [...this.idle, ...this.busy.keys()]) w.kill();
  }
}

interface Job {
  readonly id: number;
  readonly job: FullJob;
  readonly tries: number;
  readonly resolve: (r: { status: string; ms: number }) => void;
}

// ------------------------------------------------------------------ the cache

/**
 * The kernel as the verifier sees it: a hash of its token stream, so that a
 * change to the kernel's comments or layout keeps the cached verdicts (a
 * change to its code does not).
 */
const KERNEL_TOKENS = (() => {
  const h = createHash('sha256');
  for (const [path, text] of [...KERNEL.files].sort(([a], [b]) => a.localeCompare(b))) {
    h.update(`${path}\0${lex(path, text).tokens.map((t) => t.text).join(' ')}\0`);
  }
  return h.digest('hex').slice(0, 16);
})();

interface CacheEntry {
  gcc?: string;
  quick?: string;
  full?: string;
  ms?: number;
}

class VerdictCache {
  private readonly entries: Record<string, CacheEntry>;
  private dirty = 0;

  constructor(private readonly path: string, fresh: boolean) {
    const file = !fresh && existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
    this.entries = file.entries ?? {};
    // Verdicts from another version of the verifier are stale; gcc's are not.
    if (file.verifier !== undefined && file.verifier !== VERIFIER_VERSION) {
      for (const e of Object.values(this.entries)) {
        delete e.quick;
        delete e.full;
        delete e.ms;
      }
    }
  }

  static key(handler: string, implSource: string): string {
    const spec = oracleSpec(handler) ?? '';
    return createHash('sha256').update(`${KERNEL_TOKENS}\0${handler}\0${spec}\0${implSource}`).digest('hex').slice(0, 24);
  }

  get(key: string): CacheEntry {
    return this.entries[key] ?? {};
  }

  set(key: string, patch: CacheEntry): void {
    this.entries[key] = { ...this.entries[key], ...patch };
    if (++this.dirty >= 5) this.save();
  }

  save(): void {
    if (!this.dirty) return;
    const sorted = Object.fromEntries(Object.entries(this.entries).sort(([a], [b]) => a.localeCompare(b)));
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ format: 1, verifier: VERIFIER_VERSION, kernelTokens: KERNEL_TOKENS, entries: sorted }, null, 1)}\n`);
    renameSync(tmp, this.path);
    this.dirty = 0;
  }
}

// ------------------------------------------------------------------ checks

const HAS_GCC = spawnSync('gcc', ['--version']).status === 0;
const scratch = join(tmpdir(), `osvlab-gen-${process.pid}`);

/** gcc's verdict on an override unit: '' when it compiles, else the first error line. */
function gcc(text: string): string {
  if (!HAS_GCC) return '';
  mkdirSync(scratch, { recursive: true });
  const file = join(scratch, 'override.c');
  writeFileSync(file, text);
  const r = spawnSync('gcc', [...GCC_FLAGS, file], { encoding: 'utf8' });
  if (r.status === 0) return '';
  return (r.stderr.split('\n').find((l) => l.includes('error')) ?? r.stderr.trim()).replace(file, 'override.c') || 'gcc failed';
}

function links(override: string): boolean {
  return parseProgram(KERNEL.files, KERNEL.units, [{ path: 'override.c', text: override }]).ok;
}

// ------------------------------------------------------------------ main

function parseFlags(argv: string[]): { seed: string; jobs: number; fresh: boolean; timeoutMs: number } {
  const out = { seed: DEFAULT_SEED, jobs: 2, fresh: false, timeoutMs: 120000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seed') out.seed = argv[++i];
    else if (a === '--jobs') out.jobs = Math.max(1, Number(argv[++i]));
    else if (a === '--fresh') out.fresh = true;
    else if (a === '--timeout') out.timeoutMs = Number(argv[++i]);
    else throw new Error(`unknown option ${a} (known: --seed S, --jobs N, --fresh, --timeout MS)`);
  }
  return out;
}

function fmt(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  const started = Date.now();
  const log = (line: string) => process.stdout.write(`[${fmt(Date.now() - started)}] ${line}\n`);
  const kernel = parseProgram(KERNEL.files, KERNEL.units);
  if (!kernel.ok) throw new Error(`the kernel does not compile: ${kernel.errors[0].message}`);
  const ctx = { program: kernel.program, index: indexSource(kernel.program) };
  const handlers = HANDLERS.filter((h) => h.inBenchmark).map((h) => h.name);
  const missing = handlers.filter((h) => KERNEL.descriptions[h] === undefined || oracleSpec(h) === undefined);
  if (missing.length) throw new Error(`no description or oracle spec in the content bundle for ${missing.join(', ')} (npm run bundle?)`);
  const cache = new VerdictCache(CACHE, flags.fresh);
  const pool = new Pool(flags.jobs);
  const fulls = new Map<string, Promise<string>>();
  let screens = 0;
  let screenHits = 0;

  /** The full verdict of the oracle against an implementation (cached; runs in the pool). */
  const full = (handler: string, implSource: string): Promise<string> => {
    const key = VerdictCache.key(handler, implSource);
    const known = cache.get(key).full;
    if (known) return Promise.resolve(known);
    let p = fulls.get(key);
    if (!p) {
      p = pool.run({ kind: 'full', handler, spec: oracleSpec(handler)!, implSource, timeoutMs: flags.timeoutMs }).then((r) => {
        // A crashed or unfinished verification is not a verdict: leave it uncached so a rerun retries it.
        if (!r.status.startsWith('error')) cache.set(key, { full: r.status, ms: r.ms });
        log(`verify ${handler} ${implSource ? 'variant' : 'kernel'}: ${r.status} (${fmt(r.ms)})`);
        return r.status;
      });
      fulls.set(key, p);
    }
    return p;
  };

  /** gcc, our front end, and one solver query: is this a compilable variant the oracle refutes? */
  const check = async (handler: string, v: InjectedVariant, what: string): Promise<boolean> => {
    const key = VerdictCache.key(handler, v.override);
    const c = cache.get(key);
    if (c.full && c.full !== 'refuted') return false;
    if (c.gcc === undefined) cache.set(key, { gcc: gcc(v.override) });
    if (cache.get(key).gcc) return false;
    if (c.quick) {
      screenHits++;
      return c.quick === 'refuted';
    }
    screens++;
    // Screening runs in the pool too, so a crash of Z3 costs a worker, not the run.
    const { status: verdict } = await pool.run({ kind: 'quick', handler, spec: oracleSpec(handler)!, implSource: v.override, timeoutMs: flags.timeoutMs });
    if (verdict === 'refuted' || verdict === 'equivalent' || verdict === 'no-link') cache.set(key, { quick: verdict });
    log(`  screen ${handler} ${what}: ${verdict}`);
    return verdict === 'refuted';
  };

  for (const h of handlers) void full(h, '');

  let planned;
  for (let round = 1; ; round++) {
    log(`planning round ${round}`);
    planned = await planVariants({
      ctx,
      handlers,
      seed: flags.seed,
      parallel: flags.jobs,
      screen: (h, m) => check(h, composeVariant(ctx, h, [m]), m.id),
      accept: async (v) => {
        if (!(await check(v.handler, v, v.mutations.map((m) => m.id).join(' + ')))) return false;
        try {
          // The task must build (its shown code holds every mutated function) before the variant is taken.
          await buildTask(KERNEL, kernel.program, v.handler, 1, v);
        } catch (e) {
          log(`  ${v.handler}: cannot build a task from this variant: ${e instanceof Error ? e.message : e}`);
          return false;
        }
        void full(v.handler, v.override);
        return true;
      },
      log,
    });
    const verdicts = await Promise.all(planned.map((p) => full(p.handler, p.variant.override)));
    const bad = planned.filter((_, i) => verdicts[i] !== 'refuted');
    cache.save();
    if (!bad.length) break;
    log(`${bad.length} variants were not refuted by verify(): ${bad.map((b) => `${b.handler}-v${b.index}`).join(', ')}; planning again`);
    if (bad.some((b) => !cache.get(VerdictCache.key(b.handler, b.variant.override)).full)) throw new Error('a verification crashed; run again');
  }
  const kernelVerdicts = await Promise.all(handlers.map((h) => full(h, '')));
  pool.close();
  cache.save();
  const wrong = handlers.filter((_, i) => kernelVerdicts[i] !== 'verified');
  if (wrong.length) throw new Error(`the oracle does not verify the kernel for ${wrong.join(', ')}`);

  const tasks: Task[] = [];
  for (const h of handlers) {
    tasks.push(await buildTask(KERNEL, kernel.program, h, 0));
    for (const p of planned.filter((x) => x.handler === h)) tasks.push(await buildTask(KERNEL, kernel.program, h, p.index, p.variant));
  }
  writeTasks(tasks, flags.seed);
  writeFileSync(join(ROOT, 'tasks/hv6/tasks.json'), tasksBundleText(ROOT));
  rmSync(scratch, { recursive: true, force: true });
  log(`wrote ${tasks.length} tasks (screened ${screens} new mutants, ${screenHits} from the cache)`);
  printDistribution(tasks);
}

function writeTasks(tasks: readonly Task[], seed: string): void {
  mkdirSync(TASK_DIR, { recursive: true });
  const keep = new Set(tasks.map((t) => `${t.id}.json`));
  for (const f of readdirSync(TASK_DIR)) if (f.endsWith('.json') && f !== 'index.json' && !keep.has(f)) rmSync(join(TASK_DIR, f));
  for (const t of tasks) writeFileSync(join(TASK_DIR, `${t.id}.json`), `${JSON.stringify(t, null, 1)}\n`);
  const index = {
    format: 1,
    seed,
    kernelHash: KERNEL.kernelHash,
    count: tasks.length,
    entries: tasks.map((t) => ({ id: t.id, handler: t.handler, bug_count: t.bug_count, bug_classes: t.bug_classes, hash: t.hash })),
  };
  writeFileSync(join(TASK_DIR, 'index.json'), `${JSON.stringify(index, null, 1)}\n`);
}

function printDistribution(tasks: readonly Task[]): void {
  const buggy = tasks.filter((t) => t.bug_count > 0);
  const byCount: Record<number, number> = {};
  for (const t of buggy) byCount[t.bug_count] = (byCount[t.bug_count] ?? 0) + 1;
  console.log('bug count  tasks  target');
  for (const [n, target] of Object.entries(COUNT_TARGETS)) console.log(`${n.padStart(9)}  ${String(byCount[Number(n)] ?? 0).padStart(5)}  ${String(target).padStart(6)}`);
  console.log('class                 tasks  target');
  for (const c of BUG_CLASSES) {
    const n = buggy.filter((t) => t.bug_classes.includes(c)).length;
    console.log(`${c.padEnd(20)}  ${String(n).padStart(5)}  ${String(CLASS_TARGETS[c]).padStart(6)}`);
  }
}

if (process.argv.includes('--worker')) {
  await worker();
} else {
  try {
    await main();
    process.exit(0);
  } catch (e) {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  }
}
