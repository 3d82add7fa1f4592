/**
 * `osvlab publish RUN... --out DIR` (options: ../declarations.ts): writes a static site that shows a paper's runs on its Results page and
 * lets every reader re-verify them in the browser (docs/publish.md). RUN is
 * a run directory, an exported run file or a study directory (each of its
 * cells). The site is the built app (`npm run build` makes dist/, which is
 * copied, never rebuilt here: the build must be of this checkout's verifier)
 * plus `published/`: one run file per run, the index, and the manifest with
 * the SHA-256 of every file and every answer.
 *
 * `osvlab publish --check DIR`: re-verifies a
 * published site's runs with this verifier, headless, and prints the same
 * per-cell verdicts as the page. Exit 0 when every cell is reproduced, 1 when
 * any changed or an answer is altered, 4 usage errors (PUB001-PUB005, docs/cli-errors.md).
 */
import { cpSync, existsSync, lstatSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunFile, type TaskRef, exportRun, formatValidationErrors, parseRunFile } from '../../core/eval/files/run-file.ts';
import { type Opened, type RowVerdict, reverifySite, openPublishedRun, reverifyPublishedRun, rowLabel, rowVerdictLines, siteReverificationLines } from '../../core/eval/publish/reverify.ts';
import { type FileDigest, answerDigests, manifest, parseManifest } from '../../core/eval/publish/manifest.ts';
import { INDEX_PATH, type IndexRun, MANIFEST_PATH, PUBLISHED_DIR, parseSiteIndex, runFilePath, siteIndex } from '../../core/eval/publish/site.ts';
import { taskFactsOf } from '../../core/eval/session/task-facts.ts';
import { sha256HexOfBytes } from '../../core/hash.ts';
import { loadTasks } from '../../core/tasks/load.ts';
import type { Task } from '../../core/tasks/task.ts';
import { PROVENANCE } from '../../core/version.ts';
import { makeDir, readRunFile as readFileBytes, writeError } from '../../store/run-dir-file.ts';
import { BUILD_STAMP, appFileDifferences, appFileHashes } from '../app-files.ts';
import { writeControl } from '../visible-output.ts';
import { UsageError, optionalInt, parseArgs, textOption } from '../args.ts';
import { declaredOptions } from '../declarations.ts';
import { withGrading } from '../session-ports.ts';
import { RESPONSES_CAP, readInput } from '../read-input.ts';
import { isDirectory, readRunDir } from '../stored-run.ts';

/** The build this checkout makes with `npm run build`. */
const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist');

/** A publish usage error with its code (docs/cli-errors.md). */
const pubError = (code: 'PUB001' | 'PUB002' | 'PUB003' | 'PUB004' | 'PUB005', message: string) => new UsageError(message, code);

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, declaredOptions('publish'));
  const json = args.flags.has('json');
  const check = args.values.get('check');
  if (check !== undefined) {
    for (const name of ['out', 'title', 'base', 'app']) if (args.values.has(name)) throw new UsageError(`--check reads a published site; --${name} is for publishing one`);
    if (args.positionals.length) throw new UsageError(`--check takes the site's directory as its value; unexpected argument '${args.positionals[0]}'`);
    return reverifyPublished(check, optionalInt(args, 'concurrency', { min: 1 }), json);
  }
  if (args.values.has('concurrency')) throw new UsageError('--concurrency is for --check (publishing grades nothing)');
  const out = args.values.get('out');
  if (!out) throw new UsageError('--out DIR is required (a new directory for the site)');
  if (args.positionals.length === 0) throw new UsageError('which runs? e.g. osvlab publish .osvlab/runs/gpt-4o-1a2b3c4d5e6f run.json study-dir --out site');
  const base = args.values.has('base') ? basePath(args.values.get('base')!) : undefined;
  const title = textOption(args, 'title')!;
  return publish({ inputs: args.positionals, out, title, base, app: args.values.get('app') ?? DIST, json });
}

