/**
 * Compare: the playground's spec set beside another spec of the same
 * handler by meaning (core/verify/equivalence.ts, run in the verifier
 * worker: VerifierApi.diff). The other spec is the reference, or a spec
 * pasted or opened from a file. Where the reference is hidden (a lesson
 * exercise that hides it), only whether they differ is said: no state,
 * no value and no text of the reference, since a distinguishing state
 * would show what the reference does.
 */
import type { DiffRequest, DiffVerdict } from '../../core/verify/equivalence.ts';

export type CompareWith = 'reference' | 'pasted';

export type CompareResult =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running' }
  | { readonly kind: 'done'; readonly verdict: DiffVerdict; readonly other: string; readonly hidden: boolean }
  | { readonly kind: 'error'; readonly message: string };

/** The size a pasted or opened spec may have (the CLI's cap for a spec file). */
const PASTED_CAP = 1 << 20;

export class SpecCompare {
  with = $state<CompareWith>('reference');
  pasted = $state('');
  result = $state.raw<CompareResult>({ kind: 'idle' });

  /** `run` asks the verifier worker (the page's pool) to compare. */
  constructor(private readonly run: (req: DiffRequest) => Promise<DiffVerdict>) {}

  /**
   * Compares `spec` (yours, side A) with the chosen other spec (side B).
   * `reference` undefined: the handler has none. `hidden`: say only whether
   * they differ.
   */
  async compare(handler: string, spec: string, reference: string | undefined, hidden: boolean, timeoutMs = 30_000): Promise<void> {
    const other = this.with === 'reference' ? reference : this.pasted;
    if (other === undefined) {
      this.result = { kind: 'error', message: `There is no reference spec for ${handler} yet: paste or open a spec to compare with.` };
      return;
    }
    if (!other.trim()) {
      this.result = { kind: 'error', message: 'Paste a spec, or open one from a file, to compare yours with.' };
      return;
    }
    if (other.length > PASTED_CAP) {
      this.result = { kind: 'error', message: `That spec is ${(other.length / 1048576).toFixed(1)} MiB; a spec may be at most 1 MiB.` };
      return;
    }
    const label = this.with === 'reference' ? 'Reference' : 'Pasted spec';
    const secret = this.with === 'reference' && hidden;
    this.result = { kind: 'running' };
    try {
      // A hidden reference's ghost note is not shown: no query for it.
      const verdict = await this.run({ handler, a: spec, b: other, timeoutMs, ...(secret ? { ghost: false } : {}) });
      this.result = { kind: 'done', verdict: secret ? withoutWitness(verdict) : verdict, other: label, hidden: secret };
    } catch (e) {
      this.result = { kind: 'error', message: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Reads a spec file the user opened into the pasted text. */
  async open(file: File): Promise<void> {
    if (file.size > PASTED_CAP) {
      this.result = { kind: 'error', message: `${file.name} is ${(file.size / 1048576).toFixed(1)} MiB; a spec may be at most 1 MiB.` };
      return;
    }
    this.pasted = await file.text();
    this.with = 'pasted';
  }
}

/**
 * The verdict with nothing of the hidden reference left: its status alone
 * (a spec error in the reference would be ours, not the learner's).
 */
function withoutWitness(v: DiffVerdict): DiffVerdict {
  if (v.status === 'different') return { ...v, witness: { args: [], condA: null, condB: null, fields: [], rows: [], context: [], replayed: v.witness.replayed } };
  if (v.status === 'spec-error' && v.side === 'b') return { status: 'unknown', reason: 'the reference could not be compared', ms: v.ms, queries: v.queries };
  if (v.status === 'equivalent') return { ...v, ghost: { kind: 'not-checked' } };
  return v;
}
