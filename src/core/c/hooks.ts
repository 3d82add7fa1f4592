/**
 * Models of the built-ins and hardware hooks (docs/c-subset.md, "Built-ins
 * and hooks"). A call to one of these names always runs its model, even if
 * the kernel also defines the function for real builds (`copy_words`).
 */
import * as o from '../smt/ops.ts';
import { Term, bvConst, fresh } from '../smt/term.ts';
import type { Call } from './ast.ts';
import { badPointer, wholeObject, type CDiagnostic } from './errors.ts';
import { mapDepth, maxDepth, termDepth } from './limits.ts';
import {
  type CMemory, IOTLBINV, type ObjPtr, type Ptr, TLBINV, copyObject, fillObject, iteMap, lambdaMap, leafIndices, leafKey,
  ptrCases, updateMap,
} from './memory.ts';
import { printExpr } from './print.ts';
import { type CType, sameType, sizeOf, typeName, truthOf } from './types.ts';
import type { SafetyKind } from './safety.ts';

/** A value: an integer term, or a pointer. */
export type Val = Term | Ptr;

/** What a hook model can see and do on the current path. */
export interface HookContext {
  readonly call: Call;
  /** The arguments, converted to the declared parameter types. */
  readonly args: readonly Val[];
  readonly retType: CType;
  mem: CMemory;
  /** Records a safety condition (guarded by the path) and assumes it afterwards. */
  check(kind: SafetyKind, cond: Term, message: string): void;
  /** Ends this path (it is proved unreachable by a `false` safety condition). */
  die(): never;
  fail(d: CDiagnostic): never;
}

export type HookModel = (h: HookContext) => Val | undefined;

function term(h: HookContext, i: number): Term {
  const v = h.args[i];
  if (!(v instanceof Term)) return h.fail(badPointer(h.call.args[i].span, 'expected an integer argument'));
  return v;
}

function ptr(h: HookContext, i: number): Ptr {
  const v = h.args[i];
  if (v instanceof Term) return h.fail(badPointer(h.call.args[i].span, 'expected a pointer argument'));
  return v;
}

/**
 * The whole object that a pointer argument of memset/memcpy designates,
 * given the byte count: the array whose first element it points to, or
 * the object it points to, whichever has exactly `n` bytes.
 */
function wholeObjectOf(h: HookContext, p: ObjPtr, n: bigint, what: string, argIndex: number): ObjPtr {
  const last = p.steps[p.steps.length - 1];
  if (last?.kind === 'index' && last.index.op === 'const' && last.index.value === 0n) {
    const elem = sizeOf(p.type);
    if (elem !== undefined && BigInt(elem * last.length) === n) {
      return { kind: 'obj', base: p.base, steps: p.steps.slice(0, -1), type: { kind: 'array', of: p.type, length: last.length } };
    }
  }
  if (BigInt(sizeOf(p.type) ?? -1) === n) return p;
  return h.fail(wholeObject(h.call.args[argIndex].span, `${what} must cover the whole array: ${printExpr(h.call.args[argIndex])} does not designate an object of ${n} bytes`));
}

function constSize(h: HookContext, i: number, what: string): bigint {
  const n = term(h, i);
  if (n.op !== 'const') h.fail(wholeObject(h.call.args[i].span, `the size of ${what} must be a constant`));
  return n.value as bigint;
}

/** Each non-null path of a pointer argument, with its guard; a null path is a safety condition. */
function objects(h: HookContext, i: number, what: string): { guard: Term; ptr: ObjPtr }[] {
  const out: { guard: Term; ptr: ObjPtr }[] = [];
  for (const c of ptrCases(ptr(h, i))) {
    if (c.ptr.kind === 'obj') out.push({ guard: c.guard, ptr: c.ptr });
    else if (c.ptr.kind === 'null') h.check('bounds', o.not(c.guard), `${what}: ${printExpr(h.call.args[i])} may be a null pointer`);
    else h.fail(badPointer(h.call.args[i].span, `${what} of a string literal`));
  }
  return out;
}

function memsetModel(h: HookContext, byte: Term | undefined): Val {
  const n = constSize(h, byte ? 2 : 1, 'memset');
  const b = byte ?? bvConst(0n, 8);
  for (const { guard, ptr: p } of objects(h, 0, 'memset')) {
    const obj = wholeObjectOf(h, p, n, 'memset', 0);
    h.mem = fillObject(h.mem, obj, (l) => {
      const parts: Term[] = new Array(l.type.width / 8).fill(b);
      return o.concat(...parts);
    }, guard);
  }
  return h.args[0];
}

