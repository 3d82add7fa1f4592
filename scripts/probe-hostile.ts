/**
 * A probe of hostile inputs, run as a user runs OSVLab (`osvlab` in child
 * processes, the fake provider over real HTTP): specs, C implementations,
 * grade files (JSONL and OSVBench's results format), run directories,
 * command lines and a provider with odd answers. Each input ends in one of
 *
 *   coded      a coded error (exit 2 or 4 with a code such as ARG001, SPEC012, GRADE008)
 *   verdict    a verdict or a finished command (exit 0, 1 or 3), as expected
 *   internal   a crash, a stack trace, an uncoded error, an `internal` grade, a JSON reply that does not parse
 *   hang       no exit within the case's limit (the process is killed)
 *   wrong      a result that contradicts what the input must give (a verified broken spec, a lost pass)
 *   data-loss  a user's file changed, or answers that were graded missing from what is read back
 *
 * and the table counts them per family. Cases marked with an owner name what
 * another engineer's branch fixes (`owner` in the listing of findings).
 *
 *   npx tsx scripts/probe-hostile.ts [--family NAME[,NAME]] [--list]
 *
 * Takes 10-20 minutes on two cores; it writes only under a temporary folder.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KERNEL } from '../src/core/kernel/content.ts';
import { loadTasks } from '../src/core/tasks/load.ts';
import type { Task } from '../src/core/tasks/task.ts';
import { type FakeProvider, type FakeReply, startFakeProvider } from '../test/fake-provider/server.ts';

const ROOT = join(import.meta.dirname, '..');
const COLUMNS = ['coded', 'verdict', 'internal', 'hang', 'wrong', 'data-loss'] as const;
type Column = (typeof COLUMNS)[number];

interface Row {
  readonly family: string;
  readonly name: string;
  readonly column: Column;
  readonly detail: string;
  /** Who fixes it, when it is another engineer's area. */
  readonly owner?: string;
}

interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
  readonly ms: number;
  readonly hung: boolean;
}

// ------------------------------------------------------------------ running osvlab

function osvlab(args: readonly string[], opts: { limitMs?: number; env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<CliResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin/osvlab.mjs'), ...args], {
      cwd: scratch,
      env: opts.env ?? { ...process.env, OSVLAB_API_KEY: '' },
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let hung = false;
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (out.length < 4 << 20 ? (out += s) : undefined));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (err.length < 1 << 20 ? (err += s) : undefined));
    if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, opts.limitMs ?? 90_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, err, ms: Date.now() - started, hung });
    });
  });
}

/** A code of ours anywhere in the text. */
const CODE = /\b(ARG|IN|RES|SPEC|C|LLM|RUN|RUNDIR|MERGE|GRADE|SHARD|BUDGET|SESSION|STUDY)\d{3}\b/;
/** Signs of an error nobody handled. */
const CRASH = /^\s+at .+:\d+:\d+\)?$|node:internal|Unhandled|FATAL ERROR|Maximum call stack|is not a function|Cannot read propert|RuntimeError|Aborted\(/m;

interface Expect {
  /** The command prints one JSON object on stdout when it succeeds. */
  readonly json?: boolean;
  /** Says what is wrong with the result, if anything. */
  readonly check?: (r: CliResult, json: any) => string | undefined;
  /** Says what the user lost, if anything (checked after the command). */
  readonly lost?: () => string | undefined;
  readonly owner?: string;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function judge(family: string, name: string, r: CliResult, e: Expect = {}): Row {
  const row = (column: Column, detail: string): Row => ({ family, name, column, detail, ...(e.owner && column !== 'coded' && column !== 'verdict' ? { owner: e.owner } : {}) });
  const tail = (s: string) => s.trim().split('\n').slice(-2).join(' | ').slice(0, 200);
  if (r.hung) return row('hang', `no exit after ${r.ms} ms`);
  if (r.signal || r.code === null || r.code < 0 || r.code > 4) return row('internal', `exit ${r.code} signal ${r.signal}: ${tail(r.err)}`);
  if (CRASH.test(r.err)) return row('internal', `stack trace or crash: ${tail(r.err)}`);
  if (/\bC057\b/.test(r.err + r.out)) return row('internal', `C057 (an internal error): ${tail(r.err + r.out)}`);
  // A command that finished prints its JSON; a coded error (2, 4) need not, except verify's spec and C errors (checked by their cases).
  const json = e.json ? parseJson(r.out.trim()) : undefined;
  if (e.json && (r.code === 0 || r.code === 1 || r.code === 3) && json === undefined) return row('internal', `no JSON on stdout (exit ${r.code}): ${tail(r.out + r.err)}`);
  if ((r.code === 2 || r.code === 4) && !CODE.test(r.err + r.out)) return row('internal', `exit ${r.code} without a code: ${tail(r.err)}`);
  const lost = e.lost?.();
  if (lost) return row('data-loss', lost);
  const wrong = e.check?.(r, json);
  if (wrong) return row('wrong', wrong);
  return row(r.code === 2 || r.code === 4 ? 'coded' : 'verdict', `exit ${r.code}`);
}

// ------------------------------------------------------------------ inputs

let scratch = '';
let tasks: readonly Task[] = [];
const files = new Map<string, string>();

function file(name: string, text: string | Buffer): string {
  const p = join(scratch, 'in', name);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
}

function digest(path: string): string {
  const h = createHash('sha256');
  const walk = (p: string): void => {
    const st = statSync(p);
    if (st.isDirectory()) for (const n of readdirSync(p).sort()) walk(join(p, n));
    else if (st.isFile()) h.update(p).update(readFileSync(p));
  };
  walk(path);
  return h.digest('hex');
}

/** A check that `path` is the same after the command as before it. */
function unchanged(path: string): () => string | undefined {
  const before = digest(path);
  return () => (existsSync(path) && digest(path) === before ? undefined : `${path} was changed or removed`);
}

const spec = (name: string) => readFileSync(join(ROOT, 'tasks/hv6/specs', `${name}.py`), 'utf8');
const fence = (s: string) => `Here it is.\n\n\`\`\`python\n${s}\n\`\`\`\n`;
function edit(s: string, from: string, to: string): string {
  if (!s.includes(from)) throw new Error(`probe: the spec lacks ${JSON.stringify(from)}`);
  return s.replace(from, to);
}

/** The kernel's own C text of `handler`, from `int handler(` to its closing brace. */
function kernelFunction(handler: string): string {
  for (const text of KERNEL.files.values()) {
    const at = text.search(new RegExp(`^int ${handler}\\(`, 'm'));
    if (at < 0) continue;
    let depth = 0;
    for (let i = text.indexOf('{', at); i < text.length; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}' && --depth === 0) return text.slice(at, i + 1);
    }
  }
  throw new Error(`probe: no kernel function ${handler}`);
}

// ------------------------------------------------------------------ families

type Family = () => Promise<Row[]>;

async function many(family: string, cases: readonly (readonly [string, readonly string[], Expect?, { limitMs?: number; stdin?: string }?])[], parallel = 2): Promise<Row[]> {
  const rows: Row[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < cases.length) {
        const [name, args, e, o] = cases[next++];
        rows.push(judge(family, name, await osvlab(args, o), e));
      }
    }),
  );
  return rows;
}

const exits = (...codes: number[]) => (r: CliResult) => (codes.includes(r.code ?? -1) ? undefined : `exit ${r.code}, expected ${codes.join(' or ')}: ${r.err.trim().slice(0, 160)}`);
/** `exits` for verify --json, whose spec and C errors come in the JSON. */
const verifyExits = (...codes: number[]) => (r: CliResult, j: any) => exits(...codes)(r) ?? codedJson(r, j);
const status = (...ok: string[]) => (_r: CliResult, j: any) => (ok.includes(j?.verdict?.status) ? undefined : `verdict ${j?.verdict?.status}, expected ${ok.join(' or ')}`);

