/**
 * OSVBench's benchmark file (`benchmark.json`, upstream's or ours from
 * `osvlab tasks --format osvbench`) read for what it says about each task
 * index: its syscall, its bug-class labels and its bug count. With it, a run
 * graded from a results file gets the per-class table counted as upstream's
 * statistics count it: a class's tasks are those whose `bug_type` holds the
 * class's label exactly, so upstream's misspelled labels ("mmeory leak",
 * "buffer overlfow") are in no class; the table is also given with the
 * misspellings read as the labels they mean (docs/osvbench.md).
 */
import type { InputProblem } from './osvbench.ts';

/** What the benchmark file says about one task index. */
export interface BenchmarkEntry {
  readonly index: number;
  readonly syscall: string;
  /** The labels of `bug_type`, as written (empty for a correct implementation). */
  readonly labels: readonly string[];
  readonly bugCount: number;
}

export interface BenchmarkFile {
  readonly entries: readonly BenchmarkEntry[];
  /** Accepted, with a warning (a trailing comma, a misspelled label). */
  readonly warnings: readonly InputProblem[];
}

/** The labels upstream's statistics count, in its order. */
const UPSTREAM_CLASS_LABELS = ['incorrect pointer', 'incorrect privilege', 'memory leak', 'buffer overflow', 'bounds checking'] as const;

/** Upstream's misspelled labels and the label each means. */
const MISSPELLED_LABELS: Readonly<Record<string, (typeof UPSTREAM_CLASS_LABELS)[number]>> = {
  'mmeory leak': 'memory leak',
  'buffer overlfow': 'buffer overflow',
};

/** A benchmark file that cannot be read at all. */
export class BenchmarkFileError extends Error {
  constructor(
    readonly code: 'BENCH001' | 'BENCH002',
    readonly line: number,
    message: string,
  ) {
    super(`${code} ${line ? `line ${line}: ` : ''}${message}`);
    this.name = 'BenchmarkFileError';
  }
}

/** The text with each comma that stands right before a closing `}` or `]` removed (outside strings), and the lines they were on. */
function dropTrailingCommas(text: string): { text: string; lines: number[] } {
  let out = '';
  const lines: number[] = [];
  let line = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ',') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j])) j++;
      if (text[j] === '}' || text[j] === ']') {
        lines.push(line);
        continue;
      }
    }
    out += c;
  }
  return { text: out, lines };
}

/** Reads a benchmark file; a trailing comma is accepted with a warning naming its line. */
export function parseBenchmarkFile(text: string): BenchmarkFile {
  const warnings: InputProblem[] = [];
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let doc: unknown;
  try {
    doc = JSON.parse(t);
  } catch {
    const fixed = dropTrailingCommas(t);
    try {
      doc = JSON.parse(fixed.text);
    } catch (e) {
      throw new BenchmarkFileError('BENCH001', 0, `the benchmark file is not valid JSON (${(e as Error).message})`);
    }
    for (const l of fixed.lines) warnings.push({ code: 'BENCH003', line: l, message: 'a trailing comma before a closing bracket (not JSON; read as if it were not there)' });
  }
  if (!Array.isArray(doc)) throw new BenchmarkFileError('BENCH002', 1, 'a benchmark file is a JSON list of tasks ({"syscall": ..., "bug_type": ..., "bug_num": ...})');
  const entries: BenchmarkEntry[] = [];
  const misspelled = new Set<string>();
  doc.forEach((v, index) => {
    if (typeof v !== 'object' || v === null || typeof (v as { syscall?: unknown }).syscall !== 'string') {
      throw new BenchmarkFileError('BENCH002', 0, `task ${index} is not an object with a "syscall" string`);
    }
    const o = v as { syscall: string; bug_type?: unknown; bug_num?: unknown };
    const labels = typeof o.bug_type === 'string' ? o.bug_type.split(',').map((s) => s.trim()).filter((s) => s !== '') : [];
    for (const l of labels) if (Object.hasOwn(MISSPELLED_LABELS, l)) misspelled.add(l);
    const n = Number(o.bug_num);
    entries.push({ index, syscall: o.syscall, labels, bugCount: Number.isInteger(n) && n > 0 ? n : 0 });
  });
  for (const l of misspelled) {
    warnings.push({ code: 'BENCH004', line: 0, message: `the label "${l}" (for "${MISSPELLED_LABELS[l]}") is misspelled: upstream's statistics do not count it; the class table is given both ways` });
  }
  return { entries, warnings };
}

/** One row of the class table: a label's tasks and their first answers. */
export interface ClassRow {
  readonly label: string;
  readonly tasks: number;
  readonly samples: number;
  readonly passes: number;
}

export interface ClassTable {
  /** As upstream's statistics count (misspelled labels in no class). */
  readonly asUpstream: readonly ClassRow[];
  /** With the misspelled labels read as the labels they mean. */
  readonly corrected: readonly ClassRow[];
  /** Results whose index the benchmark file does not have. */
  readonly unmatched: number;
}

/**
 * The class table of `results` (task index and whether the first answer
 * passed, in OSVBench's categories). `correct` is the row of the tasks
 * without bugs.
 */
export function classTable(benchmark: BenchmarkFile, results: readonly { readonly index: number; readonly pass: boolean }[]): ClassTable {
  const byIndex = new Map(benchmark.entries.map((e) => [e.index, e]));
  const rows = (corrected: boolean): ClassRow[] => {
    const labels = ['correct', ...UPSTREAM_CLASS_LABELS];
    const acc = new Map(labels.map((l) => [l, { tasks: new Set<number>(), samples: 0, passes: 0 }]));
    for (const r of results) {
      const e = byIndex.get(r.index);
      if (!e) continue;
      const own = e.labels.length === 0 ? ['correct'] : e.labels.map((l) => (corrected && Object.hasOwn(MISSPELLED_LABELS, l) ? MISSPELLED_LABELS[l] : l));
      for (const l of new Set(own)) {
        const a = acc.get(l);
        if (!a) continue;
        a.tasks.add(r.index);
        a.samples++;
        if (r.pass) a.passes++;
      }
    }
    return labels.map((label) => ({ label, tasks: acc.get(label)!.tasks.size, samples: acc.get(label)!.samples, passes: acc.get(label)!.passes }));
  };
  return { asUpstream: rows(false), corrected: rows(true), unmatched: results.filter((r) => !byIndex.has(r.index)).length };
}