function memcpyModel(h: HookContext): Val {
  const n = constSize(h, 2, 'memcpy');
  const dsts = objects(h, 0, 'memcpy');
  const srcs = objects(h, 1, 'memcpy');
  const before = h.mem;
  let mem = before;
  for (const d of dsts) {
    const dobj = wholeObjectOf(h, d.ptr, n, 'memcpy', 0);
    for (const s of srcs) {
      const sobj = wholeObjectOf(h, s.ptr, n, 'memcpy', 1);
      if (!sameType(dobj.type, sobj.type) && !(dobj.type.kind === 'array' && sobj.type.kind === 'array' && sizeOf(dobj.type.of) === sizeOf(sobj.type.of) && dobj.type.of.kind === 'int' && sobj.type.of.kind === 'int')) {
        h.fail(wholeObject(h.call.span, `memcpy between ${typeName(dobj.type)} and ${typeName(sobj.type)}: both must be whole objects of one type`));
      }
      // Read the source from the memory before this copy (sources and destinations may coincide).
      const copied = copyObject(before, dobj, sobj);
      const guard = o.and(d.guard, s.guard);
      const next = new Map(mem);
      for (const [k, f] of copied) if (f !== before.get(k)) next.set(k, iteMap(guard, f, mem.get(k)!));
      mem = next;
    }
  }
  h.mem = mem;
  return h.args[0];
}

/** dst[i] = i <u n ? src[i] : dst[i] for every word i of a 512-word page. */
function copyWordsModel(h: HookContext): Val | undefined {
  const n = term(h, 2);
  const before = h.mem;
  let mem = before;
  for (const d of objects(h, 0, 'copy_words')) {
    for (const s of objects(h, 1, 'copy_words')) {
      const page = (p: ObjPtr, i: number): { key: string; prefix: Term[]; length: number } => {
        const last = p.steps[p.steps.length - 1];
        if (p.type.kind !== 'int' || p.type.width !== 64 || last?.kind !== 'index' || last.index.op !== 'const' || last.index.value !== 0n) {
          return h.fail(badPointer(h.call.args[i].span, 'copy_words needs pointers to the first word of a uint64_t array'));
        }
        return { key: leafKey(p), prefix: leafIndices(p).slice(0, -1), length: last.length };
      };
      const dp = page(d.ptr, 0);
      const sp = page(s.ptr, 1);
      const df = mem.get(dp.key)!;
      const sf = before.get(sp.key)!;
      const k = dp.prefix.length;
      const len = bvConst(BigInt(dp.length), 64);
      const depth = 2 + Math.max(mapDepth(sf) + maxDepth(sp.prefix), mapDepth(df), 1 + maxDepth(dp.prefix), 1 + termDepth(n));
      const copied = lambdaMap(df.domain, df.range, (args) => {
        const hit = o.and(...dp.prefix.map((x, j) => o.eq(args[j], x)), o.ult(args[k], n), o.ult(args[k], len));
        return o.ite(hit, sf.apply([...sp.prefix, args[k]]), df.apply(args));
      }, depth);
      const next = new Map(mem);
      next.set(dp.key, iteMap(o.and(d.guard, s.guard), copied, df));
      mem = next;
    }
  }
  h.mem = mem;
  return undefined;
}

function assertModel(h: HookContext): undefined {
  const c = truthOf(term(h, 0));
  h.check('assert', c, `assertion ${printExpr(h.call.args[0])} may fail`);
  return undefined;
}

function noop(h: HookContext): Val | undefined {
  if (h.retType.kind === 'int') return fresh(h.call.callee.name, h.retType.width);
  return undefined;
}

const MODELS: [string, HookModel][] = [
  ['__osv_assert', assertModel],
  ['assert', assertModel],
  [
    'panic',
    (h) => {
      const msg = h.call.args.length ? printExpr(h.call.args[0]) : '';
      h.check('panic', o.FALSE, `panic(${msg}) is reachable`);
      return h.die();
    },
  ],
  ['memset', (h) => memsetModel(h, o.extract(7, 0, term(h, 1)))],
  ['bzero', (h) => memsetModel(h, undefined)],
  ['memcpy', memcpyModel],
  ['copy_words', copyWordsModel],
  [
    'hvm_invalidate_tlb',
    (h) => {
      const pid = o.resize(term(h, 0), 64, true);
      h.mem = new Map(h.mem).set(TLBINV, updateMap(h.mem.get(TLBINV)!, [pid], o.TRUE));
      return undefined;
    },
  ],
  [
    'iommu_flush',
    (h) => {
      h.mem = new Map(h.mem).set(IOTLBINV, updateMap(h.mem.get(IOTLBINV)!, [], o.TRUE));
      return undefined;
    },
  ],
  ['iommu_entry', (h) => o.bvor(o.resize(term(h, 0), 64, false), o.resize(term(h, 1), 64, false))],
  ...[
    'hvm_set_cr3', 'hvm_copy', 'hvm_flush', 'hvm_set_io_bitmap', 'hvm_set_timer', 'iommu_set_dev_root',
    'iommu_reset_dev_root', 'iommu_set_intremap', 'iommu_reset_intremap', 'iommu_hack_root',
    'iommu_get_dev_root', 'ms_to_cycles', 'putchar', 'syslog',
  ].map((n): [string, HookModel] => [n, noop]),
];

/** Name -> model. */
export const HOOKS: ReadonlyMap<string, HookModel> = new Map(MODELS);

/** Whether `name` is a built-in or hook the executor models. */
export function isHook(name: string): boolean {
  return HOOKS.has(name);
}