/** `--base`: an absolute path of plain characters, ending in '/' (added when missing). */
function basePath(text: string): string {
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(text) || text.split('/').some((s) => s === '..' || s === '.')) {
    throw new UsageError(`--base must be the absolute path the site is served under, such as /osvlab-results/ (letters, digits and . _ ~ - /), got '${text}'`);
  }
  return text.endsWith('/') ? text : `${text}/`;
}

/** A run to publish: its run file, and the study cell it is, if any. */
interface Input {
  readonly file: RunFile;
  readonly source: string;
  readonly study?: IndexRun['study'];
}

/** Checks that `app` is a build of the app with this checkout's verifier. */
function checkApp(app: string): void {
  const stamp = join(app, BUILD_STAMP);
  if (!existsSync(join(app, 'index.html')) || !existsSync(join(app, 'sw.js'))) {
    throw pubError('PUB001', `${app} holds no build of the app (no index.html and sw.js): run npm run build, which writes dist/, or give the build with --app DIR`);
  }
  if (!existsSync(stamp)) throw pubError('PUB001', `${app} is a build made before publishing existed (no ${BUILD_STAMP}): run npm run build again`);
  let built: { app?: unknown; verifier?: unknown; files?: unknown };
  try {
    built = JSON.parse(readFileSync(stamp, 'utf8'));
  } catch {
    throw pubError('PUB001', `${stamp} is not JSON: run npm run build again`);
  }
  if (built.verifier !== PROVENANCE.verifier) {
    throw pubError('PUB002', `${app} was built with verifier ${String(built.verifier)}, and this osvlab is verifier ${PROVENANCE.verifier}: run npm run build, so that readers re-verify with the verifier you publish with`);
  }
  const listed = built.files;
  if (!listed || typeof listed !== 'object' || Array.isArray(listed) || !Object.values(listed).every((h) => typeof h === 'string')) {
    throw pubError('PUB001', `${stamp} lists no hashes of the build's files (a build made before they were checked): run npm run build again`);
  }
  // Every file readers will load is the one the build wrote: a script put into index.html afterwards is refused.
  const d = appFileDifferences(listed as Record<string, string>, appFileHashes(app));
  const said = [
    ...(d.changed.length ? [`changed: ${d.changed.slice(0, 5).join(', ')}${d.changed.length > 5 ? ` and ${d.changed.length - 5} more` : ''}`] : []),
    ...(d.added.length ? [`not built: ${d.added.slice(0, 5).join(', ')}${d.added.length > 5 ? ` and ${d.added.length - 5} more` : ''}`] : []),
    ...(d.missing.length ? [`missing: ${d.missing.slice(0, 5).join(', ')}${d.missing.length > 5 ? ` and ${d.missing.length - 5} more` : ''}`] : []),
  ];
  if (said.length) throw pubError('PUB001', `${app} is not the build its ${BUILD_STAMP} lists (${said.join('; ')}): run npm run build again, and publish what it writes unchanged`);
}

/** `path` with every link resolved, for the part of it that exists (the rest appended as written). */
function realPath(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    return dirname(abs) === abs ? abs : join(realPath(dirname(abs)), abs.slice(dirname(abs).length + 1));
  }
}

/** Refuses an --out that publishing cannot fill: a link, the build, or a folder inside it. */
function checkOut(out: string, app: string): void {
  let st: ReturnType<typeof lstatSync> | undefined;
  try {
    st = lstatSync(out);
  } catch {
    st = undefined;
  }
  if (st?.isSymbolicLink()) throw pubError('PUB003', `${out} is a symbolic link; give --out a new directory (or an empty one) by its own path`);
  if (st && (!st.isDirectory() || readdirSync(out).length > 0)) throw pubError('PUB003', `${out} exists and is not an empty directory; choose a new --out`);
  const o = realPath(out);
  const a = realPath(app);
  if (o === a) throw pubError('PUB003', '--out cannot be the app build itself');
  if (o.startsWith(a + sep)) throw pubError('PUB003', `${out} is inside the app build ${app}; choose an --out outside it`);
}

