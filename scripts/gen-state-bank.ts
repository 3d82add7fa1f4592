/**
 * Rebuilds tasks/hv6/state-bank.json: for each handler, a few concrete
 * kernel states reached from the boot state by oracle calls, with arguments
 * under which the handler's oracle succeeds (src/core/verify/state-bank.ts,
 * docs/lemmas.md "Reusing what is known", item 9).
 *
 * A breadth-first search from the boot state: at each state, for every
 * handler, the solver is asked for arguments that make its oracle's
 * condition true there (the state is concrete, so the condition is a small
 * formula over the arguments). Each answer is a case of that handler, and
 * the call's result a state of the next level. Each level keeps at most
 * `--width` states, those whose calls are least like the ones kept already.
 * Then seeded random walks, and `--setups` scripted setups (a child given
 * resources, then killed) that the walks do not reach.
 * The file only proposes states: a grade never rests on it unchecked.
 *
 *   npx tsx scripts/gen-state-bank.ts [--depth N] [--width N] [--walks N] [--length N] [--setups N] [--cases N]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeEngine } from '../src/z3/node.ts';
import { runSpec } from '../src/core/dialect/index.ts';
import { oracleSpec } from '../src/core/kernel/content.ts';
import { HANDLERS, requireHandler } from '../src/core/kernel/handlers.ts';
import { bootWitness } from '../src/core/kernel/lemmas/index.ts';
import { type AbstractState, fieldMaps } from '../src/core/kernel/state.ts';
import * as o from '../src/core/smt/ops.ts';
import { type Term, bvConst, variable } from '../src/core/smt/term.ts';
import { type BankState, type StateBankFile, oracleCall } from '../src/core/verify/state-bank.ts';

interface BankCall {
  readonly handler: string;
  readonly args: readonly string[];
}

const FILE = join(import.meta.dirname, '../tasks/hv6/state-bank.json');
const option = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const DEPTH = option('depth', 2);
const WIDTH = option('width', 40);
const WALKS = option('walks', 40);
const WALK_LENGTH = option('length', 8);
const CASES = option('cases', 4);

const engine = await nodeEngine();
const handlers = HANDLERS.filter((h) => oracleSpec(h.name)).map((h) => h.name);

/** Fixed argument values of a call, by argument name. */
type Fixed = Readonly<Record<string, bigint | Term>>;

/** Arguments under which `handler`'s oracle succeeds in `state` (hex), with the `fixed` ones as given, or undefined. */
async function argsFor(handler: string, state: AbstractState, fixed: Fixed = {}): Promise<string[] | undefined> {
  const h = requireHandler(handler);
  const sym = h.args.map((a) => variable(`bank.arg.${a.name}`, a.width));
  const run = runSpec(oracleSpec(handler)!, handler, state, sym, { force: 'all' });
  if (!run.ok) return undefined;
  if (run.cond.op === 'const' && !run.cond.value) return undefined;
  const given = h.args.flatMap((a, i) => {
    const v = fixed[a.name];
    return v === undefined ? [] : [o.eq(sym[i], typeof v === 'bigint' ? bvConst(v, a.width) : v)];
  });
  // Arguments of 0 first avoided: a wrong write of 0 (a permission, a shadow
  // entry) is invisible where the right value is 0 too.
  const nonzero = sym.map((a) => o.not(o.eq(a, bvConst(0, a.sort))));
  let r = await engine.exclusive(() => engine.check([run.cond, ...given, ...nonzero], { timeoutMs: 5000 }));
  if (r.status !== 'sat') r = await engine.exclusive(() => engine.check([run.cond, ...given], { timeoutMs: 5000 }));
  if (r.status !== 'sat') return undefined;
  const args = h.args.map((a) => `0x${(r.model.constant(`bank.arg.${a.name}`, a.width) as bigint).toString(16)}`);
  r.model.dispose();
  return args;
}

/** A state met: the call from its parent (none: the boot state). */
interface Node {
  readonly parent?: Node;
  readonly call?: BankCall;
  readonly depth: number;
  readonly state: AbstractState;
}

/** A case met: a state and the handler's arguments there. */
interface Met {
  readonly node: Node;
  readonly args: readonly string[];
}

const calls = (n: Node): BankCall[] => (n.parent ? [...calls(n.parent), n.call!] : []);