const cli: Family = async () => {
  const fifo = join(scratch, 'in', 'fifo');
  mkdirSync(join(scratch, 'in'), { recursive: true });
  spawnSync('mkfifo', [fifo]);
  const loop = join(scratch, 'in', 'loop');
  symlinkSync(loop, loop);
  const unreadable = file('unreadable.py', spec('sys_kill'));
  spawnSync('chmod', ['000', unreadable]);
  // Root reads any file: the case means something only for another user.
  const asRoot = process.getuid?.() === 0;
  const bad = file('bad-utf8.py', Buffer.from([0x64, 0x65, 0x66, 0x20, 0xff, 0xfe, 0x0a]));
  const runArgs = (...more: string[]) => ['run', '--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--out', join(scratch, 'never'), ...more];
  const usage = { check: exits(4) };
  return many('cli', [
    ['empty command', [''], usage],
    ['--version', ['--version'], usage],
    ['-h', ['-h'], { check: exits(0) }],
    ['verify --spec="" (empty)', ['verify', 'sys_kill', '--spec='], usage],
    ['verify --impl "" (empty)', ['verify', 'sys_kill', '--oracle', '--impl', ''], usage],
    ['lemmas --only ""', ['lemmas', 'sys_kill', '--oracle', '--only', ''], usage],
    ['verify --timeout 0', ['verify', 'sys_kill', '--oracle', '--timeout', '0'], usage],
    ['verify --timeout 0x10', ['verify', 'sys_kill', '--oracle', '--timeout', '0x10'], usage],
    ['verify --timeout " 5"', ['verify', 'sys_kill', '--oracle', '--timeout', ' 5'], usage],
    ['verify --timeout 2^53+1', ['verify', 'sys_kill', '--oracle', '--timeout', '9007199254740993'], usage],
    ['grade --timeout 2147483648', ['grade', '--responses', fifo, '--timeout', '2147483648'], usage],
    ['run --request-timeout 0', runArgs('--request-timeout', '0'), usage],
    ['verify --spec twice', ['verify', 'sys_kill', '--spec', 'a.py', '--spec', 'b.py'], usage],
    ['verify --spec --json (value forgotten)', ['verify', 'sys_kill', '--spec', '--json'], usage],
    ['verify --oracle --spec', ['verify', 'sys_kill', '--oracle', '--spec', 'x.py'], usage],
    ['verify -- (bare double dash)', ['verify', 'sys_kill', '--oracle', '--'], usage],
    ['verify two handlers', ['verify', 'sys_kill', 'sys_dup', '--oracle'], usage],
    ['verify SYS_KILL (case)', ['verify', 'SYS_KILL', '--oracle'], usage],
    ['verify 100k-character handler', ['verify', 'x'.repeat(100_000), '--oracle'], usage],
    ['verify handler with a newline', ['verify', 'sys_kill\nsys_dup', '--oracle'], usage],
    ['verify --variant of another handler', ['verify', 'sys_kill', '--oracle', '--variant', 'sys_dup-v1'], usage],
    ['verify --variant v9', ['verify', 'sys_kill', '--oracle', '--variant', 'sys_kill-v9'], usage],
    ['verify --variant and --impl', ['verify', 'sys_kill', '--oracle', '--variant', 'sys_kill-v1', '--impl', 'x.c'], usage],
    ['verify --spec - --impl -', ['verify', 'sys_kill', '--spec', '-', '--impl', '-'], usage],
    ['verify --spec FIFO', ['verify', 'sys_kill', '--spec', fifo], usage],
    ['verify --spec symlink loop', ['verify', 'sys_kill', '--spec', loop], usage],
    ...(asRoot ? [] : [['verify --spec unreadable', ['verify', 'sys_kill', '--spec', unreadable], usage] as const]),
    ['verify --spec directory', ['verify', 'sys_kill', '--spec', scratch], usage],
    ['verify --spec /proc/self/mem', ['verify', 'sys_kill', '--spec', '/proc/self/mem'], usage],
    ['verify --spec - (empty stdin)', ['verify', 'sys_kill', '--spec', '-', '--json'], { json: true, check: exits(2) }, { stdin: '' }],
    ['verify --spec invalid UTF-8', ['verify', 'sys_kill', '--spec', bad, '--json'], { json: true, check: exits(2) }],
    ['verify --impl - (empty stdin)', ['verify', 'sys_kill', '--oracle', '--impl', '-'], usage, { stdin: '' }],
    ['task', ['task'], usage],
    ['task show', ['task', 'show'], usage],
    ['task show extra', ['task', 'show', 'sys_kill-v0', 'extra'], usage],
    ['task show --json=1', ['task', 'show', 'sys_kill-v0', '--json=1'], usage],
    ['prompt --shots 1e3', ['prompt', 'sys_kill-v0', '--shots', '1e3'], usage],
    ['prompt --shots 999999', ['prompt', 'sys_kill-v0', '--shots', '999999', '--stats', '--json'], { json: true, check: exits(0, 4) }],
    ['prompt --all without --stats', ['prompt', '--all'], usage],
    ['prompt id and --all', ['prompt', 'sys_kill-v0', '--stats', '--all'], usage],
    ['tasks --format json', ['tasks', '--format', 'json'], usage],
    ['tasks extra', ['tasks', 'extra'], usage],
    ['lemmas --only ,,,', ['lemmas', 'sys_kill', '--oracle', '--only', ',,,', '--json'], { json: true, check: exits(0, 3) }],
    ['lemmas --only unknown', ['lemmas', 'sys_kill', '--oracle', '--only', 'isolation,nope'], usage],
    ['report (no dir)', ['report'], usage],
    ['report missing dir', ['report', join(scratch, 'no-such-dir')], usage],
    ['report /dev/null', ['report', '/dev/null'], usage],
    ['merge (nothing)', ['merge'], usage],
    ['merge without --out', ['merge', scratch], usage],
    ['compare one run', ['compare', scratch], usage],
    ['compare --resamples 0', ['compare', scratch, scratch, '--resamples', '0'], usage],
    ['bench --handlers nope', ['bench', '--handlers', 'nope'], usage],
    ['bench --runs x', ['bench', '--runs', 'x'], usage],
    ['run without --provider', ['run', '--model', 'm'], usage],
    ['run --base-url javascript:', runArgs().map((a) => (a === 'http://127.0.0.1:9/v1' ? 'javascript:alert(1)' : a)), usage],
    ['run --base-url http://', runArgs().map((a) => (a === 'http://127.0.0.1:9/v1' ? 'http://' : a)), usage],
    ['run --n 0', runArgs('--n', '0'), usage],
    ['run --temperature NaN', runArgs('--temperature', 'NaN'), usage],
    ['run --temperature 1e999', runArgs('--temperature', '1e999'), usage],
    ['run --max-tokens -1', runArgs('--max-tokens', '-1'), usage],
    ['run --seed 1.5', runArgs('--seed', '1.5'), usage],
    ['run --price 1/', runArgs('--price', '1/', '--max-cost', '1', '--max-tokens', '10'), usage],
    ['run --max-cost abc', runArgs('--max-cost', 'abc', '--max-tokens', '10'), usage],
    ['run --shard 0/0', runArgs('--shard', '0/0'), usage],
    ['run --shard 3/2', runArgs('--shard', '3/2'), usage],
    ['run --tasks first:0', runArgs('--tasks', 'first:0'), usage],
    ['run --tasks handler:', runArgs('--tasks', 'handler:'), usage],
    ['run --tasks ,', runArgs('--tasks', ','), usage],
    ['run --reasoning-effort max', runArgs('--reasoning-effort', 'max'), usage],
    ['run --concurrency 0', runArgs('--concurrency', '0', '--tasks', 'nope'), usage],
    ['run --shots 999 --tasks nope', runArgs('--shots', '999', '--tasks', 'nope'), usage],
    ['no command', [], usage],
  ]);
};