/** The task facts a run file needs, from this build's tasks. */
function refsOf(ids: readonly string[], tasks: readonly Task[]): TaskRef[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return ids.map((id) => taskFactsOf(id, (x) => byId.get(x)));
}

/** A run directory as a run file; damaged lines refuse it (a published run is whole). */
async function fromRunDir(dir: string, tasks: readonly Task[], study?: IndexRun['study']): Promise<Input> {
  const stored = await readRunDir(dir);
  if (!stored.run) throw pubError('PUB004', `${dir} holds no run (no run.json)`);
  if (stored.damaged.length) {
    const d = stored.damaged[0];
    throw pubError('PUB004', `${dir} has ${stored.damaged.length} damaged line${stored.damaged.length > 1 ? 's' : ''} (${d.file} line ${d.line}: ${d.reason}); a published run must be whole: merge or regrade --out it into a clean directory first`);
  }
  const file = exportRun({ run: stored.run, tasks: refsOf(stored.run.config.tasks, tasks), prompts: stored.prompts, attempts: stored.attempts, exportedAt: new Date().toISOString() });
  return { file, source: dir, ...(study ? { study } : {}) };
}

/** Every cell of a study directory that has a run (study.json names them). */
async function fromStudyDir(dir: string, tasks: readonly Task[]): Promise<Input[]> {
  let study: { name?: unknown; cells?: unknown };
  try {
    study = JSON.parse(readFileSync(join(dir, 'study.json'), 'utf8'));
  } catch (e) {
    throw pubError('PUB004', `${join(dir, 'study.json')} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  const cells = Array.isArray(study.cells) ? study.cells : [];
  const name = typeof study.name === 'string' ? study.name : dir;
  const out: Input[] = [];
  for (const c of cells as { label?: unknown; dir?: unknown }[]) {
    if (typeof c.dir !== 'string' || typeof c.label !== 'string' || c.dir.includes('/') || c.dir.startsWith('.')) throw pubError('PUB004', `${join(dir, 'study.json')} names a cell without a plain directory and label`);
    const cellDir = join(dir, 'cells', c.dir);
    if (!existsSync(join(cellDir, 'run.json'))) {
      process.stderr.write(`osvlab publish: ${cellDir} has no run yet; the study's cell ${c.label} is left out\n`);
      continue;
    }
    out.push(await fromRunDir(cellDir, tasks, { name, label: c.label }));
  }
  if (out.length === 0) throw pubError('PUB004', `${dir} is a study with no run yet`);
  return out;
}

/** The runs of one RUN argument. */
async function readInputRuns(path: string, tasks: readonly Task[]): Promise<Input[]> {
  if (!existsSync(path)) throw pubError('PUB004', `${path}: no such run directory, run file or study directory`);
  if (isDirectory(path)) {
    if (existsSync(join(path, 'study.json'))) return fromStudyDir(path, tasks);
    if (existsSync(join(path, 'run.json'))) return [await fromRunDir(path, tasks)];
    throw pubError('PUB004', `${path} is neither a run directory (run.json) nor a study directory (study.json)`);
  }
  const parsed = parseRunFile(await readInput(path, 'run', RESPONSES_CAP));
  if (!parsed.ok) throw pubError('PUB004', `${path} is not a run file:\n${formatValidationErrors(parsed.errors)}`);
  return [{ file: parsed.file, source: path }];
}

/** `<` `>` `&` `"` as entities, for text put into index.html. */
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * index.html of the published site: its title, a meta tag that makes the app
 * open on the Results page and says where the index is (src/app/lib/published.ts),
 * and `<base href>` for `--base`, before anything that names a relative URL.
 */
