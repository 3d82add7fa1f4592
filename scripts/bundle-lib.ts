/**
 * Collects the kernel sources, oracle specs and shared spec helpers under
 * tasks/hv6 into one JSON value, so that Node, the CLI and the browser all
 * read the same content with a plain JSON import; the descriptions go to a
 * JSON file of their own, which the verifier worker does not import
 * (docs/design.md, "The worker's first code").
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseProgram } from '../src/core/c/program.ts';
import { programForm } from '../src/core/c/program-form.ts';
import type { ShippedProgram } from '../src/core/kernel/program.ts';

export interface ContentBundle {
  format: 1;
  /** package.json's version: the app version every run and share link records (src/core/version.ts). */
  appVersion: string;
  /** sha256 of the kernel sources (hex, first 16 chars): the "kernel version" in share links and runs. */
  kernelHash: string;
  /**
   * sha256 (first 16 hex chars) of everything a grade depends on: the
   * verifier's sources (src/core/smt, c, kernel with its lemmas, dialect,
   * verify, eval/grade), the kernel content and the oracle specs. src/core/version.ts
   * makes the verifier version of it; a test recomputes it (verifierDigest).
   */
  verifierHash: string;
  /**
   * The same over src/core/smt and src/core/verify only: what an oracle's
   * stored lemma proof depends on besides the terms its key already holds
   * (the statement and the step, which the kernel, C and dialect code build).
   */
  proofHash: string;
  kernel: { files: Record<string, string>; units: string[] };
  specs: Record<string, string>;
  shared: Record<string, string>;
}

function readDir(dir: string, ext: RegExp): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    if (ext.test(name)) out[name] = readFileSync(join(dir, name), 'utf8');
  }
  return out;
}

function strip(files: Record<string, string>, ext: RegExp): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [k.replace(ext, ''), v]));
}

/** The folders of src/core whose code decides a grade: the verifier proper, and the grading on top of its verdicts. */
export const VERIFIER_SOURCES = ['smt', 'c', 'kernel', 'dialect', 'verify', 'eval/grade'] as const;

/** Every .ts file under `dir`, as [path relative to `root`, text], sorted by path. */
function sourcesUnder(root: string, dir: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) out.push([p, readFileSync(join(root, p), 'utf8')]);
    }
  };
  walk(dir);
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * The digest of the verifier: its sources (VERIFIER_SOURCES under src/core),
 * the kernel files and the oracle specs with their shared helpers (the
 * oracle is what an answer is graded against).
 */
export function verifierDigest(
  root: string,
  kernelFiles: Record<string, string>,
  specs: Record<string, string>,
  shared: Record<string, string>,
  folders: readonly string[] = VERIFIER_SOURCES,
): string {
  const hash = createHash('sha256');
  for (const d of folders) for (const [p, text] of sourcesUnder(root, `src/core/${d}`)) hash.update(`src\0${p}\0${text}\0`);
  for (const [k, v] of Object.entries(kernelFiles)) hash.update(`kernel\0${k}\0${v}\0`);
  for (const [k, v] of Object.entries(specs)) hash.update(`spec\0${k}\0${v}\0`);
  for (const [k, v] of Object.entries(shared)) hash.update(`shared\0${k}\0${v}\0`);
  return hash.digest('hex').slice(0, 16);
}

export function collectBundle(root: string): ContentBundle {
  const base = join(root, 'tasks/hv6');
  const files = readDir(join(base, 'kernel'), /\.(c|h)$/);
  const units = Object.keys(files).filter((f) => f.endsWith('.c'));
  const hash = createHash('sha256');
  for (const [k, v] of Object.entries(files)) hash.update(`${k}\0${v}\0`);
  const specs = strip(readDir(join(base, 'specs'), /\.py$/), /\.py$/);
  const shared = strip(readDir(join(base, 'specs/_shared'), /\.py$/), /\.py$/);
  return {
    format: 1,
    appVersion: (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
    kernelHash: hash.digest('hex').slice(0, 16),
    verifierHash: verifierDigest(root, files, specs, shared),
    proofHash: verifierDigest(root, {}, {}, {}, ['smt', 'verify']),
    kernel: { files, units },
    specs,
    shared,
  };
}

export function bundleText(root: string): string {
  return `${JSON.stringify(collectBundle(root), null, 1)}\n`;
}

/**
 * The functional descriptions (tasks/hv6/descriptions/<handler>.md) by
 * handler, for tasks/hv6/descriptions.json: the page and the task builder
 * read them (src/core/kernel/descriptions.ts); a verification never does.
 */
export function descriptionsText(root: string): string {
  return `${JSON.stringify(strip(readDir(join(root, 'tasks/hv6/descriptions'), /\.md$/), /\.md$/), null, 1)}\n`;
}

/**
 * The kernel's checked program as flat data (src/core/c/program-form.ts), for
 * tasks/hv6/kernel-program.json: a worker reads it back instead of parsing
 * the kernel (src/core/kernel/program.ts). It depends on the kernel and on
 * the C front end; test/c/program-form.test.ts fails when it is stale.
 */
export function kernelProgramText(bundle: ContentBundle): string {
  const files = new Map(Object.entries(bundle.kernel.files));
  const r = parseProgram(files, bundle.kernel.units);
  if (!r.ok) throw new Error(`the kernel does not compile: ${r.errors.map((e) => e.message).join('; ')}`);
  const shipped: ShippedProgram = { kernelHash: bundle.kernelHash, units: bundle.kernel.units, files: [...files.keys()], form: programForm(r.program, files) };
  return `${JSON.stringify(shipped)}\n`;
}

/**
 * The benchmark tasks (tasks/hv6/tasks/<id>.json, in the order of that
 * directory's index.json) as one JSON value: tasks/hv6/tasks.json, which
 * `src/core/tasks/load.ts` imports lazily so the app does not load 245
 * tasks on its first page.
 */
export interface TasksBundle {
  format: 1;
  kernelHash: string;
  tasks: unknown[];
}

export function collectTasks(root: string): TasksBundle {
  const dir = join(root, 'tasks/hv6/tasks');
  const indexPath = join(dir, 'index.json');
  let ids: string[] = [];
  if (existsSync(indexPath)) {
    ids = (JSON.parse(readFileSync(indexPath, 'utf8')) as { entries: { id: string }[] }).entries.map((e) => e.id);
  } else if (existsSync(dir)) {
    ids = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
  }
  const tasks = ids.map((id) => JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as unknown);
  return { format: 1, kernelHash: collectBundle(root).kernelHash, tasks };
}

export function tasksBundleText(root: string): string {
  return `${JSON.stringify(collectTasks(root))}\n`;
}
