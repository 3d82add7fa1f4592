/**
 * Runs grouped by meaning (docs/research.md, "Determinism"): each task's
 * first answers put into classes of equivalent specs (verify/equivalence.ts),
 * and two run-level figures:
 *
 * - `mean_largest_share`: the mean over tasks of the share of the task's
 *   samples in its largest class (1: every sample means the same);
 * - `consensus_pass_at_1`: the share of tasks whose largest class passes,
 *   i.e. the pass rate when each task's answer is taken from its most
 *   common behaviour, with no oracle.
 *
 * Tie rule: of classes of equal size, the largest is the one whose first
 * sample (lowest sample index) came first. It never looks at whether a
 * class passes, as a pick without an oracle cannot.
 *
 * What is known is reused: every passing sample refines the kernel, so all
 * passing samples are one class with no query (equivalent specs refine the
 * same implementations), and no failing sample can join it. A failing
 * sample is compared with the representative (first sample) of each failing
 * class, the same text needing no query, so it costs at most (classes - 1)
 * queries. A sample with no spec that runs (a `syntax` grade) has no
 * meaning to compare: it is a class of its own, shared only with samples of
 * the very same text. A comparison the solver cannot decide leaves the
 * sample in a class of its own, marked `undecided`: never merged on a guess.
 */
import { ascending, interpolated } from '../../quantile.ts';
import type { DiffVerdict, DiffWitness } from '../../verify/equivalence.ts';
import type { AttemptRecord } from '../run/run-types.ts';
import { UNCHARGED, attemptOutcome } from './outcome.ts';

/** One first answer of a task, as grouping needs it. */
export interface MeaningSample {
  readonly sample: number;
  /** The extracted spec; null when none was extracted. */
  readonly spec: string | null;
  /** Refinement against the correct implementation is proved (a `pass` grade). */
  readonly passes: boolean;
  /** The spec runs (not a `syntax` grade). */
  readonly runs: boolean;
}

/** Compares two specs of the task's handler by meaning, with no ghost note. */
export type CompareSpecs = (a: string, b: string) => Promise<DiffVerdict>;

/** A distinguishing state against the largest class: A is the largest class's representative, B this class's. */
export type AgainstLargest = Pick<DiffWitness, 'args' | 'condA' | 'condB' | 'fields' | 'rows' | 'replayed'>;

export interface MeaningClass {
  /** Sample indexes, ascending; the first is the representative. */
  readonly samples: number[];
  readonly passes: boolean;
  /** False: no spec that runs (a syntax grade), so no meaning was compared. */
  readonly runs: boolean;
  /** Some comparison that would have placed a sample here was undecided (timeout or unknown). */
  readonly undecided?: true;
  /** Where it differs from the largest class (absent for the largest, and where either has no spec that runs or it was undecided). */
  readonly against_largest?: AgainstLargest;
}

export interface TaskMeaning {
  readonly task: string;
  /** Largest first (the tie rule above), then by first sample. */
  readonly classes: readonly MeaningClass[];
  /** Equivalence queries asked for this task, and each one's time (ms). */
  readonly queries: number;
  readonly queryMs: readonly number[];
}

export interface Determinism {
  readonly tasks: readonly TaskMeaning[];
  readonly mean_largest_share: number;
  readonly consensus_pass_at_1: number;
  /** All tasks' equivalence queries, and their median time (ms; 0 for none). */
  readonly queries: number;
  readonly median_query_ms: number;
}

interface Building {
  samples: number[];
  spec: string | null;
  passes: boolean;
  runs: boolean;
  undecided?: true;
}

