/**
 * A published site's layout and its index (docs/publish.md): the built app
 * at the root, and under `published/` the index of the runs, the manifest of
 * hashes (manifest.ts) and one run file per run. `osvlab publish` writes it;
 * the Results page and `osvlab publish --check` read it.
 */
import { type ValidationError, array, count, fail, literal, newerVersion, object, parseJson, string } from '../files/json-validate.ts';

/** Where the published files are, from the site's root. */
export const PUBLISHED_DIR = 'published';
export const INDEX_PATH = `${PUBLISHED_DIR}/index.json`;
export const MANIFEST_PATH = `${PUBLISHED_DIR}/manifest.json`;

const INDEX_FORMAT = 'osvlab-published';
const INDEX_VERSION = 1;

/** A run file's path is always this shape, so an index can never point outside the site. */
const RUN_FILE_PATH = /^published\/runs\/[A-Za-z0-9._-]+\.json$/;

/** One published run, as the index lists it. */
export interface IndexRun {
  readonly id: string;
  /** Its run file, from the site's root (`published/runs/<name>.json`). */
  readonly file: string;
  /** The study cell the run is, when it was published from a study directory. */
  readonly study?: { readonly name: string; readonly label: string };
}

export interface SiteIndex {
  readonly format: typeof INDEX_FORMAT;
  readonly formatVersion: number;
  readonly title: string;
  /** ISO time of publishing. */
  readonly publishedAt: string;
  /** The app and verifier that published the site; each run records those it was graded with. */
  readonly publisher: { readonly app: string; readonly verifier: string };
  /** The path the site is served under, when `--base` gave one (index.html's <base>). */
  readonly base?: string;
  readonly runs: readonly IndexRun[];
}

/**
 * The run file path of run `id`, unique among `taken` (which it joins): the
 * id itself when it is a plain file name, otherwise its safe characters with
 * a number added until it is new.
 */
export function runFilePath(id: string, taken: Set<string>): string {
  const safe = id.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 80) || 'run';
  let path = `${PUBLISHED_DIR}/runs/${safe}.json`;
  for (let i = 2; taken.has(path); i++) path = `${PUBLISHED_DIR}/runs/${safe}-${i}.json`;
  taken.add(path);
  return path;
}

/** The index of a site with `runs`. */
export function siteIndex(input: Omit<SiteIndex, 'format' | 'formatVersion'>): SiteIndex {
  return { format: INDEX_FORMAT, formatVersion: INDEX_VERSION, ...input };
}

const indexCheck = object({
  format: literal(INDEX_FORMAT),
  formatVersion: count(1),
  title: string,
  publishedAt: string,
  publisher: object({ app: string, verifier: string }),
  'base?': string,
  runs: array(object({ id: string, file: string, 'study?': object({ name: string, label: string }) })),
});

export type IndexParse = { readonly ok: true; readonly index: SiteIndex } | { readonly ok: false; readonly errors: readonly ValidationError[] };

/** Parses and validates a site's index: its shape, run file paths inside `published/runs/`, each run and file once. */
export function parseSiteIndex(text: string): IndexParse {
  const json = parseJson(text);
  if (!json.ok) return json;
  const newer = newerVersion(json.value, INDEX_VERSION);
  if (newer) return { ok: false, errors: [newer] };
  const errs: ValidationError[] = [];
  indexCheck(json.value, '$', errs);
  if (errs.length) return { ok: false, errors: errs.slice(0, 20) };
  const index = json.value as SiteIndex;
  const ids = new Set<string>();
  const files = new Set<string>();
  index.runs.forEach((r, i) => {
    if (!RUN_FILE_PATH.test(r.file)) fail(errs, `$.runs[${i}].file`, `"${r.file}" is not a run file of this site (published/runs/NAME.json)`);
    if (ids.has(r.id)) fail(errs, `$.runs[${i}].id`, `run "${r.id}" is listed twice`);
    if (files.has(r.file)) fail(errs, `$.runs[${i}].file`, `"${r.file}" is listed twice`);
    ids.add(r.id);
    files.add(r.file);
  });
  return errs.length ? { ok: false, errors: errs.slice(0, 20) } : { ok: true, index };
}
