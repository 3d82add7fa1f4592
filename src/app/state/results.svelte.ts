/**
 * The Results page of a published site (docs/publish.md): the runs its
 * index lists, each read and checked against the manifest as it arrives
 * (an answer whose hash differs is flagged altered before anything is
 * graded), sorted as the reader asks; Re-verify grades a row's answers, or
 * every row's one row after another, with the page's verifier pool, with
 * progress and Cancel, and keeps each row's verdict (core/eval/publish/reverify.ts,
 * the same as `osvlab publish --check`). The runs are held in memory, never
 * put in this browser's run store.
 */
import { type Opened, type RowVerdict, type SiteReverification, reverifySite, openPublishedRun, reverifyPublishedRun } from '../../core/eval/publish/reverify.ts';
import { type FigureId, figureValue, rowFacts } from '../../core/eval/publish/figures.ts';
import { type Manifest, parseManifest } from '../../core/eval/publish/manifest.ts';
import { MANIFEST_PATH, type SiteIndex, parseSiteIndex } from '../../core/eval/publish/site.ts';
import { formatValidationErrors } from '../../core/eval/files/run-file.ts';
import { RegradeCancelledError } from '../../core/eval/session/regrade.ts';
import { computeMetrics } from '../../core/eval/stats/metrics.ts';
import { publishedIndex } from '../lib/published.ts';
import type { LoadedRun } from './runs.svelte.ts';
import { taskCatalog } from './taskdb.svelte.ts';
import { verifier } from './verifier.svelte.ts';

/** Where a row's re-verification stands. */
export type RowCheck =
  | { readonly kind: 'idle' }
  | { readonly kind: 'queued' }
  | { readonly kind: 'running'; readonly done: number; readonly total: number }
  | { readonly kind: 'done'; readonly verdict: RowVerdict }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly message: string };

export interface ResultRow {
  readonly id: string;
  readonly opened: Opened;
  readonly check: RowCheck;
}

/** The columns the table sorts by: a row fact, or a cell's figure. */
export type SortKey = 'run' | 'n' | 'tasks' | 'provider' | 'prompt' | 'shots' | 'feedback' | 'repairs' | FigureId;

/** The keys that sort as text, A to Z first; the others are numbers, and figures sort best first. */
const TEXT_KEYS: readonly SortKey[] = ['run', 'provider', 'prompt', 'feedback'];

export type Loading =
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready' }
  /** This site publishes no results (the app's own site). */
  | { readonly kind: 'absent' }
  | { readonly kind: 'failed'; readonly message: string };