/** Every case met, by handler (the file keeps `CASES` of them, chosen to differ). */
const met = new Map<string, Met[]>(handlers.map((h) => [h, []]));
const MET_CAP = 40;
const started = Date.now();
const log = (s: string) => process.stdout.write(`${s} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
const covered = () => [...met.values()].filter((c) => c.length).length;

/** The calls that succeed in `node`'s state: each a case of its handler, and a successor. */
async function successors(node: Node, expand: boolean): Promise<Node[]> {
  const out: Node[] = [];
  for (const h of handlers) {
    const args = await argsFor(h, node.state);
    if (!args) continue;
    const cases = met.get(h)!;
    if (cases.length < MET_CAP) cases.push({ node, args });
    if (!expand) continue;
    const state = oracleCall(h, node.state, args);
    if (state) out.push({ parent: node, call: { handler: h, args }, depth: node.depth + 1, state });
  }
  return out;
}

// Breadth first for the first levels: every state one or two calls from boot.
const boot: Node = { depth: 0, state: bootWitness() };
let level: Node[] = [boot];
for (let depth = 0; depth < DEPTH && level.length; depth++) {
  const next: Node[] = [];
  for (const node of level) next.push(...(await successors(node, true)));
  // The next level: states whose calls repeat least what is kept already.
  const seen = new Map<string, number>();
  const score = (n: Node) => calls(n).reduce((s, c) => s + (seen.get(c.handler) ?? 0), 0) / n.depth;
  const kept: Node[] = [];
  const pool = [...next];
  while (kept.length < WIDTH && pool.length) {
    pool.sort((a, b) => score(a) - score(b));
    const n = pool.shift()!;
    kept.push(n);
    for (const c of calls(n)) seen.set(c.handler, (seen.get(c.handler) ?? 0) + 1);
  }
  level = kept;
  log(`depth ${depth}: ${next.length} successors, ${kept.length} kept; ${covered()}/${handlers.length} handlers have a case`);
}

// Then random walks from those states (a fixed seed: the file is the same
// every run), each step a call the walks have taken least, so that setups
// many calls deep (a process killed with resources left, a child switched
// to) are reached.
let seed = 0x5eed;
const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const taken = new Map<string, number>();
for (let w = 0; w < WALKS; w++) {
  let node = level[w % level.length] ?? boot;
  for (let step = 0; step < WALK_LENGTH; step++) {
    const next = await successors(node, true);
    if (!next.length) break;
    const least = Math.min(...next.map((n) => taken.get(n.call!.handler) ?? 0));
    const rare = next.filter((n) => (taken.get(n.call!.handler) ?? 0) === least);
    node = rare[Math.floor(random() * rare.length)];
    const h = node.call!.handler;
    taken.set(h, (taken.get(h) ?? 0) + 1);
  }
  if (w % 5 === 4) log(`walk ${w + 1}: ${covered()}/${handlers.length} handlers have a case`);
}

// Setups no walk of this length reaches: a child of the running process,
// switched to, takes what it can (pages, ports, vectors, devices, files, a
// child of its own), then either is killed at once or first blocks to
// receive (so that a sender has a sleeping receiver) and is killed then;
// then what it held is reclaimed call by call. The cases met on the way
// are kept whatever the cap (each is a state nothing else reaches).
const SETUPS = option('setups', 6);
const TAKING = handlers.filter((h) => /^(sys_alloc_|sys_create|sys_dup|sys_map_|sys_set_proc_name|clone_proc)/.test(h));
// Enough calls to give back all a child takes in two rounds, so that it can be reaped.
const RECLAIM_STEPS = 48;
const RECLAIMING = handlers.filter((h) => /^(sys_reclaim_|sys_reparent|sys_close|sys_reap|sys_free_)/.test(h));

/** The call of `handler` in `node`'s state, as a case and a successor, or undefined where it does not succeed. */
async function call(node: Node, handler: string, fixed: Fixed = {}): Promise<Node | undefined> {
  const args = await argsFor(handler, node.state, fixed);
  if (!args) return undefined;
  met.get(handler)!.push({ node, args });
  const state = oracleCall(handler, node.state, args);
  return state && { parent: node, call: { handler, args }, depth: node.depth + 1, state };
}

/** Every call that succeeds in `node`'s state, recorded as a case whatever the cap. */
async function recordAll(node: Node): Promise<void> {
  for (const h of handlers) {
    const args = await argsFor(h, node.state);
    if (args) met.get(h)!.push({ node, args });
  }
}

const currentOf = (state: AbstractState): Term => fieldMaps(state.get('current')!)[0].apply([]);

for (let k = 0; k < SETUPS; k++) {
  const start = level[(k * 7) % Math.max(level.length, 1)] ?? boot;
  const parent = currentOf(start.state);
  let node = await call(start, 'clone_proc');
  if (!node) continue;
  const child = BigInt(node.call!.args[0]);
  for (const h of ['sys_set_runnable', 'switch_proc']) node = node && (await call(node, h, { pid: child }));
  if (!node) continue;
  // Two rounds, so a resource that needs another (a device's IOMMU root) comes second.
  for (let round = 0; round < 2; round++) for (const h of TAKING) node = (await call(node, h)) ?? node;
  // Back to the parent: at once, or by blocking to receive from it.
  const back = k % 2 === 0 ? await call(node, 'switch_proc', { pid: parent }) : await call(node, 'recv_proc', { pid: parent });
  if (!back) continue;
  await recordAll(back);
  // With the child blocked in receive: the parent maps a frame of its own
  // (to send from and to receive the reply in) and calls it, so the child
  // runs as the server and can reply and wait. Only the four calls this
  // needs: a deeper state costs every fact looked for in it.
  if (k % 2 === 1) {
    let caller = back;
    for (const h of ['sys_alloc_pdpt', 'sys_alloc_pd', 'sys_alloc_pt', 'sys_alloc_frame']) caller = (await call(caller, h)) ?? caller;
    const served = await call(caller, 'call_proc', { pid: child });
    if (served) await recordAll(served);
  }
  let zombie = await call(back, 'sys_kill', { pid: child });
  if (!zombie) continue;
  await recordAll(zombie);
  for (let step = 0; step < RECLAIM_STEPS; step++) {
    let next: Node | undefined;
    for (const h of RECLAIMING) if ((next = await call(zombie, h))) break;
    if (!next) break;
    zombie = next;
    await recordAll(zombie);
  }
  log(`setup ${k + 1}: ${covered()}/${handlers.length} handlers have a case`);
}

/**
 * `CASES` of a handler's cases, each adding the most argument values not
 * seen in those chosen before (a zero counts for little: an old value of 0
 * and a new one of 0 hide a wrong write), shorter paths first among equals.
 */
function choose(cases: readonly Met[]): Met[] {
  const chosen: Met[] = [];
  const seenArg = new Set<string>();
  const pool = [...cases];
  while (chosen.length < CASES && pool.length) {
    const gain = (e: Met) => e.args.reduce((g, a, i) => g + (seenArg.has(`${i}=${a}`) ? 0 : a === '0x0' ? 0.25 : 1), 0) - e.node.depth / 100;
    pool.sort((a, b) => gain(b) - gain(a));
    const e = pool.shift()!;
    chosen.push(e);
    e.args.forEach((a, i) => seenArg.add(`${i}=${a}`));
  }
  return chosen;
}
const bank = new Map([...met].map(([h, c]) => [h, choose(c)]));

// The states the chosen cases stand in, with every state on their paths, parents first.
const index = new Map<Node, number>();
const states: BankState[] = [];
const number = (n: Node): number => {
  if (!n.parent) return -1;
  let i = index.get(n);
  if (i === undefined) {
    const from = number(n.parent);
    i = states.length;
    states.push({ from, handler: n.call!.handler, args: n.call!.args });
    index.set(n, i);
  }
  return i;
};
const entries = [...bank].filter(([, c]) => c.length).sort(([a], [b]) => a.localeCompare(b));
const file: StateBankFile = {
  made: `npx tsx scripts/gen-state-bank.ts --depth ${DEPTH} --width ${WIDTH} --walks ${WALKS} --length ${WALK_LENGTH} --setups ${SETUPS} --cases ${CASES}`,
  states,
  handlers: Object.fromEntries(entries.map(([h, c]) => [h, c.map((m) => ({ state: number(m.node), args: m.args }))])),
};
writeFileSync(FILE, `${JSON.stringify(file)}\n`);
const missing = [...bank].filter(([, c]) => !c.length).map(([h]) => h);
process.stdout.write(`tasks/hv6/state-bank.json: ${handlers.length - missing.length}/${handlers.length} handlers${missing.length ? `; none for ${missing.join(', ')}` : ''}\n`);
process.exit(0);