function publishedHtml(html: string, title: string, base: string | undefined): string {
  if ((html.match(/<head>/g) ?? []).length !== 1) throw pubError('PUB001', 'the built index.html has no single <head>: run npm run build again');
  const head = [...(base ? [`<base href="${escapeHtml(base)}">`] : []), `<meta name="osvlab-published" content="${INDEX_PATH}">`].join('\n    ');
  return html.replace('<head>', `<head>\n    ${head}`).replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
}

/** Bytes of every file under `dir`. */
function sizeOf(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    n += st.isDirectory() ? sizeOf(p) : st.size;
  }
  return n;
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

async function publish(o: { inputs: readonly string[]; out: string; title: string; base: string | undefined; app: string; json: boolean }): Promise<number> {
  // Everything that could refuse is checked before anything is written.
  checkApp(o.app);
  checkOut(o.out, o.app);
  const tasks = await loadTasks();
  const inputs: Input[] = [];
  for (const path of o.inputs) inputs.push(...(await readInputRuns(path, tasks)));
  const seen = new Map<string, string>();
  for (const i of inputs) {
    const other = seen.get(i.file.run.id);
    if (other) throw pubError('PUB004', `${other} and ${i.source} hold the same run ${i.file.run.id}; publish each run once`);
    seen.set(i.file.run.id, i.source);
  }
  for (const i of inputs) if (i.file.run.status !== 'done') process.stderr.write(`osvlab publish: run ${i.file.run.id} (${i.source}) is ${i.file.run.status}, not done; it is published as it is\n`);

  // Folder by folder: Node's recursive mkdir spins forever under /proc (run-dir-file.ts makeDir).
  makeDir(o.out);
  try {
    // The app as built; dot files (a test harness's markers) stay behind.
    cpSync(o.app, o.out, { recursive: true, filter: (src) => !relative(o.app, src).split(/[\\/]/).some((p) => p.startsWith('.')) });
    makeDir(join(o.out, PUBLISHED_DIR, 'runs'));
  } catch (e) {
    throw writeError(o.out, e);
  }
  const files: Record<string, FileDigest> = {};
  const answers: Record<string, Record<string, string>> = {};
  const write = async (path: string, text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    writeFileSync(join(o.out, path), bytes);
    files[path] = { sha256: await sha256HexOfBytes(bytes), bytes: bytes.length };
  };
  const taken = new Set<string>();
  const entries: IndexRun[] = [];
  for (const i of inputs) {
    const id = i.file.run.id;
    const path = runFilePath(id, taken);
    await write(path, JSON.stringify(i.file));
    answers[id] = await answerDigests(i.file.attempts);
    entries.push({ id, file: path, ...(i.study ? { study: i.study } : {}) });
  }
  const index = siteIndex({ title: o.title, publishedAt: new Date().toISOString(), publisher: { ...PROVENANCE }, ...(o.base ? { base: o.base } : {}), runs: entries });
  await write(INDEX_PATH, `${JSON.stringify(index, null, 1)}\n`);
  writeFileSync(join(o.out, MANIFEST_PATH), `${JSON.stringify(manifest(files, answers), null, 1)}\n`);

  writeFileSync(join(o.out, 'index.html'), publishedHtml(readFileSync(join(o.out, 'index.html'), 'utf8'), o.title, o.base));
  // The service worker precaches what sw-manifest.json lists: with the published files, the site works offline after one visit.
  const swPath = join(o.out, 'sw-manifest.json');
  const sw = existsSync(swPath) ? (JSON.parse(readFileSync(swPath, 'utf8')) as { files?: string[] }) : {};
  writeFileSync(swPath, JSON.stringify({ ...sw, files: [...(sw.files ?? []), ...Object.keys(files), MANIFEST_PATH] }));

  const total = sizeOf(o.out);
  const published = sizeOf(join(o.out, PUBLISHED_DIR));
  const count = Object.values(answers).reduce((s, a) => s + Object.keys(a).length, 0);
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ out: o.out, title: o.title, runs: entries.map((e) => ({ ...e, bytes: files[e.file].bytes, answers: Object.keys(answers[e.id]).length })), bytes: total, publishedBytes: published })}\n`);
  } else {
    const lines = [`published ${entries.length} run${entries.length === 1 ? '' : 's'} (${count} answers) to ${o.out}: ${mb(total)} (the runs ${mb(published)}, the app ${mb(total - published)})`];
    for (const i of inputs) lines.push(`  ${i.file.run.id}: ${i.source}`);
    lines.push(`serve ${o.out} from any static host${o.base ? ` at ${o.base}` : ''}; readers re-verify on its Results page, or with osvlab publish --check ${o.out}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}