/** A path of the site, fetched as bytes; a failure says which file and why. */
async function fetchBytes(path: string): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(path);
  } catch (e) {
    throw new Error(`${path} could not be fetched (${e instanceof Error ? e.message : String(e)}); offline before the site was first opened?`);
  }
  if (!res.ok) throw new Error(`${path}: the server answered ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** Why this page cannot re-verify (the verifier's own words), or undefined when it can, as far as is known yet. */
function cannotVerify(): string | undefined {
  const s = verifier.status;
  if (s.kind === 'failed') return `Z3 could not start: ${s.message}`;
  if (s.kind === 'unavailable' || s.kind === 'no-isolation') return s.message;
  if (!verifier.isolated) return 'This page is not cross-origin isolated, so Z3 cannot run here (see the notice at the top).';
  return undefined;
}

class ResultsState {
  loading = $state.raw<Loading>({ kind: 'loading' });
  index = $state.raw<SiteIndex | undefined>(undefined);
  site = $state.raw<SiteReverification | undefined>(undefined);
  rows = $state.raw<readonly ResultRow[]>([]);
  sort = $state.raw<{ readonly key: SortKey; readonly descending: boolean } | undefined>(undefined);
  /** Run ids ticked for the paired comparison, in the order they were ticked (at most two). */
  pair = $state.raw<readonly string[]>([]);
  /** A re-verification of one or more rows is under way. */
  running = $state(false);
  /** Why the last Re-verify could not start. */
  problem = $state('');
  private manifest: Manifest | undefined;
  private controller: AbortController | undefined;
  private started = false;

  /** Reads the index, the manifest and every run file, once. */
  async load(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const path = publishedIndex();
    if (!path) {
      this.loading = { kind: 'absent' };
      return;
    }
    try {
      const [indexBytes, manifestBytes] = await Promise.all([fetchBytes(path), fetchBytes(MANIFEST_PATH)]);
      const idx = parseSiteIndex(decode(indexBytes));
      if (!idx.ok) throw new Error(`${path} is not a site index:\n${formatValidationErrors(idx.errors)}`);
      const man = parseManifest(decode(manifestBytes));
      if (!man.ok) throw new Error(`${MANIFEST_PATH} is not a manifest:\n${formatValidationErrors(man.errors)}`);
      this.index = idx.index;
      this.manifest = man.manifest;
      this.site = await reverifySite(indexBytes, idx.index, man.manifest);
      this.rows = await Promise.all(
        idx.index.runs.map(async (entry): Promise<ResultRow> => {
          let opened: Opened;
          try {
            opened = await openPublishedRun(entry, await fetchBytes(entry.file), man.manifest);
          } catch (e) {
            opened = { ok: false, entry, message: e instanceof Error ? e.message : String(e) };
          }
          return { id: entry.id, opened, check: { kind: 'idle' } };
        }),
      );
      this.loading = { kind: 'ready' };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // crypto.subtle exists only in secure contexts (HTTPS, localhost).
      this.loading = { kind: 'failed', message: typeof crypto === 'undefined' || !crypto.subtle ? `${message} This page is not a secure context (HTTPS or localhost), so it cannot check hashes.` : message };
    }
  }

  /** Why this browser cannot re-verify, once that is known (Z3 unavailable, no isolation); undefined otherwise. */
  get blocked(): string | undefined {
    return cannotVerify();
  }

  /** The rows in the order the reader chose (the index's order until a column is clicked). */
  get sorted(): readonly ResultRow[] {
    const s = this.sort;
    if (!s) return this.rows;
    const key = (r: ResultRow): string | number | null => {
      if (!r.opened.ok) return null;
      const f = rowFacts(r.opened.run.file.run);
      switch (s.key) {
        case 'run':
          return f.name;
        case 'n':
          return f.n;
        case 'tasks':
          return f.tasks;
        case 'provider':
          return `${f.provider} ${f.host}`;
        case 'prompt':
          return f.prompt;
        case 'shots':
          return f.shots;
        case 'feedback':
          return f.feedback;
        case 'repairs':
          return f.repairRounds;
        default:
          return figureValue(r.check.kind === 'done' ? r.check.verdict.derived : r.opened.run.figures, s.key);
      }
    };
    // Rows without a value go last either way.
    return [...this.rows].sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return s.descending ? -c : c;
    });
  }

  /** Sorts by `key`; the same key again reverses the order. Text sorts A to Z first, numbers and figures highest first. */
  sortBy(key: SortKey): void {
    this.sort = this.sort?.key === key ? { key, descending: !this.sort.descending } : { key, descending: !TEXT_KEYS.includes(key) };
  }

  /** Sorts by `key` in its first order, whatever the order was (the phone layout's "Sort by" list). */
  sortFirstBy(key: SortKey): void {
    this.sort = { key, descending: !TEXT_KEYS.includes(key) };
  }

  /** Reverses the order of the rows' sort. */
  reverse(): void {
    if (this.sort) this.sort = { ...this.sort, descending: !this.sort.descending };
  }

  /** Ticks or unticks a row for the comparison; a third tick replaces the older of two. */
  togglePair(id: string): void {
    this.pair = this.pair.includes(id) ? this.pair.filter((x) => x !== id) : [...this.pair, id].slice(-2);
  }

  /** The two ticked rows as the compare view takes runs, A first. */
  get compared(): readonly [LoadedRun, LoadedRun] | undefined {
    const runs = this.pair.map((id) => this.rows.find((r) => r.id === id)).map((r) => (r?.opened.ok ? r.opened.run : undefined));
    if (runs.length !== 2 || !runs[0] || !runs[1]) return undefined;
    const loaded = (o: NonNullable<(typeof runs)[number]>): LoadedRun => {
      const { run, attempts, tasks } = o.file;
      return { run, attempts, metrics: computeMetrics(tasks, attempts, { n: run.config.n, rounds: run.config.repairRounds }) };
    };
    return [loaded(runs[0]), loaded(runs[1])];
  }

  private setCheck(id: string, check: RowCheck): void {
    this.rows = this.rows.map((r) => (r.id === id ? { ...r, check } : r));
  }

  /**
   * Re-verifies rows `ids` one after another (each row's answers go to the
   * pool together). Cancel stops the row under way and the rows queued.
   */
  async reverify(ids: readonly string[]): Promise<void> {
    if (this.running) return;
    this.problem = '';
    const why = cannotVerify();
    if (why) {
      this.problem = `Nothing can be re-verified in this browser. ${why}`;
      return;
    }
    const todo = ids.filter((id) => this.rows.find((r) => r.id === id)?.opened.ok);
    if (todo.length === 0) return;
    this.running = true;
    const controller = (this.controller = new AbortController());
    for (const id of todo) this.setCheck(id, { kind: 'queued' });
    try {
      // warm() returns at once while Z3 is already loading; settled waits for the load either way.
      void verifier.warm();
      await Promise.all([verifier.settled, taskCatalog.load()]);
      if (verifier.status.kind !== 'ready') {
        // Without Z3 every answer would grade `internal`, and every cell read as changed.
        this.problem = `Nothing can be re-verified in this browser. ${cannotVerify() ?? `Z3 is not ready (${verifier.status.kind}).`}`;
        for (const id of todo) this.setCheck(id, { kind: 'idle' });
        return;
      }
      const ports = { tasks: taskCatalog.tasks, grader: verifier.grade.bind(verifier) };
      for (const id of todo) {
        const row = this.rows.find((r) => r.id === id);
        if (!row?.opened.ok) continue;
        if (controller.signal.aborted) {
          this.setCheck(id, { kind: 'cancelled' });
          continue;
        }
        this.setCheck(id, { kind: 'running', done: 0, total: row.opened.run.file.attempts.filter((a) => a.response).length });
        try {
          const verdict = await reverifyPublishedRun(row.opened.run, ports, { signal: controller.signal, onProgress: (done, total) => this.setCheck(id, { kind: 'running', done, total }) });
          this.setCheck(id, { kind: 'done', verdict });
        } catch (e) {
          this.setCheck(id, e instanceof RegradeCancelledError ? { kind: 'cancelled' } : { kind: 'failed', message: e instanceof Error ? e.message : String(e) });
        }
      }
    } finally {
      this.running = false;
      this.controller = undefined;
    }
  }

  reverifyAll(): Promise<void> {
    return this.reverify(this.sorted.map((r) => r.id));
  }

  /** Stops the re-verification under way: the gradings queued and running are cancelled. */
  cancel(): void {
    this.controller?.abort();
  }
}

export const results = new ResultsState();