/** Spec answers, all graded by one `osvlab grade` (as a batch of model answers is). */
const specs: Family = async () => {
  const KILL = spec('sys_kill');
  const body = (lines: string) => `import z3\nfrom libirpy import util\nimport hv6py.kernel.spec.datatypes as dt\n\ndef sys_kill(old, pid):\n${lines}\n`;
  const withCond = (extra: string) => edit(KILL, 'is_pid_valid(pid),', `is_pid_valid(pid),\n        ${extra},`);
  const beforeReturn = (stmt: string) => edit(KILL, '    return cond,', `    ${stmt}\n    return cond,`);
  const PASS = ['pass'];
  const ANY = ['pass', 'syntax', 'semantic', 'timeout', 'unknown'];
  const SYNTAX = ['syntax'];
  const cases: [string, string, readonly string[], string?][] = [
    ['oracle, CRLF line ends', KILL.replace(/\n/g, '\r\n'), PASS],
    ['oracle, tabs for indentation', KILL.replace(/^( {4})+/gm, (m) => '\t'.repeat(m.length / 4)), PASS],
    ['oracle, comments on every line', KILL.split('\n').map((l) => (l.trim() && !l.trim().startsWith('#') && !l.trimEnd().endsWith(',') && !l.trimEnd().endsWith('(') ? `${l}  # note` : l)).join('\n'), PASS],
    ['oracle, conditions reordered', edit(edit(KILL, 'is_pid_valid(pid),', 'old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,\n        is_pid_valid(pid),'), '        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,\n    )', '    )'), PASS],
    ['oracle, docstring', edit(KILL, 'def sys_kill(old, pid):\n', 'def sys_kill(old, pid):\n    """Kills pid."""\n'), PASS],
    ['oracle, three copies of old', KILL.replace('new = old.copy()', 'new = old.copy().copy().copy()'), PASS],
    ['oracle, semicolons', edit(KILL, '    new = old.copy()\n', '    new = old.copy(); x = 1;\n'), PASS],
    ['oracle, backslash continuation', edit(KILL, '    new = old.copy()', '    new = \\\n        old.copy()'), PASS],
    // hv6's Python 2 reads source as ASCII without a PEP 263 coding line (upstream writes the answer below
    // a header that has none): a non-ASCII comment is its SyntaxError, so a syntax grade (SPEC001, docs/spec-errors.md).
    ['oracle, unicode comment', `# π ≠ 3, naïve — “quotes”\n${KILL}`, SYNTAX],
    ['oracle, helper defined inside', edit(KILL, '    new = old.copy()', '    def fresh(s):\n        return s.copy()\n    new = fresh(old)'), PASS],
    ['oracle, extra parentheses', KILL.replace('return cond, util.If(cond, new, old)', 'return ((cond), (util.If((cond), (new), (old))))'), PASS],
    ['oracle, condition through z3.Not(z3.Or(...))', edit(KILL, 'cond = z3.And(', 'cond = z3.Not(z3.Not(z3.And(').replace('    )\n\n    new', '    )))\n\n    new'), PASS],
    ['oracle, a true ForAll conjunct', withCond("z3.ForAll([z3.BitVec('q', 64)], z3.ULE(z3.BitVec('q', 64), z3.BitVec('q', 64)))"), ['pass', 'timeout', 'unknown']],
    ['flipped state test', edit(KILL, 'old.procs[pid].state != dt.proc_state.PROC_UNUSED', 'old.procs[pid].state == dt.proc_state.PROC_UNUSED'), ['semantic']],
    ['killed never set', edit(KILL, '    new.procs[pid].killed = z3.BoolVal(True)\n', ''), ['semantic']],
    ['new state without If', edit(KILL, 'return cond, util.If(cond, new, old)', 'return cond, new'), ['semantic']],
    ['always succeeds', edit(KILL, 'return cond, util.If(cond, new, old)', 'return z3.BoolVal(True), new'), ['semantic']],
    ['Python True as the condition', edit(KILL, 'return cond, util.If(cond, new, old)', 'return True, new'), ['semantic', 'syntax']],
    ['pid never checked', edit(KILL, '        is_pid_valid(pid),\n', ''), ['semantic']],
    ['no code at all', '', SYNTAX],
    ['division by zero', beforeReturn('x = 1 / 0'), SYNTAX],
    ['raise', beforeReturn("raise Exception('no')"), SYNTAX],
    ['unbounded recursion', body('    return sys_kill(old, pid)'), SYNTAX],
    ['mutual recursion through a lambda', body('    f = lambda g: g(g)\n    return f(f)'), SYNTAX],
    ['while True', body('    while True:\n        pass'), ['syntax', 'timeout']],
    ['range(10**9) loop', body('    for i in range(10**9):\n        pass\n    return z3.BoolVal(True), old'), ['syntax', 'timeout']],
    // Python raises MemoryError only where 8 or 10 GB cannot be had: either grade can be upstream's.
    ['[0] * 10**9', beforeReturn('x = [0] * (10**9)'), ANY],
    ["'a' * 10**10", beforeReturn("x = 'a' * (10**10)"), ANY],
    ['str of 2**60 shared lists', beforeReturn('a = [1]\n    for i in range(60):\n        a = [a, a]\n    s = str(a)'), ['syntax', 'timeout']],
    ['unknown field read', beforeReturn('x = old.procs[pid].nope'), SYNTAX],
    ['BitVec of width 0', beforeReturn("x = z3.BitVec('x', 0)"), SYNTAX],
    ['BitVec of width -1', beforeReturn("x = z3.BitVec('x', -1)"), SYNTAX],
    ['Extract past the width', beforeReturn('x = z3.Extract(100, 0, pid)'), SYNTAX],
    ['ZeroExt by -1', beforeReturn('x = z3.ZeroExt(-1, pid)'), SYNTAX],
    ['If on a bit-vector', beforeReturn('x = z3.If(pid, pid, pid)'), SYNTAX],
    // Python 2.7 refuses a file with a NUL byte anywhere (IndentationError or "expected string without null bytes").
    ['NUL byte in a comment', edit(KILL, '# pid names', '# pid\0 names'), SYNTAX, 'frontends'],
    ['NUL byte in a string', beforeReturn('x = "a\0b"'), SYNTAX, 'frontends'],
    ['yield (a generator)', body('    yield z3.BoolVal(True)'), SYNTAX],
    ['one argument', KILL.replace('def sys_kill(old, pid):', 'def sys_kill(old):'), SYNTAX],
    ['no entry function', KILL.replace('def sys_kill(old, pid):', 'def kill(old, pid):'), SYNTAX],
    ['returns one value', edit(KILL, 'return cond, util.If(cond, new, old)', 'return cond'), SYNTAX],
    ['returns three values', edit(KILL, 'return cond, util.If(cond, new, old)', 'return cond, new, old'), SYNTAX],
    ['name never defined', beforeReturn('x = undefined_name + 1'), SYNTAX],
    ['10000 nested parentheses', beforeReturn(`x = ${'('.repeat(10_000)}1${')'.repeat(10_000)}`), ['syntax']],
    ['5000 nested lists', beforeReturn(`x = ${'['.repeat(5000)}${']'.repeat(5000)}`), ['syntax']],
    ['4096-bit product', withCond("z3.BitVec('a', 4096) * z3.BitVec('b', 4096) == z3.BitVecVal((1 << 4095) + 12345, 4096)"), ['timeout', 'semantic', 'unknown']],
    ['ForAll over 1024 bits', withCond("z3.ForAll([z3.BitVec('q', 1024)], z3.BitVec('q', 1024) * z3.BitVec('q', 1024) != z3.ZeroExt(960, pid) * z3.BitVec('q', 1024) + 3)"), ['timeout', 'semantic', 'unknown']],
    ['import os', edit(KILL, 'import z3\n', 'import z3\nimport os\n'), ANY],
    ['os.system', beforeReturn("__import__('os').system('touch /tmp/osvlab-probe-owned')"), ANY],
    ['escape through __class__', beforeReturn('x = ().__class__.__bases__[0].__subclasses__()'), ANY],
    ['getattr of copy', edit(KILL, 'new = old.copy()', "new = getattr(old, 'copy')()"), ANY],
    ['exec statement', beforeReturn('exec "y = 1"'), ANY],
    ['eval', beforeReturn("x = eval('1 + 1')"), ANY],
    ["'%s' % old", beforeReturn("x = '%s' % old"), ANY],
    ['class statement', beforeReturn('class Foo(object):\n        pass'), ANY],
    ['global statement', beforeReturn('global g\n    g = 1'), ANY],
    ['try/except', beforeReturn('try:\n        x = 1\n    except Exception:\n        x = 2'), ANY],
    ['assert False', beforeReturn('assert False, "no"'), SYNTAX],
    ['BitVec of 5000 bits', beforeReturn("x = z3.BitVec('x', 5000)"), ANY],
    ['index of 2**64', beforeReturn('x = old.procs[2**64].state'), ANY],
    ['index -1', beforeReturn('x = old.procs[-1].state'), ANY],
    ['new.procs = 1', beforeReturn('new.procs = 1'), ANY],
    ['int into a bool field', edit(KILL, 'new.procs[pid].killed = z3.BoolVal(True)', 'new.procs[pid].killed = 1'), ANY],
    ['z3.And()', beforeReturn('x = z3.And()'), ANY],
    ['dict comprehension', beforeReturn('x = {i: i for i in range(3)}'), ANY],
    ['set of states', beforeReturn('x = set([1, 2])'), ANY],
    ['sorted states', beforeReturn('x = sorted([3, 1, 2])'), ANY],
    ['1 MiB of comment', `${KILL}\n# ${'x'.repeat(1 << 20)}\n`, ANY],
    ['a 5000-digit literal', beforeReturn(`x = 1${'0'.repeat(5000)}`), ANY],
    ['lone surrogate in a string', beforeReturn("x = u'\\ud800'"), ANY],
    ['simplify', edit(KILL, 'return cond,', 'cond = z3.simplify(cond)\n    return cond,'), ['pass', 'syntax']],
  ];
  const lines = cases.map(([, text]) => JSON.stringify({ task_id: 'sys_kill-v0', response: text === '' ? 'No code, sorry.' : fence(text) }));
  const input = file('specs.jsonl', `${lines.join('\n')}\n`);
  const keep = unchanged(input);
  const r = await osvlab(['grade', '--responses', input, '--json', '--no-lemmas', '--timeout', '20000', '--concurrency', '2'], { limitMs: 3_600_000 });
  const head = judge('spec', 'the whole batch', r, { json: true, lost: keep });
  if (head.column !== 'coded' && head.column !== 'verdict') return [head];
  const results = (parseJson(r.out) as { results: { line: number; category: string; diagnosis: string }[] }).results;
  return cases.map(([name, , ok, owner], i) => {
    const g = results.find((x) => x.line === i + 1);
    const row = (column: Column, detail: string): Row => ({ family: 'spec', name, column, detail, ...(owner ? { owner } : {}) });
    if (!g) return row('data-loss', 'the answer is missing from the results');
    if (g.category === 'internal') return row('internal', g.diagnosis.slice(0, 200));
    if (!ok.includes(g.category)) return row('wrong', `${g.category}, expected ${ok.join(' or ')}: ${g.diagnosis.slice(0, 160)}`);
    return row(g.category === 'syntax' ? 'coded' : 'verdict', g.category);
  });
};

/**
 * Answers whose grade Python 2 decides (hv6 evaluates specs with Python 2.7 and z3py): a correct
 * sys_kill with one construct of the language added, read as a file of its own (docs/spec-errors.md),
 * each expected grade the one Python 2 gives it: `pass` where the construct evaluates as written
 * (its assert holds), `syntax` where Python 2 raises.
 */
