/**
 * Terminal escape injection (issue 57 item 7): names, titles and answers
 * come from files anyone may write, and a terminal obeys the escapes in
 * them. Every command's output goes through one function
 * (src/core/visible-text.ts), so `report`, `compare`, `publish --check` and
 * the rest print a hostile model name with its control characters visible.
 * The commands run as a user starts them (bin/osvlab.mjs).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appFileHashes } from '../../src/cli/app-files.ts';
import type { RunRecord } from '../../src/core/eval/run/run-types.ts';
import { PROVENANCE } from '../../src/core/version.ts';
import { visibleText } from '../../src/core/visible-text.ts';
import { JsonlRepository } from '../../src/store/jsonl.ts';
import { runCli } from '../cli-process.ts';
import { makeAttempt } from '../store/fixtures.ts';

const root = mkdtempSync(join(tmpdir(), 'osvlab-visible-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Erases the line, sets the window title, makes a hyperlink, hides the rest, then overrides the direction. */
const HOSTILE = 'gpt-4o\x1b[2K\x1b]0;pwned\x07\x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\\x1b[8mhidden\u009b31m\u202e(verified)\u2066x\u2069\r';
const HASH = 'c'.repeat(64);
/** Any control character but newline and tab, raw. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

async function runDir(id: string): Promise<string> {
  const dir = join(root, id);
  const run: RunRecord = {
    id,
    createdAt: 1,
    updatedAt: 2,
    name: `${HOSTILE} name`,
    config: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: HOSTILE, params: {}, tasks: ['sys_dup-v0'], shots: 0, n: 1, repairRounds: 0, concurrency: 1, gradeConcurrency: 1 },
    provenance: { app: '0.1.0', verifier: 'v-test' },
    taskHashes: { 'sys_dup-v0': HASH },
    status: 'done',
  } as RunRecord;
  const a = makeAttempt(id, 'sys_dup-v0', 0, 0, {
    promptHash: HASH,
    cacheKey: HASH,
    request: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: HOSTILE, params: {}, sample: 0 },
    response: { text: `no code ${HOSTILE}`, model: HOSTILE, usage: { input: 1, output: 1 }, finishReason: 'stop', latencyMs: 1 },
    grade: { category: 'syntax', extracted: null, diagnosis: '', ms: 1 },
    createdAt: 1,
    cached: undefined,
    gradedAt: undefined,
  });
  const store = await JsonlRepository.open(dir);
  await store.importBundle({ run, attempts: [a], prompts: [{ hash: HASH, messages: [{ role: 'user', content: 'x' }] }] });
  await store.close();
  return dir;
}

function build(): string {
  const dir = join(root, 'build');
  mkdirSync(dir);
  writeFileSync(join(dir, 'index.html'), '<!doctype html>\n<html>\n  <head>\n    <title>OSVLab</title>\n  </head>\n  <body></body>\n</html>\n');
  writeFileSync(join(dir, 'sw.js'), '// service worker');
  writeFileSync(join(dir, 'osvlab-build.json'), JSON.stringify({ app: PROVENANCE.app, verifier: PROVENANCE.verifier, files: appFileHashes(dir) }));
  return dir;
}

describe('text from files is printed with its control characters visible', () => {
  it('escapes C0 (but newline and tab), DEL, C1 and bidi controls as JSON does', () => {
    expect(visibleText('a\x1b[8mb\tc\nd\x7f\u009b\u202e\u2066')).toBe('a\\u001b[8mb\tc\nd\\u007f\\u009b\\u202e\\u2066');
    expect(JSON.parse(`"${visibleText('\u202e\u0085')}"`)).toBe('\u202e\u0085');
    expect(visibleText('plain ünïcode ✓')).toBe('plain ünïcode ✓');
  });

  it('report, compare, regrade and publish --check print a hostile model name made visible', async () => {
    const a = await runDir('aaa111');
    const b = await runDir('bbb222');
    const site = join(root, 'site');
    const published = runCli(['publish', a, '--app', build(), '--out', site, '--title', `title ${HOSTILE}`]);
    expect(published.code, published.err).toBe(0);
    const named = [runCli(['report', a]), runCli(['compare', a, b]), runCli(['publish', '--check', site])];
    for (const r of named) expect(r.out + r.err).toContain('gpt-4o\\u001b[2K\\u001b]0;pwned\\u0007');
    for (const r of [...named, runCli(['regrade', a])]) expect(RAW.test(r.out + r.err), JSON.stringify(r.out + r.err).slice(0, 400)).toBe(false);
    // --json stays valid JSON and means the same name.
    const json = runCli(['report', a, '--json']);
    expect(RAW.test(json.out)).toBe(false);
    expect(JSON.stringify(JSON.parse(json.out))).toContain(JSON.stringify(HOSTILE).slice(1, -1));
  }, 180_000);
});
