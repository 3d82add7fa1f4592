/**
 * `osvlab publish` as a user runs it: what it writes (each hash recomputed
 * here with node:crypto, the index and index.html as the page reads them)
 * and everything it refuses, with its code, before it writes anything. The
 * app it copies here is a minimal stand-in carrying the build stamp; the
 * real build is published, served and re-verified (page and --check) in
 * test/e2e/publish.test.ts. Refusals run in this process (they stop
 * before any work); publishing runs as a user starts it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appFileHashes } from '../../src/cli/app-files.ts';
import { exportRun } from '../../src/core/eval/files/run-file.ts';
import { type AttemptRecord, type RunRecord, attemptId } from '../../src/core/eval/run/run-types.ts';
import { PROVENANCE } from '../../src/core/version.ts';
import { JsonlRepository } from '../../src/store/jsonl.ts';
import { osvlab as inProcess } from '../cli-main.ts';
import { runCli, startCli } from '../cli-process.ts';
import { proseAnswer } from '../eval/run/cli.ts';
import { startFakeProvider } from '../fake-provider/server.ts';
import { makeAttempt } from '../store/fixtures.ts';

const root = mkdtempSync(join(tmpdir(), 'osvlab-publish-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const osvlab = (...args: string[]) => runCli(args);
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const HASH = 'b'.repeat(64);
const TASKS = [{ id: 'sys_dup-v0', handler: 'sys_dup', bug_classes: [], bug_count: 0, hash: HASH }];

/** A directory that looks like a build to publish: index.html, sw.js, sw-manifest.json and the stamp. */
function app(name: string, verifier = PROVENANCE.verifier, stamp = true): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html>\n<html>\n  <head>\n    <title>OSVLab</title>\n    <script type="module" src="./assets/a.js"></script>\n  </head>\n  <body></body>\n</html>\n');
  writeFileSync(join(dir, 'sw.js'), '// service worker');
  writeFileSync(join(dir, 'assets', 'a.js'), '// app');
  writeFileSync(join(dir, 'sw-manifest.json'), JSON.stringify({ files: ['assets/a.js'] }));
  writeFileSync(join(dir, '.complete'), 'a test harness marker');
  // As vite.config.ts writes it: the versions and the hash of every file built.
  if (stamp) writeFileSync(join(dir, 'osvlab-build.json'), JSON.stringify({ app: PROVENANCE.app, verifier, files: appFileHashes(dir) }));
  return dir;
}

function run(id: string): { run: RunRecord; attempts: AttemptRecord[] } {
  const r: RunRecord = {
    id,
    createdAt: 1,
    updatedAt: 2,
    config: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: `model-${id}`, params: {}, tasks: ['sys_dup-v0'], shots: 0, n: 1, repairRounds: 0, concurrency: 1, gradeConcurrency: 1 },
    provenance: { app: '0.1.0', verifier: 'v-test' },
    taskHashes: { 'sys_dup-v0': HASH },
    status: 'done',
  };
  const a = makeAttempt(id, 'sys_dup-v0', 0, 0, {
    promptHash: HASH,
    cacheKey: HASH,
    request: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: `model-${id}`, params: {}, sample: 0 },
    response: { text: `no code, answer of ${id}: é`, model: 'm', usage: { input: 1, output: 1 }, finishReason: 'stop', latencyMs: 1 },
    grade: { category: 'syntax', extracted: null, diagnosis: '', ms: 1 },
    createdAt: 1,
    cached: undefined,
    gradedAt: undefined,
  });
  return { run: r, attempts: [a] };
}

const PROMPTS = [{ hash: HASH, messages: [{ role: 'user' as const, content: 'Write the spec.' }] }];

function runFile(id: string): string {
  const { run: r, attempts } = run(id);
  const path = join(root, `${id}.json`);
  writeFileSync(path, JSON.stringify(exportRun({ run: r, tasks: TASKS, prompts: PROMPTS, attempts, exportedAt: '2026-01-01T00:00:00Z' })));
  return path;
}

async function runDir(id: string): Promise<string> {
  const dir = join(root, `dir-${id}`);
  const store = await JsonlRepository.open(dir);
  await store.importBundle({ ...run(id), prompts: PROMPTS });
  await store.close();
  return dir;
}