const py2: Family = async () => {
  const KILL = spec('sys_kill');
  const beforeReturn = (stmt: string) => edit(KILL, '    return cond,', `    ${stmt.replace(/\n/g, '\n    ')}\n    return cond,`);
  const PASS = ['pass'];
  const SYNTAX = ['syntax'];
  const cases: [string, string, readonly string[]][] = [
    // __future__ and source encodings (item 7)
    ['from __future__ import division: 7 / 2 is 3.5', `from __future__ import division\n${beforeReturn('assert 7 / 2 == 3')}`, SYNTAX],
    ['__future__ import after another statement', edit(KILL, 'import z3\n', 'import z3\nfrom __future__ import division\n'), SYNTAX],
    ['from __future__ import annotations (not in 2.7)', `from __future__ import annotations\n${KILL}`, SYNTAX],
    ['from __future__ import braces', `from __future__ import braces\n${KILL}`, SYNTAX],
    ['# coding: foobar', `# coding: foobar\n${KILL}`, SYNTAX],
    ['a BOM and a latin-1 coding line', `\ufeff# -*- coding: latin-1 -*-\n${KILL}`, SYNTAX],
    // identity of z3 wrappers (item 8)
    ['util.i64(1) is util.i64(1) is False', beforeReturn('if util.i64(1) is util.i64(1):\n    return z3.BoolVal(False), old'), PASS],
    ['two reads of a field are not the same object', beforeReturn('if old.procs[pid].state is old.procs[pid].state:\n    return z3.BoolVal(False), old'), PASS],
    // the answer's text (item 9)
    ['a CRLF answer inside a fence', fence(KILL).replace(/\n/g, '\r\n'), PASS],
    // Python 2 that hv6 runs (item 10)
    ["if __name__ == '__main__':", `${KILL}\nif __name__ == '__main__':\n    assert False\n`, PASS],
    ['% string formatting', beforeReturn("assert 'pid %d of %s, %r %x %5.2s|%-3d|' % (3, 'x', 'y', 255, 'abc', 7) == \"pid 3 of x, 'y' ff    ab|7  |\""), PASS],
    ['map over states', edit(KILL, '        old.procs[pid].state != dt.proc_state.PROC_UNUSED,\n        # which is not already dead\n        old.procs[pid].state != dt.proc_state.PROC_ZOMBIE,\n',
      '        *map(lambda s: old.procs[pid].state != s, [dt.proc_state.PROC_UNUSED, dt.proc_state.PROC_ZOMBIE])\n'), PASS],
    ['filter, reduce, xrange, isinstance, sorted, reversed', beforeReturn('assert filter(lambda x: x % 2, xrange(5)) == [1, 3] and reduce(lambda a, b: a * b, [1, 2, 3, 4]) == 24\nassert isinstance(3, int) and sorted([3, 1, 2], reverse=True) == [3, 2, 1] and list(reversed((1, 2))) == [2, 1]'), PASS],
    ['next, getattr, pow, divmod, cmp, repr, oct, int(x, base)', beforeReturn("assert next(iter([5])) == 5 and getattr(old, 'copy') is not None and pow(2, 10, 1000) == 24 and divmod(-7, 2) == (-4, 1)\nassert cmp(1, 2) == -1 and repr('a') == \"'a'\" and oct(8) == '010' and int('ff', 16) == 255"), PASS],
    ['str methods', beforeReturn("assert 'a,b'.split(',') == ['a', 'b'] and '-'.join(['x', 'y']) == 'x-y' and '{0}+{1}'.format(1, 'b') == '1+b'\nassert ' s '.strip() == 's' and 'abc'.index('c') == 2 and 'ab'.upper() == 'AB' and 'aXa'.replace('X', '') == 'aa' and 'abc'.startswith('ab')"), PASS],
    ['list and tuple methods', beforeReturn('l = [3, 1, 2]\nl.sort()\nl.insert(0, 9)\nassert l == [9, 1, 2, 3] and l.index(2) == 2 and l.pop() == 3 and l.count(9) == 1 and (1, 2, 1).count(1) == 2 and (4, 5).index(5) == 1'), PASS],
    ['tuple parameters', edit(KILL, '    new = old.copy()', '    def first((a, b)):\n        return a\n    new = first((old.copy(), 0))'), PASS],
    ['a generator function', edit(KILL, '    new = old.copy()', '    def states():\n        yield dt.proc_state.PROC_UNUSED\n        yield dt.proc_state.PROC_ZOMBIE\n    assert len(list(states())) == 2\n    new = old.copy()'), PASS],
    ['a generator is iterated once', beforeReturn('g = (x for x in [1, 2])\na = list(g)\nassert list(g) == []'), PASS],
    ['import sys', edit(KILL, 'import z3\n', 'import z3\nimport sys\n'), PASS],
    ['from z3 import * inside a function', edit(KILL, '    new = old.copy()', '    from z3 import *\n    assert BoolVal(True) is not None\n    new = old.copy()'), PASS],
    ['tuple ordering', beforeReturn('assert (1, 2) < (1, 3) and (2,) > (1, 9) and max([(1, 2), (1, 3)]) == (1, 3)'), PASS],
    ['`10L` and hex(255L) keep the L', beforeReturn("assert `10L` == '10L' and hex(255L) == '0xffL' and repr(2 ** 70)[-1] == 'L'"), PASS],
    ["a UTF-8 byte string: len('é') is 2", `# -*- coding: utf-8 -*-\n${beforeReturn("assert len('é') == 2 and len(u'é') == 1")}`, PASS],
    ['a list comprehension leaks its variable', beforeReturn('xs = [q for q in range(3)]\nassert q == 2'), PASS],
  ];
  const lines = cases.map(([name, text]) => JSON.stringify({ task_id: 'sys_kill-v0', response: name === 'a CRLF answer inside a fence' ? text : fence(text) }));
  const input = file('py2.jsonl', `${lines.join('\n')}\n`);
  const r = await osvlab(['grade', '--responses', input, '--json', '--no-lemmas', '--timeout', '20000', '--concurrency', '2'], { limitMs: 1_800_000 });
  const head = judge('py2', 'the whole batch', r, { json: true, lost: unchanged(input) });
  if (head.column !== 'coded' && head.column !== 'verdict') return [head];
  const results = (parseJson(r.out) as { results: { line: number; category: string; diagnosis: string }[] }).results;
  return cases.map(([name, , ok], i) => {
    const g = results.find((x) => x.line === i + 1);
    const row = (column: Column, detail: string): Row => ({ family: 'py2', name, column, detail });
    if (!g) return row('data-loss', 'the answer is missing from the results');
    if (g.category === 'internal') return row('internal', g.diagnosis.slice(0, 200));
    if (!ok.includes(g.category)) return row('wrong', `${g.category}, expected ${ok.join(' or ')}: ${g.diagnosis.slice(0, 160)}`);
    return row(g.category === 'syntax' ? 'coded' : 'verdict', g.category);
  });
};

/**
 * Implementations whose verdict C decides as gcc compiles it for x86-64 (a signed division that
 * overflows traps, SIGFPE), and ones right only where C places the globals, which hv6's verifier
 * refutes, as we do, with a counterexample that says so (docs/c-subset.md, "Where the globals are").
 */