/** The bytes of `path` under a site's root, or undefined when it is not there. */
function siteFile(dir: string, path: string): Buffer | undefined {
  return readFileBytes(join(dir, path));
}

async function reverifyPublished(dir: string, concurrency: number | undefined, json: boolean): Promise<number> {
  if (!isDirectory(dir)) throw pubError('PUB005', `${dir}: no such directory`);
  const indexBytes = siteFile(dir, INDEX_PATH);
  const manifestBytes = siteFile(dir, MANIFEST_PATH);
  if (!indexBytes || !manifestBytes) throw pubError('PUB005', `${dir} is not a published site (no ${!indexBytes ? INDEX_PATH : MANIFEST_PATH}); osvlab publish makes one`);
  const idx = parseSiteIndex(indexBytes.toString('utf8'));
  if (!idx.ok) throw pubError('PUB005', `${join(dir, INDEX_PATH)} is not a site index:\n${formatValidationErrors(idx.errors)}`);
  const man = parseManifest(manifestBytes.toString('utf8'));
  if (!man.ok) throw pubError('PUB005', `${join(dir, MANIFEST_PATH)} is not a manifest:\n${formatValidationErrors(man.errors)}`);
  const site = await reverifySite(indexBytes, idx.index, man.manifest);

  const tasks = await loadTasks();
  const live = !json && process.stderr.isTTY;
  const rows: { opened: Opened; verdict?: RowVerdict }[] = [];
  await withGrading({ workers: concurrency }, async ({ grader, runner }) => {
    const ports = { tasks, grader, runner };
    for (const entry of idx.index.runs) {
      const bytes = siteFile(dir, entry.file);
      const opened: Opened = bytes ? await openPublishedRun(entry, bytes, man.manifest) : { ok: false, entry, message: `${entry.file} is missing` };
      if (!opened.ok) {
        rows.push({ opened });
        continue;
      }
      const onProgress = (done: number, total: number) => live && writeControl(process.stderr, '\r', `run ${entry.id}: re-verified ${done} of ${total} answers`);
      const verdict = await reverifyPublishedRun(opened.run, ports, { onProgress });
      if (live) process.stderr.write('\n');
      rows.push({ opened, verdict });
    }
  });

  const reproduced = rows.filter((r) => r.verdict?.status === 'reproduced').length;
  const ok = reproduced === rows.length && site.missingRuns.length === 0;
  if (json) {
    const out = rows.map((r) => (r.opened.ok ? { label: rowLabel(r.opened.run), ...r.verdict! } : { runId: r.opened.entry.id, status: 'unreadable', error: r.opened.message }));
    process.stdout.write(`${JSON.stringify({ site: { title: idx.index.title, dir, ...site }, verifier: PROVENANCE.verifier, rows: out, reproduced, total: rows.length })}\n`);
  } else {
    const lines = [`${idx.index.title}: ${reproduced} of ${rows.length} runs reproduced by verifier ${PROVENANCE.verifier}`];
    for (const r of rows) lines.push(...(r.opened.ok ? rowVerdictLines(r.opened.run, r.verdict!) : [`run ${r.opened.entry.id}: unreadable: ${r.opened.message}`]));
    lines.push(...siteReverificationLines(site));
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return ok ? 0 : 1;
}