describe('osvlab publish', () => {
  it('writes the app, the run files, the index and a manifest whose every hash is the file it names', async () => {
    const build = app('build');
    const out = join(root, 'site');
    const r = osvlab('publish', runFile('aaa111'), await runDir('bbb222'), '--out', out, '--title', 'Our <paper> & "tables"', '--base', '/papers/osv', '--app', build);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(new RegExp(`^published 2 runs \\(2 answers\\) to ${out}: `));
    expect(existsSync(join(out, 'assets', 'a.js'))).toBe(true);
    expect(existsSync(join(out, '.complete'))).toBe(false);

    const indexBytes = readFileSync(join(out, 'published', 'index.json'));
    const index = JSON.parse(indexBytes.toString('utf8'));
    expect(index).toMatchObject({ format: 'osvlab-published', formatVersion: 1, title: 'Our <paper> & "tables"', base: '/papers/osv/', publisher: PROVENANCE });
    expect(index.runs).toEqual([
      { id: 'aaa111', file: 'published/runs/aaa111.json' },
      { id: 'bbb222', file: 'published/runs/bbb222.json' },
    ]);
    const m = JSON.parse(readFileSync(join(out, 'published', 'manifest.json'), 'utf8'));
    expect(Object.keys(m.files).sort()).toEqual(['published/index.json', 'published/runs/aaa111.json', 'published/runs/bbb222.json']);
    for (const [path, d] of Object.entries(m.files) as [string, { sha256: string; bytes: number }][]) {
      const bytes = readFileSync(join(out, path));
      expect(d).toEqual({ sha256: sha256(bytes), bytes: bytes.length });
    }
    expect(m.files['published/index.json'].sha256).toBe(sha256(indexBytes));
    for (const id of ['aaa111', 'bbb222']) {
      const file = JSON.parse(readFileSync(join(out, 'published', 'runs', `${id}.json`), 'utf8'));
      expect(file.format).toBe('osvlab-run');
      expect(m.answers[id]).toEqual({ [attemptId(id, 'sys_dup-v0', 0, 0)]: sha256(Buffer.from(`no code, answer of ${id}: é`, 'utf8')) });
    }

    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('<head>\n    <base href="/papers/osv/">\n    <meta name="osvlab-published" content="published/index.json">');
    expect(html).toContain('<title>Our &lt;paper&gt; &amp; &quot;tables&quot;</title>');
    const sw = JSON.parse(readFileSync(join(out, 'sw-manifest.json'), 'utf8'));
    expect(sw.files).toEqual(['assets/a.js', 'published/runs/aaa111.json', 'published/runs/bbb222.json', 'published/index.json', 'published/manifest.json']);
  });

  it('publishes each cell of a study directory that has a run, labelled', async () => {
    const study = join(root, 'study');
    mkdirSync(join(study, 'cells'), { recursive: true });
    const cell = await runDir('ccc333');
    rmSync(join(study, 'cells', '01-a'), { recursive: true, force: true });
    writeFileSync(join(study, 'study.json'), JSON.stringify({ id: 's', name: 'ablation', cells: [{ cell: 1, label: 'model-a / verdict', run: 'ccc333', dir: '01-a' }, { cell: 2, label: 'later', run: 'x', dir: '02-b' }] }));
    mkdirSync(join(study, 'cells', '01-a'));
    for (const f of readdirSync(cell)) writeFileSync(join(study, 'cells', '01-a', f), readFileSync(join(cell, f)));
    const out = join(root, 'study-site');
    const r = osvlab('publish', study, '--out', out, '--app', app('build-study'));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`${join(study, 'cells', '02-b')} has no run yet; the study's cell later is left out`);
    expect(JSON.parse(readFileSync(join(out, 'published', 'index.json'), 'utf8')).runs).toEqual([{ id: 'ccc333', file: 'published/runs/ccc333.json', study: { name: 'ablation', label: 'model-a / verdict' } }]);
  });

  it('publishes a study that osvlab study ran: each cell a row, with the study name and the cell label', async () => {
    const fake = await startFakeProvider();
    try {
      // Prose answers: each cell's run is graded at once (syntax), so the study costs seconds.
      fake.respond(() => ({ kind: 'text', text: proseAnswer() }));
      const file = join(root, 'tiny-study.json');
      writeFileSync(file, JSON.stringify({ name: 'two models', provider: 'openai-compatible', baseUrl: `${fake.url}/v1`, models: ['fake-a', 'fake-b'], shots: 0, tasks: 'sys_dup-v0', grading: { strict: false } }));
      const dir = join(root, 'tiny-study');
      const ran = await startCli(['study', file, '--out', dir], { ...process.env, OSVLAB_API_KEY: 'sk-local-test' }).result;
      expect(ran.code, ran.err).toBe(0);
      const cells = (JSON.parse(readFileSync(join(dir, 'study.json'), 'utf8')).cells as { run: string; label: string }[]).map((c) => ({ id: c.run, label: c.label }));
      expect(cells).toHaveLength(2);
      const out = join(root, 'tiny-study-site');
      const r = osvlab('publish', dir, '--out', out, '--app', app('build-tiny-study'));
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/^published 2 runs \(2 answers\)/);
      expect(JSON.parse(readFileSync(join(out, 'published', 'index.json'), 'utf8')).runs).toEqual(cells.map((c) => ({ id: c.id, file: `published/runs/${c.id}.json`, study: { name: 'two models', label: c.label } })));
    } finally {
      await fake.close();
    }
  });

  it('refuses, with its code and before writing anything, what it cannot publish', async () => {
    const build = app('build-ok');
    const file = runFile('ddd444');
    const refused = async (args: string[], code: string, message: string | RegExp) => {
      const out = join(root, `refused-${Math.random().toString(36).slice(2)}`);
      const r = await inProcess('publish', ...args.map((a) => (a === 'OUT' ? out : a)));
      expect(r.code, r.out).toBe(4);
      expect(r.err.startsWith(`osvlab publish: ${code} `), r.err).toBe(true);
      if (typeof message === 'string') expect(r.err).toContain(message);
      else expect(r.err).toMatch(message);
      expect(existsSync(out)).toBe(false);
    };
    await refused([file, '--app', join(root, 'nothing-here'), '--out', 'OUT'], 'PUB001', 'holds no build of the app (no index.html and sw.js): run npm run build');
    await refused([file, '--app', app('no-stamp', PROVENANCE.verifier, false), '--out', 'OUT'], 'PUB001', 'a build made before publishing existed (no osvlab-build.json)');
    await refused([file, '--app', app('old', 'v-0000000000000000'), '--out', 'OUT'], 'PUB002', `was built with verifier v-0000000000000000, and this osvlab is verifier ${PROVENANCE.verifier}`);
    await refused([join(root, 'no-such-run'), '--app', build, '--out', 'OUT'], 'PUB004', 'no such run directory, run file or study directory');
    await refused([root, '--app', build, '--out', 'OUT'], 'PUB004', 'is neither a run directory (run.json) nor a study directory (study.json)');
    writeFileSync(join(root, 'not-a-run.json'), '{"format": "osvlab-run"}');
    await refused([join(root, 'not-a-run.json'), '--app', build, '--out', 'OUT'], 'PUB004', /is not a run file:\n\$\.formatVersion: is missing/);
    await refused([file, file, '--app', build, '--out', 'OUT'], 'PUB004', `${file} and ${file} hold the same run ddd444; publish each run once`);
    const damaged = await runDir('eee555');
    writeFileSync(join(damaged, 'attempts.jsonl'), `${readFileSync(join(damaged, 'attempts.jsonl'), 'utf8')}{"half a line\n`);
    await refused([damaged, '--app', build, '--out', 'OUT'], 'PUB004', /has 1 damaged line \(.*attempts\.jsonl line 2: .*\); a published run must be whole/);
    await refused([file, '--app', build, '--base', 'papers', '--out', 'OUT'], 'ARG006', "--base must be the absolute path the site is served under, such as /osvlab-results/ (letters, digits and . _ ~ - /), got 'papers'");
    await refused([file, '--app', build, '--base', '/a/../b/', '--out', 'OUT'], 'ARG006', '--base must be');
    await refused([file, '--app', build, '--base', '/a"><script>/', '--out', 'OUT'], 'ARG006', '--base must be');
    await refused([file, '--app', build, '--concurrency', '2', '--out', 'OUT'], 'ARG006', '--concurrency is for --check');
    await refused([file, '--app', build], 'ARG006', '--out DIR is required');
    await refused(['--app', build, '--out', 'OUT'], 'ARG006', 'which runs?');
    await refused(['--check', root, '--out', 'OUT'], 'ARG006', '--check reads a published site; --out is for publishing one');

    const full = join(root, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'x'), 'something');
    const r = await inProcess('publish', file, '--app', build, '--out', full);
    expect(r.code).toBe(4);
    expect(r.err).toContain(`osvlab publish: PUB003 ${full} exists and is not an empty directory; choose a new --out`);
    expect(readdirSync(full)).toEqual(['x']);
  });

  it('refuses an --out it cannot fill with a coded error, at once, leaving nothing behind (issue 57 item 5)', async () => {
    const build = app('build-out');
    const file = runFile('fff666');
    // Node's recursive mkdir spun forever here: in a process of its own, stopped after 30 s.
    const proc = runCli(['publish', file, '--app', build, '--out', '/proc/osvlab-x/site'], { timeoutMs: 30_000 });
    expect(proc.signal, 'still spinning after 30 s').toBeNull();
    expect(proc.code, proc.err).toBe(4);
    expect(proc.err).toContain('osvlab publish: RUNDIR005 /proc/osvlab-x cannot be written');

    const empty = join(root, 'empty-target');
    mkdirSync(empty);
    const link = join(root, 'link-to-empty');
    symlinkSync(empty, link);
    const linked = await inProcess('publish', file, '--app', build, '--out', link);
    expect(linked.code, linked.err).toBe(4);
    expect(linked.err).toContain(`osvlab publish: PUB003 ${link} is a symbolic link`);
    expect(readdirSync(empty)).toEqual([]);

    const inside = join(build, 'x');
    const nested = await inProcess('publish', file, '--app', build, '--out', inside);
    expect(nested.code, nested.err).toBe(4);
    expect(nested.err).toContain(`osvlab publish: PUB003 ${inside} is inside the app build ${build}`);
    expect(existsSync(inside)).toBe(false);
    // The same build reached through a link to it.
    const viaLink = join(root, 'build-link');
    symlinkSync(build, viaLink);
    const nested2 = await inProcess('publish', file, '--app', build, '--out', join(viaLink, 'y', 'z'));
    expect(nested2.err).toContain('PUB003');
    expect(existsSync(join(build, 'y'))).toBe(false);
  }, 60_000);

  it('refuses a build whose files are not the ones it lists: a script put into index.html, a file added or removed (issue 57 item 9)', async () => {
    const file = runFile('ggg777');
    const tampered = async (name: string, change: (dir: string) => void, said: string) => {
      const build = app(name);
      change(build);
      const out = join(root, `${name}-site`);
      const r = await inProcess('publish', file, '--app', build, '--out', out);
      expect(r.code, r.err).toBe(4);
      expect(r.err).toContain(`osvlab publish: PUB001 ${build} is not the build its osvlab-build.json lists (${said})`);
      expect(existsSync(out)).toBe(false);
    };
    await tampered('inject', (d) => writeFileSync(join(d, 'index.html'), readFileSync(join(d, 'index.html'), 'utf8').replace('</head>', '<script>fetch("//evil")</script></head>')), 'changed: index.html');
    await tampered('added', (d) => writeFileSync(join(d, 'assets', 'extra.js'), '// not built'), 'not built: assets/extra.js');
    await tampered('removed', (d) => rmSync(join(d, 'sw-manifest.json')), 'missing: sw-manifest.json');
    const old = app('unlisted');
    writeFileSync(join(old, 'osvlab-build.json'), JSON.stringify({ app: PROVENANCE.app, verifier: PROVENANCE.verifier }));
    const r = await inProcess('publish', file, '--app', old, '--out', join(root, 'unlisted-site'));
    expect(r.err).toContain('PUB001');
    expect(r.err).toContain('lists no hashes of the build');
  });

  it('--check refuses a directory that is not a published site', async () => {
    const r = await inProcess('publish', '--check', root);
    expect(r.code).toBe(4);
    expect(r.err).toBe(`osvlab publish: PUB005 ${root} is not a published site (no published/index.json); osvlab publish makes one\n`);
    const site = join(root, 'bad-site');
    mkdirSync(join(site, 'published'), { recursive: true });
    writeFileSync(join(site, 'published', 'index.json'), JSON.stringify({ format: 'osvlab-published', formatVersion: 1, title: 't', publishedAt: 'x', publisher: { app: 'a', verifier: 'v' }, runs: [{ id: 'a', file: '../../etc/passwd' }] }));
    writeFileSync(join(site, 'published', 'manifest.json'), '{}');
    const bad = await inProcess('publish', '--check', site);
    expect(bad.code).toBe(4);
    expect(bad.err).toContain('PUB005');
    expect(bad.err).toContain('$.runs[0].file: "../../etc/passwd" is not a run file of this site (published/runs/NAME.json)');
  });
});