const cSemantics: Family = async () => {
  const own = kernelFunction('sys_kill');
  const withGuard = (guard: string) => `#include "kernel.h"\n${own.replace('{\n    struct proc *p;\n', `{\n    struct proc *p;\n\n${guard}\n`)}`;
  const outsideC = (global: string) => (r: CliResult, j: any) =>
    status('refuted')(r, j) ?? (j?.verdict?.counterexample?.outsideC?.[0]?.global === global ? undefined : `no note that the failing state puts ${global} where C cannot`);
  const cases: [string, string, (r: CliResult, j: any) => string | undefined][] = [
    ['INT_MIN / -1', withGuard('    int m = -2147483647 - 1;\n    if (m / ((int)pid | 1) == 7 && 0)\n        return -1;'), status('refuted')],
    ['LONG_MIN / -1', withGuard('    long m = -9223372036854775807L - 1;\n    if (m / (pid | 1) == 7 && 0)\n        return -1;'), status('refuted')],
    ['INT_MIN % -1', withGuard('    int m = -2147483647 - 1;\n    if (m % ((int)pid | 1) == 7 && 0)\n        return -1;'), status('refuted')],
    ['relies on &proc_table[0] != 0', withGuard('    if ((uintptr_t)&proc_table[0] == 0)\n        return -EINVAL;'), outsideC('proc_table')],
    ['relies on proc_table being page-aligned', withGuard('    if ((uintptr_t)proc_table % 4096 != 0)\n        panic("misaligned");'), outsideC('proc_table')],
    ['relies on current being 8-byte aligned', withGuard('    if ((uintptr_t)&current % 8 != 0)\n        return -EINVAL;'), outsideC('current')],
    ['relies on more alignment than declared', withGuard('    if ((uintptr_t)proc_table % 8192 != 0)\n        return -EINVAL;'), status('refuted')],
  ];
  const list = cases.map(([name, text, check], i) => [name, ['verify', 'sys_kill', '--oracle', '--impl', file(`c-sem-${i}.c`, text), '--json', '--timeout', '60000'], { json: true, check }] as const);
  return many('c-sem', list);
};

const cImpls: Family = async () => {
  const own = kernelFunction('sys_kill');
  const head = '#include "kernel.h"\n';
  const v1 = tasks.find((t) => t.id === 'sys_kill-v1')!.impl_override;
  const laughs = Array.from({ length: 24 }, (_, i) => `#define L${i} L${i + 1} L${i + 1}`).join('\n');
  const cases: [string, string | Buffer, (r: CliResult, j: any) => string | undefined, string?][] = [
    ["the kernel's own sys_kill", head + own, status('verified')],
    ["the kernel's own sys_kill, CRLF", (head + own).replace(/\n/g, '\r\n'), status('verified')],
    ['the v1 bug', v1, status('refuted')],
    ['returns 0 always', `${head}int sys_kill(pid_t pid)\n{\n    return 0;\n}\n`, status('refuted')],
    ['divides by zero', `${head}int sys_kill(pid_t pid)\n{\n    return 1 / (int)(pid - pid);\n}\n`, status('refuted')],
    ['shifts by 64', `${head}int sys_kill(pid_t pid)\n{\n    unsigned long one = 1;\n    return (int)(one << (pid - pid + 64));\n}\n`, status('refuted')],
    ['#include "/dev/zero"', `#include "/dev/zero"\n${head}${own}`, verifyExits(2)],
    ['#include of /etc/passwd', `#include "../../../../../../../etc/passwd"\n${head}${own}`, verifyExits(2)],
    ['#include itself', `#include "override.c"\n${head}${own}`, verifyExits(2)],
    ['macro doubling 24 times', `${laughs}\n${head}int sys_kill(pid_t pid)\n{\n    return L0;\n}\n`, verifyExits(2)],
    ['#error', `#error boom\n${head}${own}`, verifyExits(2)],
    ['10000 nested blocks', `${head}int sys_kill(pid_t pid)\n{\n${'{'.repeat(10_000)}${'}'.repeat(10_000)}\n    return 0;\n}\n`, verifyExits(1, 2)],
    ['200k-character name', `${head}int ${'x'.repeat(200_000)};\n${own}`, verifyExits(0, 2)],
    ['NUL byte', `${head}${own}\n\0\n`, verifyExits(0, 2)],
    ['invalid UTF-8 in a comment', Buffer.concat([Buffer.from(`${head}/* `), Buffer.from([0xff, 0xfe]), Buffer.from(` */\n${own}`)]), verifyExits(0, 2)],
    ['recursion', `${head}int sys_kill(pid_t pid)\n{\n    return sys_kill(pid);\n}\n`, verifyExits(1, 2)],
    ['for (;;)', `${head}int sys_kill(pid_t pid)\n{\n    for (;;) {}\n    return 0;\n}\n`, verifyExits(1, 2)],
    ['K&R definition', `${head}int sys_kill(pid)\n    pid_t pid;\n{\n    return 0;\n}\n`, verifyExits(1, 2)],
    ['defined twice', `${head}${own}\n${own}\n`, verifyExits(2)],
    // gcc compiles it and the link fails (undefined reference): no program, so no verdict.
    ['undefined global', `${head}extern int nowhere;\nint sys_kill(pid_t pid)\n{\n    return nowhere;\n}\n`, verifyExits(2), 'frontends'],
    ['a local array of 2^30', `${head}int sys_kill(pid_t pid)\n{\n    int a[1 << 30];\n    a[0] = 0;\n    return a[0];\n}\n`, verifyExits(1, 2)],
    ['2 MiB of comment', `${head}${own}\n/* ${'x'.repeat(2 << 20)} */\n`, verifyExits(4)],
    ['only a comment', `/* nothing */\n`, verifyExits(4)],
    ['only declarations', `${head}int helper(void);\n`, verifyExits(4)],
  ];
  const list = cases.map(([name, text, check, owner], i) => [name, ['verify', 'sys_kill', '--oracle', '--impl', file(`impl-${i}.c`, text), '--json', '--timeout', '30000'], { json: true, check, owner }] as const);
  return many('c', list);
};

const gradeFiles: Family = async () => {
  const prose = 'No code here.';
  const kill = tasks.findIndex((t) => t.id === 'sys_kill-v0');
  const line = (o: unknown) => JSON.stringify(o);
  const cases: [string, string | Buffer, ((r: CliResult, j: any) => string | undefined)?, string?][] = [
    ['JSONL with a BOM', `\ufeff${line({ task_id: 'sys_kill-v0', response: prose })}\n`],
    ['JSONL with CRLF', `${line({ task_id: 'sys_kill-v0', response: prose })}\r\n${line({ task_id: 'sys_dup-v0', response: prose })}\r\n`, answers(2)],
    ['blank lines only', '\n\n\n'],
    ['a JSON array', '[]'],
    ['an empty object', '{}'],
    ['OSVBench, key 0x1', line({ '0x1': { x: [prose] }, [kill]: { sys_kill: [prose] } }), answers(1), 'session'],
    ['OSVBench, answers a string', line({ [kill]: { sys_kill: prose } })],
    ['OSVBench, answer null', line({ [kill]: { sys_kill: [null, prose] } }), answers(1)],
    ['OSVBench, two syscalls in one entry', line({ [kill]: { sys_kill: [prose], sys_dup: [prose] } })],
    ['OSVBench, __proto__ entry', `{"__proto__": {"sys_kill": ["x"]}, "${kill}": {"sys_kill": ["${prose}"]}}`, answers(1), 'session'],
    ['JSONL task_id __proto__', `${line({ task_id: '__proto__', response: prose })}\n${line({ task_id: 'sys_kill-v0', response: prose })}\n`, answers(1)],
    ['JSONL handler constructor', `${line({ handler: 'constructor', response: prose })}\n${line({ handler: 'sys_kill', response: prose })}\n`, answers(1)],
    ['JSONL duplicate keys', `{"task_id": "sys_kill-v0", "task_id": "sys_dup-v0", "response": "${prose}"}\n`],
    ['JSONL 100000-deep array', `${'['.repeat(100_000)}${']'.repeat(100_000)}\n${line({ task_id: 'sys_kill-v0', response: prose })}\n`, answers(1)],
    ['JSONL response a number', `${line({ task_id: 'sys_kill-v0', response: 5 })}\n${line({ task_id: 'sys_kill-v0', response: prose })}\n`, answers(1)],
    ['JSONL response 5 MB', `${line({ task_id: 'sys_kill-v0', response: fence('x = 1\n'.repeat(800_000)) })}\n`],
    ['JSONL 2000 identical lines', `${Array.from({ length: 2000 }, () => line({ task_id: 'sys_kill-v0', response: prose })).join('\n')}\n`, answers(2000)],
    ['JSONL invalid UTF-8', Buffer.concat([Buffer.from('{"task_id": "sys_kill-v0", "response": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')])],
    ['JSONL NUL escape', `${line({ task_id: 'sys_kill-v0', response: 'a\u0000b' })}\n`, answers(1)],
    ['JSONL lone surrogate', `{"task_id": "sys_kill-v0", "response": "\\ud800"}\n`, answers(1)],
    ['JSONL unknown fields', `${line({ task_id: 'sys_kill-v0', response: prose, extra: { deep: [1, 2] } })}\n`, answers(1)],
  ];
  const list = cases.map(([name, text, check, owner], i) => {
    const p = file(`responses-${i}.jsonl`, text);
    return [name, ['grade', '--responses', p, '--json', '--no-lemmas', '--timeout', '10000'], { json: true, check, lost: unchanged(p), owner }] as const;
  });
  const thirty = file('thirty.jsonl', Array.from({ length: 30 }, (_, i) => line({ task_id: 'sys_kill-v0', response: `${prose} ${i}` })).join('\n'));
  list.push(['--concurrency 100000 on 30 answers', ['grade', '--responses', thirty, '--concurrency', '100000', '--json', '--no-lemmas'], { json: true, check: answers(30) }] as never);
  const sparse = file('sparse.jsonl', '');
  truncateSync(sparse, 300 << 20);
  list.push(['a 300 MB (sparse) file', ['grade', '--responses', sparse], { check: exits(4) }] as never);
  return many('grade-file', list);
};

/** verify's JSON on a spec or C error (exit 2): the verdict carries the coded error. */
function codedJson(r: CliResult, j: any): string | undefined {
  if (r.code !== 2) return undefined;
  return typeof j?.verdict?.error?.code === 'string' ? undefined : 'exit 2 without the error in the JSON';
}

/** `--json` summary with `n` answers graded. */
function answers(n: number) {
  return (_r: CliResult, j: any) => (j?.summary?.answers === n ? undefined : `${j?.summary?.answers} answers graded, expected ${n}`);
}

const runDirs: Family = async () => {
  const base = join(scratch, 'runs', 'base');
  const input = file('base.jsonl', ['sys_kill-v0', 'sys_kill-v1', 'sys_dup-v0'].map((id) => JSON.stringify({ task_id: id, response: 'No code.' })).join('\n'));
  const made = await osvlab(['grade', '--responses', input, '--out', base, '--no-lemmas'], { limitMs: 300_000 });
  if (made.code !== 0) return [judge('run-dir', 'the base run', made)];
  let n = 0;
  const variant = (damage: (dir: string) => void): string => {
    const dir = join(scratch, 'runs', `v${++n}`);
    cpSync(base, dir, { recursive: true });
    damage(dir);
    return dir;
  };
  const at = (dir: string, f: string) => join(dir, f);
  const reportOf = (name: string, damage: (dir: string) => void, check?: (r: CliResult, j: any) => string | undefined, owner?: string) => {
    const dir = variant(damage);
    return [name, ['report', dir, '--json'], { json: true, check, lost: unchanged(dir), owner }, { limitMs: 120_000 }] as const;
  };
  const attempts = readFileSync(at(base, 'attempts.jsonl'), 'utf8');
  const runJson = readFileSync(at(base, 'run.json'), 'utf8');
  const partialOrCoded = (r: CliResult, j: any) => (r.code === 4 || j?.partial === true ? undefined : `report says partial=${j?.partial} with attempts ${j?.attempts?.length}`);
  const cases = [
    reportOf('run.json cut in half', (d) => writeFileSync(at(d, 'run.json'), runJson.slice(0, runJson.length >> 1)), exits(4)),
    reportOf('run.json is null', (d) => writeFileSync(at(d, 'run.json'), 'null'), exits(4)),
    reportOf('run.json is []', (d) => writeFileSync(at(d, 'run.json'), '[]'), exits(4)),
    reportOf('run.json has a __proto__ task hash', (d) => writeFileSync(at(d, 'run.json'), runJson.replace('"taskHashes":{', '"taskHashes":{"__proto__":"x",'))),
    reportOf('run.json after 2 MB of spaces', (d) => writeFileSync(at(d, 'run.json'), ' '.repeat(2 << 20) + runJson)),
    reportOf('attempts.jsonl with garbage lines', (d) => writeFileSync(at(d, 'attempts.jsonl'), `${attempts}garbage\n{"id": 1}\n[]\n`), partialOrCoded),
    reportOf('attempts.jsonl one line of 10 MB', (d) => writeFileSync(at(d, 'attempts.jsonl'), `${attempts}${'x'.repeat(10 << 20)}\n`), partialOrCoded),
    reportOf('attempt with grade bogus', (d) => writeFileSync(at(d, 'attempts.jsonl'), attempts.replace('"category":"syntax"', '"category":"bogus"')), partialOrCoded),
    // The run has three tasks; the attempt of one now names a task it does not have, so that task has no answer.
    // Every line of it: attempts.jsonl is append-only, and the attempt's last line is the one that counts.
    reportOf('attempt of a task not in the run', (d) => writeFileSync(at(d, 'attempts.jsonl'), attempts.replace(/"taskId":"sys_kill-v0"/g, '"taskId":"nope-v0"')), partialOrCoded, 'session'),
    reportOf('attempt of task constructor', (d) => writeFileSync(at(d, 'attempts.jsonl'), attempts.replace(/"taskId":"sys_kill-v0"/g, '"taskId":"constructor"')), partialOrCoded, 'session'),
    reportOf('prompts.jsonl removed', (d) => rmSync(at(d, 'prompts.jsonl'), { force: true })),
    reportOf('an unknown extra file', (d) => writeFileSync(at(d, 'notes.txt'), 'mine')),
    reportOf('attempts.jsonl removed', (d) => rmSync(at(d, 'attempts.jsonl')), partialOrCoded, 'session'),
    reportOf('run.json is a directory', (d) => (rmSync(at(d, 'run.json')), mkdirSync(at(d, 'run.json'))), exits(4), 'session'),
    reportOf('attempts.jsonl is a directory', (d) => (rmSync(at(d, 'attempts.jsonl')), mkdirSync(at(d, 'attempts.jsonl'))), exits(4), 'session'),
    reportOf('attempts.jsonl links to /dev/zero', (d) => (rmSync(at(d, 'attempts.jsonl')), symlinkSync('/dev/zero', at(d, 'attempts.jsonl'))), exits(4), 'session'),
  ];
  const merged = join(scratch, 'runs', 'merged');
  const shards = [1, 2].map((k) => join(scratch, 'runs', `shard-${k}`));
  for (const [k, dir] of shards.entries()) await osvlab(['grade', '--responses', input, '--out', dir, '--no-lemmas', '--shard', `${k + 1}/2`], { limitMs: 300_000 });
  // A merge that is written holds every answer of its shards (three, one per task).
  const lostInMerge = (dir: string) => {
    if (!existsSync(join(dir, 'run.json'))) return undefined;
    const ids = new Set(readFileSync(join(dir, 'attempts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).taskId));
    return ids.size === 3 ? undefined : `the merged run has ${ids.size} of 3 tasks' answers`;
  };
  const userDir = join(scratch, 'runs', 'users-own');
  mkdirSync(userDir, { recursive: true });
  writeFileSync(join(userDir, 'notes.txt'), 'my notes');
  writeFileSync(join(userDir, 'attempts.jsonl'), 'my own lines\n');
  const rows = await many('run-dir', [
    ...cases,
    ['compare a run with itself', ['compare', base, base, '--json'], { json: true, lost: unchanged(base) }],
    ['merge a run that is not a shard', ['merge', base, base, '--out', merged, '--json'], { json: true, check: exits(2, 4) }],
    [
      'merge two shards, one given twice',
      ['merge', shards[0], shards[1], shards[0], '--out', join(scratch, 'runs', 'merged-shards'), '--json'],
      { json: true, check: exits(0, 2, 4), lost: () => lostInMerge(join(scratch, 'runs', 'merged-shards')) },
    ],
    ['grade --out into a folder of the user', ['grade', '--responses', input, '--out', userDir, '--no-lemmas'], { lost: unchanged(userDir), owner: 'session' }, { limitMs: 300_000 }],
  ]);
  return rows;
};

/** One run against the fake provider, each task answered in its own odd way; then report must read what run stored. */
const provider: Family = async () => {
  const fake: FakeProvider = await startFakeProvider();
  try {
    const ok = (usage: unknown) => JSON.stringify({ model: 'm', choices: [{ message: { role: 'assistant', content: 'No code.' }, finish_reason: 'stop' }], usage });
    const raw = (body: string, status = 200, headers: Record<string, string> = {}): FakeReply => ({ kind: 'raw', status, body, headers });
    const kinds: [string, () => FakeReply, readonly string[]][] = [
      ['usage -5', () => raw(ok({ prompt_tokens: -5, completion_tokens: 3 })), ['syntax']],
      ['usage as text', () => raw(ok({ prompt_tokens: '12', completion_tokens: '3' })), ['syntax']],
      ['usage 3.5', () => raw(ok({ prompt_tokens: 3.5, completion_tokens: 1e300 })), ['syntax']],
      ['no usage', () => raw(ok(undefined)), ['syntax']],
      ['usage null', () => raw(ok(null)), ['syntax']],
      ['reasoning above output', () => raw(ok({ prompt_tokens: 5, completion_tokens: 3, completion_tokens_details: { reasoning_tokens: 900 } })), ['syntax']],
      ['content null', () => raw(JSON.stringify({ model: 'm', choices: [{ message: { role: 'assistant', content: null }, finish_reason: 'stop' }] })), ['syntax']],
      ['content an array', () => raw(JSON.stringify({ model: 'm', choices: [{ message: { role: 'assistant', content: [{ type: 'text', text: 'x' }] }, finish_reason: 'stop' }] })), ['unanswered']],
      ['no choices', () => raw(JSON.stringify({ model: 'm', choices: [] })), ['unanswered']],
      ['HTML with 200', () => raw('<html><body>Welcome to nginx</body></html>'), ['unanswered']],
      ['a JSON array', () => raw('[1, 2, 3]'), ['unanswered']],
      ['an error body with 200', () => raw(JSON.stringify({ error: { message: 'oops', type: 'server_error' } })), ['unanswered']],
      ['model a number', () => raw(JSON.stringify({ model: 123, choices: [{ message: { role: 'assistant', content: 'No code.' }, finish_reason: 'stop' }] })), ['syntax']],
      ['finish reason unknown', () => raw(JSON.stringify({ model: 'm', choices: [{ message: { role: 'assistant', content: 'No code.' }, finish_reason: 'eaten' }] })), ['syntax']],
      ['text with NUL and a lone surrogate', () => raw('{"model": "m", "choices": [{"message": {"role": "assistant", "content": "a\\u0000b\\ud800c"}, "finish_reason": "stop"}]}'), ['syntax']],
      ['5 MB of text', () => ({ kind: 'text', text: 'word '.repeat(1 << 20) }), ['syntax']],
      ['a refusal', () => ({ kind: 'refusal' }), ['syntax']],
      ['truncated code', () => ({ kind: 'text', text: '```python\ndef sys_x(old', finish: 'length' }), ['syntax']],
      ['the connection reset', () => ({ kind: 'reset' }), ['unanswered']],
      ['503 with Retry-After 10^9', () => raw('{"error": {"message": "busy"}}', 503, { 'retry-after': '1000000000' }), ['unanswered']],
      ['429 with Retry-After -1', () => raw('{"error": {"message": "slow down"}}', 429, { 'retry-after': '-1' }), ['unanswered', 'syntax']],
    ];
    const handlers = [...new Set(tasks.map((t) => t.handler))].filter((h) => h !== 'sys_kill').slice(0, kinds.length);
    const byHandler = new Map(handlers.map((h, i) => [h, kinds[i]]));
    const passTask = 'sys_kill-v0';
    fake.respond((r) => {
      if (r.prompt.includes('Write the specification of `sys_kill`')) return { kind: 'text', text: fence(spec('sys_kill')) };
      for (const [h, k] of byHandler) if (r.prompt.includes(`Write the specification of \`${h}\``)) return k[1]();
      return { kind: 'text', text: 'No code.' };
    });
    const ids = [passTask, ...handlers.map((h) => `${h}-v0`)];
    const dir = join(scratch, 'provider-run');
    const env = { ...process.env, OSVLAB_API_KEY: '' };
    const run = await osvlab(['run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'odd', '--tasks', ids.join(','), '--shots', '0',
      '--no-lemmas', '--out', dir, '--json', '--request-timeout', '5000', '--concurrency', '4', '--timeout', '20000'], { env, limitMs: 1_200_000 });
    const head = judge('provider', 'the run', run, { json: true, check: exits(0, 3) });
    if (head.column !== 'verdict') return [head];
    const report = await osvlab(['report', dir, '--json'], { env });
    const rhead = judge('provider', 'report of the run', report, { json: true, check: exits(0) });
    if (rhead.column !== 'verdict') return [head, rhead];
    const stored = (parseJson(report.out) as { attempts: { task_id: string; category: string | null }[] }).attempts;
    const ran = (parseJson(run.out) as { attempts: { task_id: string; category?: string; error?: unknown }[] }).attempts ?? [];
    const rows: Row[] = [head, rhead];
    const cases: [string, string, readonly string[]][] = [['the oracle answer', passTask, ['pass']], ...handlers.map((h): [string, string, readonly string[]] => [byHandler.get(h)![0], `${h}-v0`, byHandler.get(h)![2]])];
    for (const [name, id, ok] of cases) {
      const a = stored.find((x) => x.task_id === id);
      const r = ran.find((x) => x.task_id === id);
      const row = (column: Column, detail: string): Row => ({ family: 'provider', name, column, detail });
      const category = a?.category ?? (r ? (r.category ?? 'unanswered') : undefined);
      if (!a && r?.category) rows.push(row('data-loss', `run graded it ${r.category}; report does not have it`));
      else if (category === undefined) rows.push(row('data-loss', 'no attempt recorded'));
      else if (category === 'internal') rows.push(row('internal', 'graded internal'));
      else if (!ok.includes(category)) rows.push(row('wrong', `${category}, expected ${ok.join(' or ')}`));
      else rows.push(row(category === 'unanswered' ? 'coded' : 'verdict', category));
    }
    // Whole-run faults: a key the provider refuses (the run stops, coded), a provider that never answers (each request times out).
    for (const [name, reply, check] of [
      ['every request refused (401)', { kind: 'auth' }, exits(4)],
      ['the provider never answers', { kind: 'hang' }, exits(3)],
    ] as const) {
      fake.reset();
      fake.respond(() => reply as FakeReply);
      const d = join(scratch, `provider-${name.replace(/\W+/g, '-')}`);
      const r = await osvlab(['run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'odd', '--tasks', 'sys_kill-v0,sys_dup-v0', '--shots', '0',
        '--no-lemmas', '--out', d, '--json', '--request-timeout', '2000'], { env, limitMs: 600_000 });
      rows.push(judge('provider', name, r, { json: true, check }));
    }
    return rows;
  } finally {
    await fake.close();
  }
};

// ------------------------------------------------------------------ issue 35: keys, run files, work and money (sec)

/** `osvlab ARGS` started in the background: the child, and its result when it exits. */
function startOsvlab(args: readonly string[], env: NodeJS.ProcessEnv): { child: ChildProcess; out: () => string; done: Promise<CliResult> } {
  const started = Date.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin/osvlab.mjs'), ...args], { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s));
  const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, err, ms: Date.now() - started, hung: false });
    }),
  );
  return { child, out: () => out, done };
}

