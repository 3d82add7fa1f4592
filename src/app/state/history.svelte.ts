/**
 * The playground's history as the page shows it: every Verify kept
 * (lib/history-db.ts), searched by title, handler or spec text; a version
 * restored into the editor; two versions compared as text (Monaco's diff
 * editor) and by meaning (VerifierApi.diff in the verifier worker);
 * exported to a file and imported from one.
 */
import type { DiffRequest, DiffVerdict } from '../../core/verify/equivalence.ts';
import type { VerdictStatus } from '../../core/verify/verdict.ts';
import { HISTORY_FORMAT, HistoryStorageError, history } from '../lib/history-db.ts';
import type { HistoryEntry } from '../lib/storage.ts';

const STATUSES: ReadonlySet<string> = new Set(['verified', 'refuted', 'spec-error', 'timeout', 'unknown']);

export class SpecHistory {
  entries = $state.raw<readonly HistoryEntry[]>([]);
  query = $state('');
  /** The storage's last error in words (full, blocked), or ''. */
  error = $state('');
  /** Up to two entries picked for a diff (ids). */
  picked = $state<number[]>([]);
  meaning = $state.raw<{ kind: 'idle' } | { kind: 'running' } | { kind: 'done'; verdict: DiffVerdict; labels: [string, string] } | { kind: 'error'; message: string }>({ kind: 'idle' });

  readonly shown = $derived.by(() => {
    const q = this.query.trim().toLowerCase();
    return q ? this.entries.filter((e) => e.title.toLowerCase().includes(q) || e.handler.includes(q) || e.spec.toLowerCase().includes(q)) : this.entries;
  });
  readonly pair = $derived(this.picked.length === 2 ? this.picked.map((id) => this.entries.find((e) => e.id === id)).filter((e): e is HistoryEntry => !!e) : []);

  constructor(private readonly run: (req: DiffRequest) => Promise<DiffVerdict>) {}

  async load(): Promise<void> {
    await this.guard(async () => (this.entries = await history.all()));
  }

  /** Keeps one Verify. */
  async record(e: { handler: string; variant: string; spec: string; status: VerdictStatus; at: number }): Promise<void> {
    const title = `${e.handler} ${e.status} ${new Date(e.at).toLocaleTimeString()}`;
    await this.guard(async () => {
      await history.add({ ...e, title });
      this.entries = await history.all();
    });
  }

  async rename(id: number, title: string): Promise<void> {
    await this.guard(async () => {
      await history.rename(id, title.slice(0, 200));
      this.entries = await history.all();
    });
  }

  pick(id: number): void {
    this.picked = this.picked.includes(id) ? this.picked.filter((x) => x !== id) : [...this.picked, id].slice(-2);
    this.meaning = { kind: 'idle' };
  }

  /** The meaning diff of the two picked versions (older first); both must be of one handler. */
  async compare(): Promise<void> {
    const [x, y] = [...this.pair].sort((a, b) => a.at - b.at);
    if (!x || !y) return;
    if (x.handler !== y.handler) {
      this.meaning = { kind: 'error', message: `The two versions are of different handlers (${x.handler}, ${y.handler}): only specs of one handler can be compared.` };
      return;
    }
    this.meaning = { kind: 'running' };
    try {
      this.meaning = { kind: 'done', verdict: await this.run({ handler: x.handler, a: x.spec, b: y.spec, timeoutMs: 30_000 }), labels: ['Older', 'Newer'] };
    } catch (e) {
      this.meaning = { kind: 'error', message: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The meaning diff of your spec (A) and the one picked version (B). */
  async compareWith(spec: string, handler: string): Promise<void> {
    const [x] = this.picked.map((id) => this.entries.find((e) => e.id === id)).filter((e): e is HistoryEntry => !!e);
    if (!x) return;
    if (x.handler !== handler) {
      this.meaning = { kind: 'error', message: `That version is of ${x.handler}, your spec of ${handler}: only specs of one handler can be compared.` };
      return;
    }
    this.meaning = { kind: 'running' };
    try {
      this.meaning = { kind: 'done', verdict: await this.run({ handler, a: spec, b: x.spec, timeoutMs: 30_000 }), labels: ['Your spec', 'That version'] };
    } catch (e) {
      this.meaning = { kind: 'error', message: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The whole history as one file's text. */
  exportText(): string {
    return JSON.stringify({ format: HISTORY_FORMAT, v: 1, entries: this.entries.map(({ id: _id, ...rest }) => rest) });
  }

  /** Adds a file's entries (all or none); says why a file is refused. */
  async importText(text: string): Promise<void> {
    let entries: HistoryEntry[];
    try {
      const o = JSON.parse(text) as { format?: unknown; entries?: unknown };
      if (o.format !== HISTORY_FORMAT || !Array.isArray(o.entries)) throw new Error('not a history file');
      entries = o.entries.map((x) => {
        const e = x as Record<string, unknown>;
        if (typeof e.handler !== 'string' || typeof e.spec !== 'string' || typeof e.at !== 'number' || !STATUSES.has(e.status as string)) throw new Error('an entry is damaged');
        return { handler: e.handler, variant: typeof e.variant === 'string' ? e.variant : '', spec: e.spec, status: e.status as VerdictStatus, at: e.at, title: typeof e.title === 'string' ? e.title.slice(0, 200) : e.handler };
      });
    } catch (e) {
      this.error = `That file is not an OSVLab history file (${e instanceof Error ? e.message : String(e)}): nothing was imported.`;
      return;
    }
    await this.guard(async () => {
      await history.addAll(entries);
      this.entries = await history.all();
    });
  }

  private async guard(f: () => Promise<unknown>): Promise<void> {
    try {
      await f();
      this.error = '';
    } catch (e) {
      this.error = e instanceof HistoryStorageError ? e.message : `The history could not be read or written: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
}
