/**
 * The Evaluate page's live view of a running run: the status of each attempt
 * (the attempts table), their counts, and the ETA from the rates measured in
 * this session.
 */
import type { AttemptEvent, RunProgress } from '../../core/eval/run/runner.ts';

/** What the attempts table shows for one attempt while a run is live. */
export interface AttemptStatus {
  readonly id: string;
  readonly taskId: string;
  readonly sample: number;
  readonly round: number;
  readonly state: 'sent' | 'retrying' | 'answered' | 'failed' | 'grading' | 'graded' | 'cancelled';
  /** A graded attempt's outcome ("pass", "semantic", ...). */
  readonly outcome?: string;
  /** The reason and wait of a retry, the provider's error message, the grade, "from cache". */
  readonly detail: string;
  readonly cached: boolean;
  readonly sentAt?: number;
  /** When a retrying attempt sends again. */
  readonly retryAt?: number;
}

/** Measured rates of this session, for the ETA. */
interface Rates {
  answers: number;
  answerMs: number;
  grades: number;
  gradeMs: number;
}

const noRates = (): Rates => ({ answers: 0, answerMs: 0, grades: 0, gradeMs: 0 });

export class AttemptsTable {
  /** Live status of each attempt of the running run, newest activity first in `list`. */
  attempts = $state<Record<string, AttemptStatus>>({});
  /** Ticks once a second while a run is live (retry countdowns, ETA). */
  now = $state(Date.now());
  private rates: Rates = noRates();
  private ticker?: ReturnType<typeof setInterval>;
  private gradeConcurrency = 1;
  private requestConcurrency = 1;

  readonly list = $derived(Object.values(this.attempts).sort((a, b) => (b.sentAt ?? 0) - (a.sentAt ?? 0)));
  readonly counts = $derived.by(() => {
    const c = { sent: 0, retrying: 0, answered: 0, failed: 0, grading: 0, graded: 0, cancelled: 0, cached: 0, passing: 0 };
    for (const a of Object.values(this.attempts)) {
      c[a.state]++;
      if (a.cached) c.cached++;
      if (a.outcome === 'pass') c.passing++;
    }
    return c;
  });

  /** Starts the view of a run sending `requestConcurrency` requests and grading `gradeConcurrency` answers at once: no attempts, no rates, the clock ticking. */
  start(requestConcurrency: number, gradeConcurrency: number): void {
    this.attempts = {};
    this.rates = noRates();
    this.requestConcurrency = requestConcurrency;
    this.gradeConcurrency = gradeConcurrency;
    clearInterval(this.ticker);
    this.ticker = setInterval(() => (this.now = Date.now()), 1000);
  }

  /**
   * The run ended with `status`: the clock stops, and unless the run is done,
   * every attempt still under way is marked as stopped (a request in flight is
   * abandoned, an answer not graded yet is graded on resume), so nothing reads
   * as if it were still waiting.
   */
  stop(status = 'done'): void {
    clearInterval(this.ticker);
    if (status === 'done') return;
    const why = status === 'cancelled' ? 'cancelled' : `stopped (the run ${status})`;
    const next = { ...this.attempts };
    for (const a of Object.values(next)) {
      if (a.state === 'graded' || a.state === 'failed' || a.state === 'cancelled') continue;
      const left = a.state === 'answered' || a.state === 'grading' ? 'answered, not graded: Resume grades it' : 'no answer: Resume sends it again';
      next[a.id] = { ...a, state: 'cancelled', detail: `${why}; ${left}`, retryAt: undefined };
    }
    this.attempts = next;
  }

  /**
   * ETA (ms) of a run at `p` from the rates measured in this session: the
   * runner's chain pace once a chain has finished, before that the measured
   * answer latency and grading time spread over the requests and graders at
   * work.
   */
  eta(p: RunProgress | undefined): number | null {
    if (!p) return null;
    if (p.etaMs !== null) return p.etaMs;
    const r = this.rates;
    void this.now;
    if (r.answers === 0) return null;
    const remaining = p.total - p.done;
    const perAnswer = r.answerMs / r.answers / this.requestConcurrency;
    const perGrade = r.grades ? r.gradeMs / r.grades / this.gradeConcurrency : perAnswer;
    return Math.round(remaining * Math.max(perAnswer, perGrade) + Math.min(perAnswer, perGrade));
  }

  /** Folds one runner event into the table and the measured rates. */
  fold(e: AttemptEvent): void {
    const prev = this.attempts[e.id];
    const base = { id: e.id, taskId: e.taskId, sample: e.sample, round: e.round, cached: prev?.cached ?? false, sentAt: prev?.sentAt };
    let next: AttemptStatus;
    switch (e.kind) {
      case 'sent':
        next = { ...base, state: 'sent', detail: 'waiting for the answer', sentAt: e.at };
        break;
      case 'retrying':
        next = { ...base, state: 'retrying', detail: `retry ${e.retry} in ${(e.waitMs / 1000).toFixed(1)} s after ${e.reason}`, retryAt: e.at + e.waitMs };
        break;
      case 'answered':
        if (!e.cached) {
          this.rates.answers++;
          this.rates.answerMs += base.sentAt !== undefined ? e.at - base.sentAt : e.latencyMs;
        }
        next = {
          ...base,
          state: 'answered',
          cached: e.cached,
          detail: e.cached ? 'from the response cache (not sent, not charged)' : `${e.tokens.input}/${e.tokens.output} tokens in ${e.latencyMs} ms`,
        };
        break;
      case 'failed':
        next = { ...base, state: 'failed', detail: `${e.code}: ${e.message}` };
        break;
      case 'grading':
        next = { ...base, state: 'grading', detail: prev?.cached ? 'from the response cache; verifying' : 'verifying' };
        break;
      case 'graded':
        this.rates.grades++;
        this.rates.gradeMs += e.ms;
        // The verifier's own time: the wait for a worker (Z3 loading) is not the answer's.
        next = { ...base, state: 'graded', outcome: e.category, detail: `${e.category}${e.reason ? `: ${e.reason}` : ''}${prev?.cached ? ' (cached answer)' : ''} · verified in ${(e.ms / 1000).toFixed(1)} s` };
        break;
    }
    this.attempts[e.id] = next;
  }
}