async function until(cond: () => boolean, ms = 300_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/** Every file's text under `dir`, joined (to look for a secret written to disk). */
function allText(dir: string): string {
  if (!existsSync(dir)) return '';
  const st = statSync(dir);
  if (!st.isDirectory()) return st.isFile() ? readFileSync(dir, 'latin1') : '';
  return readdirSync(dir).map((n) => allText(join(dir, n))).join('\n');
}

/** Items 2 and 4: redirects to another host (127.0.0.2), and base URLs that hold a secret or garble the path. */
const keyHosts: Family = async () => {
  const KEY = 'sk-probe-key-of-the-first-host-4242';
  const home = await startFakeProvider();
  const elsewhere = await startFakeProvider({ host: '127.0.0.2' });
  const rows: Row[] = [];
  try {
    elsewhere.respond(() => ({ kind: 'text', text: fence(spec('sys_kill')) }));
    const env = { ...process.env, OSVLAB_API_KEY: KEY };
    const run = (provider: string, baseUrl: string, dir: string) =>
      startOsvlab(['run', '--provider', provider, '--base-url', baseUrl, '--model', 'm', '--tasks', 'sys_kill-v0', '--shots', '0', '--no-lemmas', '--out', dir, '--json', '--request-timeout', '20000'], env).done;
    const host = (u: string) => u.slice('http://'.length);
    const redirects: [string, string, number, string][] = [
      ['anthropic 307 to another host', 'anthropic', 307, `${elsewhere.url}/v1/messages`],
      ['gemini 307 to another host', 'gemini', 307, `${elsewhere.url}/v1/models/m:generateContent`],
      ['openai 302 to another host', 'openai', 302, `${elsewhere.url}/v1/chat/completions`],
      ['openai-compatible 308 to another host', 'openai-compatible', 308, `${elsewhere.url}/v1/chat/completions`],
      ['openai-compatible 307 on the same host', 'openai-compatible', 307, '/v2/chat/completions'],
    ];
    for (const [name, provider, status, to] of redirects) {
      home.reset();
      elsewhere.reset();
      elsewhere.respond(() => ({ kind: 'text', text: fence(spec('sys_kill')) }));
      home.respond(() => ({ kind: 'raw', status, body: '', headers: { location: to } }));
      const r = await run(provider, `${home.url}/v1`, join(scratch, 'keys', name.replace(/\W+/g, '-')));
      const arrived = [...elsewhere.requests.map((q) => q.key ?? '-'), ...elsewhere.gets.map((g) => g.headers['x-api-key'] ?? g.headers['x-goog-api-key'] ?? g.headers.authorization ?? '-')];
      rows.push(judge('key-host', name, r, {
        check: (res) =>
          arrived.some((k) => k.includes(KEY)) ? `the key reached ${host(elsewhere.url)}`
          : arrived.length ? `${arrived.length} request(s) reached ${host(elsewhere.url)}`
          : res.code !== 4 ? `exit ${res.code}: the redirect was followed or its answer graded` : undefined,
      }));
    }
    home.reset();
    home.respond(() => ({ kind: 'text', text: 'No code.' }));
    const hostPort = host(home.url);
    const bases: [string, string, string, (r: CliResult, dir: string) => string | undefined][] = [
      ['base URL with user:password', 'openai-compatible', `http://probe-user:pw-probe-secret-77@${hostPort}/v1`, (r, dir) => (`${r.out}${r.err}${allText(dir)}`.includes('pw-probe-secret-77') ? 'the password was printed or written to the run' : r.code !== 4 ? `exit ${r.code}` : undefined)],
      ['base URL with ?api_key=', 'openai-compatible', `${home.url}/v1?api_key=k-probe-in-url-31`, (r, dir) => (`${r.out}${r.err}${allText(dir)}`.includes('k-probe-in-url-31') ? 'the key in the URL was printed or written to the run' : undefined)],
      ['base URL with #frag', 'openai-compatible', `${home.url}/v1#frag`, () => (home.requests.some((q) => q.path !== '/v1/chat/completions') ? `request path ${home.requests.map((q) => q.path).join(', ')}` : undefined)],
      ['base URL with ?api-version=', 'openai-compatible', `${home.url}/v1?api-version=2024-10-21`, (r) => {
        const got = home.requests.map((q) => `${q.path}${q.query}`);
        return r.code === 0 && got.length === 1 && got[0] === '/v1/chat/completions?api-version=2024-10-21' ? undefined : `exit ${r.code}, requests ${JSON.stringify(got)}`;
      }],
    ];
    for (const [name, provider, url, check] of bases) {
      home.reset();
      home.respond(() => ({ kind: 'text', text: 'No code.' }));
      const dir = join(scratch, 'keys', name.replace(/\W+/g, '-'));
      const r = await run(provider, url, dir);
      rows.push(judge('key-host', name, r, { check: (res) => check(res, dir) }));
    }
  } finally {
    await home.close();
    await elsewhere.close();
  }
  return rows;
};

/** Item 3: run files that are symbolic links to files outside the directory. */
const runDirLinks: Family = async () => {
  const input = file('links.jsonl', ['sys_kill-v0', 'sys_dup-v0'].map((id) => JSON.stringify({ task_id: id, response: 'No code.' })).join('\n'));
  const base = join(scratch, 'links', 'base');
  const made = await osvlab(['grade', '--responses', input, '--out', base, '--no-lemmas'], { limitMs: 300_000 });
  if (made.code !== 0) return [judge('run-link', 'the base run', made)];
  const outside = file('outside-notes.txt', 'my-own-line-1 private\nmy-own-line-2\n');
  let n = 0;
  const linked = (name: string, target: string): string => {
    const dir = join(scratch, 'links', `l${++n}`);
    cpSync(base, dir, { recursive: true });
    rmSync(join(dir, name));
    symlinkSync(target, join(dir, name));
    return dir;
  };
  const echoed = (r: CliResult) => (/my-own-line|root:x?:?0/.test(r.out + r.err) ? 'the linked file was printed' : undefined);
  const cases = [
    ['report, attempts.jsonl -> a file outside', ['report', linked('attempts.jsonl', outside), '--json'], { check: echoed }],
    ['report, attempts.jsonl -> /etc/passwd', ['report', linked('attempts.jsonl', '/etc/passwd'), '--json'], { check: echoed }],
    ['report, run.json -> a file outside', ['report', linked('run.json', outside)], { check: echoed }],
    ['grade --out, attempts.jsonl -> a file outside', ['grade', '--responses', input, '--out', linked('attempts.jsonl', outside), '--no-lemmas'], { lost: unchanged(outside) }],
    ['grade --out, prompts.jsonl -> a file outside', ['grade', '--responses', input, '--out', linked('prompts.jsonl', outside), '--no-lemmas'], { lost: unchanged(outside) }],
  ] as const;
  return many('run-link', cases.map(([name, args, e]) => [name, args, e, { limitMs: 300_000 }] as const), 1);
};

/** Item 11: two runs on one directory; a killed holder's lock. */
const runLock: Family = async () => {
  const fake = await startFakeProvider();
  const rows: Row[] = [];
  try {
    const env = { ...process.env, OSVLAB_API_KEY: '' };
    fake.respond(() => ({ kind: 'slow', ms: 3000, reply: { kind: 'text', text: 'No code.' } }));
    const runArgs = (out: string, n = 1) => ['run', '--provider', 'openai-compatible', '--base-url', `${fake.url}/v1`, '--model', 'm', '--tasks', 'sys_kill-v0,sys_dup-v0,sys_close-v0', '--n', String(n), '--shots', '0', '--no-lemmas', '--out', out, '--json'];
    const args = runArgs(join(scratch, 'lock', 'twice'), 2);
    const a = startOsvlab(args, env);
    await until(() => fake.requests.length > 0);
    const b = startOsvlab(args, env);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    rows.push(judge('run-lock', 'the first of two runs on one --out', ra, { check: exits(0) }));
    rows.push(judge('run-lock', 'the second of two runs on one --out', rb, { check: () => (fake.requests.length > 6 ? `${fake.requests.length} requests for 6 samples` : rb.code !== 4 || !/RUNDIR004/.test(rb.err) ? `exit ${rb.code}, no RUNDIR004` : undefined) }));
    fake.reset();
    fake.respond(() => ({ kind: 'hang' }));
    const staleArgs = runArgs(join(scratch, 'lock', 'stale'));
    const holder = startOsvlab(staleArgs, env);
    await until(() => fake.requests.length > 0);
    holder.child.kill('SIGKILL');
    await holder.done;
    fake.reset();
    fake.respond(() => ({ kind: 'text', text: 'No code.' }));
    const after = await startOsvlab(staleArgs, env).done;
    rows.push(judge('run-lock', 'a run after the holder was killed (-9)', after, { check: exits(0) }));
    const sigint = join(scratch, 'lock', 'sigint');
    fake.reset();
    fake.respond(() => ({ kind: 'hang' }));
    const first = startOsvlab(runArgs(sigint), env);
    await until(() => fake.requests.length > 0);
    first.child.kill('SIGINT');
    const rf = await first.done;
    rows.push(judge('run-lock', 'Ctrl+C leaves no lock', rf, { check: () => (existsSync(join(sigint, 'osvlab.lock')) ? 'the lock file is still there' : undefined) }));
  } finally {
    await fake.close();
  }
  return rows;
};

/** Item 12: a grade stopped with Ctrl+C, and what report says of it. */
const interrupted: Family = async () => {
  const n = 24;
  const answers = file('slow-answers.jsonl', Array.from({ length: n }, (_, i) => JSON.stringify({ task_id: 'sys_kill-v0', response: `${spec('sys_kill')}\n# answer ${i}\n` })).join('\n'));
  const dir = join(scratch, 'interrupted');
  const g = startOsvlab(['grade', '--responses', answers, '--out', dir, '--concurrency', '1'], process.env);
  const started = await until(() => (g.out().match(/ pass/g) ?? []).length >= 2, 600_000);
  g.child.kill('SIGINT');
  const r = await g.done;
  if (!started) return [judge('interrupt', 'grade stopped after 2 of 24', r)];
  const report = await osvlab(['report', dir, '--json']);
  return [
    judge('interrupt', 'grade stopped after 2 of 24', r, { check: (res) => (res.code === 0 && !/PARTIAL/.test(res.out) ? 'exit 0 with no word of the answers not graded' : undefined) }),
    judge('interrupt', 'report of the stopped grade', report, { json: true, check: (_res, j) => (j?.partial === true ? undefined : `partial: ${j?.partial}`) }),
  ];
};

/** Item 13: the low ones, each as a user meets it. */
const lowItems: Family = async () => {
  const rows: Row[] = [];
  const KILL = spec('sys_kill');
  const noNul = (r: CliResult) => (/\0/.test(r.out + r.err) ? 'a NUL byte in the output' : undefined);
  const line = (id: string, response: string) => JSON.stringify({ task_id: id, response });
  const kIndex = tasks.findIndex((t) => t.id === 'sys_kill-v0');
  const utf16 = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
  const listItem = `1. The spec:\n\n${fence(KILL).split('\n').map((l) => (l ? `   ${l}` : l)).join('\n')}`;
  const docFence = fence(edit(KILL, 'def sys_kill(old, pid):\n', 'def sys_kill(old, pid):\n    """For example:\n    ```\n    sys_kill(old, 3)\n    ```\n    """\n'));
  const gradeJson = (name: string, text: string | Buffer, check: (r: CliResult, j: any) => string | undefined, more: string[] = []) =>
    [name, ['grade', '--responses', file(`low-${name.replace(/\W+/g, '-')}.jsonl`, text), '--json', '--no-lemmas', ...more], { json: true, check }] as const;
  const categories = (...want: string[]) => (_r: CliResult, j: any) => {
    const got = (j?.results ?? []).map((x: { category: string }) => x.category);
    return JSON.stringify(got) === JSON.stringify(want) ? undefined : `graded ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`;
  };
  const own = kernelFunction('sys_kill');
  const head = '#include "kernel.h"\n';
  const OOM = edit(KILL, 'is_pid_valid(pid),', "is_pid_valid(pid),\n        z3.BitVec('a', 4096) * z3.BitVec('b', 4096) == z3.BitVecVal((1 << 4095) + 12345, 4096),");
  rows.push(...(await many('low', [
    ['grade --out under /proc/sys (ENOENT)', ['grade', '--responses', file('low-one.jsonl', line('sys_kill-v0', 'No code.')), '--out', '/proc/sys/osvlab-probe/run', '--no-lemmas'], { check: exits(4) }, { limitMs: 60_000 }],
    ['grade --out under /sys (EPERM)', ['grade', '--responses', file('low-one.jsonl', line('sys_kill-v0', 'No code.')), '--out', '/sys/osvlab-probe', '--no-lemmas'], { check: exits(4) }, { limitMs: 60_000 }],
    ['an empty answers file', ['grade', '--responses', file('low-empty.jsonl', ''), '--out', join(scratch, 'low-empty-run')], { check: (r) => (r.code === 0 ? 'a finished run of 0 tasks' : undefined) }],
    gradeJson('a UTF-16 grade file', utf16(`${line('sys_kill-v0', 'No code.')}\n{"task_id": oops}\n`), (r, j) => noNul(r) ?? categories('syntax')(r, j)),
    ['a UTF-16 spec', ['verify', 'sys_kill', '--spec', file('low-utf16.py', utf16(KILL))], { check: (r) => noNul(r) ?? exits(2, 4)(r) }],
    gradeJson('a results file with an index twice', `{"${kIndex}": {"sys_kill": ["first"]},\n "${kIndex}": {"sys_kill": ["second"]}}\n`, (r) => (/GRADE013/.test(r.err) ? undefined : 'the first answer was dropped silently')),
    gradeJson('a handler that disagrees with task_id', JSON.stringify({ task_id: 'sys_kill-v0', handler: 'sys_dup', response: 'No code.' }), (r) => (/GRADE012/.test(r.err) ? undefined : 'graded, the disagreement unsaid')),
    gradeJson('code in a Markdown list item', line('sys_kill-v0', listItem), categories('pass')),
    gradeJson('a fence in a docstring', line('sys_kill-v0', docFence), categories('pass')),
    ['C falling off the end', ['verify', 'sys_kill', '--oracle', '--impl', file('low-off.c', `${head}${own.replace('    return 0;\n}', '}')}`), '--json'], { json: true, check: (r, j) => verifyExits(2)(r, j) ?? (j?.verdict?.error?.code === 'C064' ? undefined : `error ${j?.verdict?.error?.code}`) }],
    ['C file with a UTF-8 BOM', ['verify', 'sys_kill', '--oracle', '--impl', file('low-bom.c', `\uFEFF${head}${own}`), '--json'], { json: true, check: status('verified') }],
    ["the '@' operator", ['verify', 'sys_kill', '--spec', file('low-at.py', edit(KILL, '    return cond,', '    x = pid @ pid\n    return cond,')), '--json'], { json: true, check: (r, j) => (/operator are not/.test(r.out + r.err) ? 'says "operator are not supported"' : verifyExits(2)(r, j)) }],
    ['verify on a Z3 out-of-memory', ['verify', 'sys_kill', '--spec', file('low-oom.py', OOM), '--json'], { json: true, check: (r) => (/Aborted\(|wasm:\/\/|Pthread/.test(r.err) ? "Emscripten's abort report on stderr" : exits(3)(r)) }, { limitMs: 300_000 }],
  ])));
  // A full and a read-only file system, where the probe may mount one (root).
  const fs = join(scratch, 'low-fs');
  mkdirSync(fs, { recursive: true });
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', fs]).status === 0) {
    try {
      const many200 = file('low-many.jsonl', Array.from({ length: 200 }, (_, i) => line('sys_kill-v0', `No code ${i} ${'words '.repeat(40)}`)).join('\n'));
      rows.push(judge('low', 'grade --out on a full file system (ENOSPC)', await osvlab(['grade', '--responses', many200, '--out', join(fs, 'run'), '--no-lemmas']), { check: exits(4) }));
      spawnSync('mount', ['-o', 'remount,ro', fs]);
      rows.push(judge('low', 'grade --out on a read-only file system (EROFS)', await osvlab(['grade', '--responses', many200, '--out', join(fs, 'other'), '--no-lemmas']), { check: exits(4) }));
    } finally {
      spawnSync('umount', [fs]);
    }
  }
  return rows;
};

const FAMILIES: Readonly<Record<string, Family>> = {
  cli,
  spec: specs,
  c: cImpls,
  'grade-file': gradeFiles,
  'run-dir': runDirs,
  provider,
  // issue 35 (sec): keys, run files, work and money
  'key-host': keyHosts,
  'run-link': runDirLinks,
  'run-lock': runLock,
  interrupt: interrupted,
  low: lowItems,
  // issue 35 (py2): what Python 2.7 and gcc decide
  py2,
  'c-sem': cSemantics,
};

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const only = argv.includes('--family') ? argv[argv.indexOf('--family') + 1].split(',') : Object.keys(FAMILIES);
  for (const f of only) if (!Object.hasOwn(FAMILIES, f)) throw new Error(`no family '${f}' (known: ${Object.keys(FAMILIES).join(', ')})`);
  scratch = mkdtempSync(join(tmpdir(), 'osvlab-probe-'));
  tasks = await loadTasks();
  const rows: Row[] = [];
  try {
    for (const f of only) {
      const t0 = Date.now();
      const got = await FAMILIES[f]();
      rows.push(...got);
      process.stderr.write(`probe: ${f}: ${got.length} inputs in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
    }
  } finally {
    spawnSync('chmod', ['-R', 'u+rwX', scratch]);
    rmSync(scratch, { recursive: true, force: true });
  }
  if (argv.includes('--list')) for (const r of rows) process.stdout.write(`${r.family.padEnd(11)} ${r.column.padEnd(9)} ${r.name}: ${r.detail}\n`);
  const fams = [...new Set(rows.map((r) => r.family)), 'total'];
  const count = (f: string, c?: Column) => rows.filter((r) => (f === 'total' || r.family === f) && (c === undefined || r.column === c)).length;
  process.stdout.write(`\n${'family'.padEnd(11)} ${'tried'.padStart(6)} ${COLUMNS.map((c) => c.padStart(10)).join('')}\n`);
  for (const f of fams) process.stdout.write(`${f.padEnd(11)} ${String(count(f)).padStart(6)} ${COLUMNS.map((c) => String(count(f, c)).padStart(10)).join('')}\n`);
  const bad = rows.filter((r) => r.column !== 'coded' && r.column !== 'verdict');
  if (bad.length) {
    process.stdout.write('\nfindings:\n');
    for (const r of bad) process.stdout.write(`  [${r.family}] ${r.column}: ${r.name}${r.owner ? ` (${r.owner})` : ''}: ${r.detail}\n`);
  }
  process.exitCode = bad.length ? 1 : 0;
}

await main();