/** The classes of one task's samples (module comment: what is reused, the tie rule). */
export async function groupTask(task: string, samples: readonly MeaningSample[], compare: CompareSpecs): Promise<TaskMeaning> {
  const classes: Building[] = [];
  const queryMs: number[] = [];
  /** Witnesses between representatives, by `${i}:${j}` (class indexes, A = i). */
  const witnesses = new Map<string, DiffWitness>();
  const ask = async (a: string, b: string): Promise<DiffVerdict> => {
    const v = await compare(a, b);
    if (v.queries > 0) queryMs.push(v.ms);
    return v;
  };
  for (const s of [...samples].sort((x, y) => x.sample - y.sample)) {
    const same = classes.find((c) => c.spec !== null && c.spec === s.spec && c.runs === s.runs);
    if (same) {
      same.samples.push(s.sample);
      continue;
    }
    if (!s.runs || s.spec === null) {
      classes.push({ samples: [s.sample], spec: s.spec, passes: false, runs: false });
      continue;
    }
    if (s.passes) {
      const passing = classes.find((c) => c.passes);
      if (passing) passing.samples.push(s.sample);
      else classes.push({ samples: [s.sample], spec: s.spec, passes: true, runs: true });
      continue;
    }
    let home: Building | undefined;
    let undecided = false;
    const found: [number, DiffWitness][] = [];
    for (const [i, c] of classes.entries()) {
      if (c.passes || !c.runs) continue;
      const v = await ask(c.spec!, s.spec);
      if (v.status === 'equivalent') {
        home = c;
        break;
      }
      if (v.status === 'different') found.push([i, v.witness]);
      else undecided = true;
    }
    if (home) {
      home.samples.push(s.sample);
      continue;
    }
    const at = classes.length;
    for (const [i, w] of found) witnesses.set(`${i}:${at}`, w);
    classes.push({ samples: [s.sample], spec: s.spec, passes: false, runs: true, ...(undecided ? { undecided: true as const } : {}) });
  }
  const order = classes.map((_, i) => i).sort((i, j) => classes[j].samples.length - classes[i].samples.length || classes[i].samples[0] - classes[j].samples[0]);
  const largest = order[0];
  const out: MeaningClass[] = [];
  for (const i of order) {
    const c = classes[i];
    const base: MeaningClass = { samples: c.samples, passes: c.passes, runs: c.runs, ...(c.undecided ? { undecided: true as const } : {}) };
    if (i === largest || !c.runs || largest === undefined || !classes[largest].runs) {
      out.push(base);
      continue;
    }
    let w = witnesses.get(`${largest}:${i}`);
    const reversed = witnesses.get(`${i}:${largest}`);
    if (!w && reversed) w = swap(reversed);
    // A passing class and a failing one were never compared (they differ): one query says where.
    if (!w && (c.passes || classes[largest].passes)) {
      const v = await ask(classes[largest].spec!, c.spec!);
      if (v.status === 'different') w = v.witness;
    }
    out.push(w ? { ...base, against_largest: brief(w) } : base);
  }
  return { task, classes: out, queries: queryMs.length, queryMs };
}

/** The witness with A and B exchanged. */
function swap(w: DiffWitness): DiffWitness {
  return { ...w, condA: w.condB, condB: w.condA, rows: w.rows.map((r) => ({ ...r, a: r.b, b: r.a })) };
}

function brief(w: DiffWitness): AgainstLargest {
  return { args: w.args, condA: w.condA, condB: w.condB, fields: w.fields, rows: w.rows, replayed: w.replayed };
}

/** The run-level figures of grouped tasks (tasks with no sample are left out). */
export function determinismOf(tasks: readonly TaskMeaning[]): Determinism {
  const counted = tasks.filter((t) => t.classes.length > 0);
  const size = (t: TaskMeaning) => t.classes.reduce((n, c) => n + c.samples.length, 0);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const all = tasks.flatMap((t) => t.queryMs);
  return {
    tasks,
    mean_largest_share: mean(counted.map((t) => t.classes[0].samples.length / size(t))),
    consensus_pass_at_1: mean(counted.map((t) => (t.classes[0].passes ? 1 : 0))),
    queries: all.length,
    median_query_ms: all.length ? interpolated(ascending(all), 0.5) : 0,
  };
}

/** How attempts are grouped: by task (a run's samples), or by handler (one answer per variant shown). */
export interface GroupingKey {
  /** The group an attempt belongs to (its task id, or its handler). */
  readonly key: (a: AttemptRecord) => string;
  /** The attempt's index inside its group (its sample, or its variant's place). */
  readonly sampleOf: (a: AttemptRecord) => number;
}

export const BY_TASK: GroupingKey = { key: (a) => a.taskId, sampleOf: (a) => a.sample };

/**
 * Groups a run's first answers (round 0) that the model is charged for
 * (pass, syntax, semantic, timeout, unknown; not unanswered or internal),
 * group by group in key order. `compareFor(key)` compares two specs of that
 * group's handler.
 */
export async function groupAttempts(attempts: readonly AttemptRecord[], by: GroupingKey, compareFor: (key: string) => CompareSpecs): Promise<Determinism> {
  const groups = new Map<string, MeaningSample[]>();
  for (const a of attempts) {
    if (a.round !== 0) continue;
    const outcome = attemptOutcome(a);
    if (outcome === undefined || (UNCHARGED as readonly string[]).includes(outcome)) continue;
    const g = a.grade!;
    const list = groups.get(by.key(a)) ?? [];
    list.push({ sample: by.sampleOf(a), spec: g.extracted, passes: outcome === 'pass', runs: outcome !== 'syntax' && g.extracted !== null });
    groups.set(by.key(a), list);
  }
  const tasks: TaskMeaning[] = [];
  for (const key of [...groups.keys()].sort()) tasks.push(await groupTask(key, groups.get(key)!, compareFor(key)));
  return determinismOf(tasks);
}
