/**
 * What `import` can reach: the dialect's built-in modules under every name
 * upstream specs and OSVBench answers use for them (`import z3`,
 * `from libirpy import util`, `import hv6py.kernel.spec.datatypes as dt`,
 * `from helpers import ...`, `from hv6py.kernel.spec.base import *`, ...).
 * Nothing else can be imported.
 */
import { dtModule } from './builtins/dt.ts';
import { fn } from './builtins/define.ts';
import { helpersModule } from './builtins/helpers.ts';
import { utilModule } from './builtins/util.ts';
import { z3Module } from './builtins/z3.ts';
import { arity, pyInt } from './coerce.ts';
import { FUTURE_FEATURES } from './future.ts';
import { copyState } from './kernelstate.ts';
import { KernelStateObj } from './objects.ts';
import { isTerm } from './values.ts';
import { ModuleValue, OpaqueClass, PyList, PyTuple, type PyValue } from './objects.ts';

function classes(name: string, names: string[]): ModuleValue {
  return new ModuleValue(name, new Map(names.map((n) => [n, new OpaqueClass(n)])));
}

let base: ModuleValue | undefined;
let types: ModuleValue | undefined;
let copy: ModuleValue | undefined;
let future: ModuleValue | undefined;
let sys: ModuleValue | undefined;

function baseModule(): ModuleValue {
  return (base ??= classes('base', ['Accessor', 'BaseStruct', 'Struct', 'Map', 'Refcnt', 'Refcnt2']));
}

function typesModule(): ModuleValue {
  return (types ??= classes('types', ['FunctionType', 'LambdaType', 'BuiltinFunctionType', 'MethodType']));
}

function futureModule(): ModuleValue {
  return (future ??= new ModuleValue('__future__', new Map([...FUTURE_FEATURES].map((n) => [n, null]))));
}

/**
 * Python 2.7's `sys` as far as a spec can use it without reaching outside:
 * the limits of its ints, its version, and a recursion limit to read or
 * set (which changes nothing: the dialect's own depth limit stays, SPEC019).
 */
function sysModule(): ModuleValue {
  if (sys) return sys;
  const maxint = (1n << 63n) - 1n;
  sys = new ModuleValue(
    'sys',
    new Map<string, PyValue>([
      ['maxint', maxint],
      ['maxsize', maxint],
      ['maxunicode', 0x10ffffn],
      ['byteorder', 'little'],
      ['platform', 'linux2'],
      ['version', '2.7.18'],
      ['hexversion', 0x020712f0n],
      ['version_info', new PyTuple([2n, 7n, 18n, 'final', 0n])],
      ['getrecursionlimit', fn('sys.getrecursionlimit', 'getrecursionlimit()', "Python's default recursion limit, 1000.", (args, _kw, site) => {
        arity(site, 'getrecursionlimit', args, 0);
        return 1000n;
      })],
      ['setrecursionlimit', fn('sys.setrecursionlimit', 'setrecursionlimit(n)', "Accepted and ignored: a spec's calls nest at most 100 deep (SPEC019).", (args, _kw, site) => {
        arity(site, 'setrecursionlimit', args, 1);
        pyInt(args[0], site.span, 'setrecursionlimit');
        return null;
      })],
    ]),
  );
  return sys;
}

/** copy.deepcopy(old) is old.copy(); copy.copy(old) shares old's tables, as a shallow Python copy does. */
function copyModule(): ModuleValue {
  if (copy) return copy;
  const dup = (deep: boolean) => (v: PyValue): PyValue => {
    if (typeof v !== 'object' || v === null || isTerm(v)) return v;
    if (v.kind === 'kstate') return deep ? copyState(v) : new KernelStateObj(v.scalars, v.structs);
    if (v.kind === 'list') return new PyList(deep ? v.items.map(dup(true)) : [...v.items]);
    if (v.kind === 'tuple') return deep ? new PyTuple(v.items.map(dup(true))) : v;
    return v;
  };
  copy = new ModuleValue(
    'copy',
    new Map<string, PyValue>([
      ['deepcopy', fn('copy.deepcopy', 'deepcopy(x)', 'A deep copy; for a KernelState the same as x.copy().', (args, _kw, site) => {
        arity(site, 'deepcopy', args, 1);
        return dup(true)(args[0]);
      })],
      ['copy', fn('copy.copy', 'copy(x)', 'A shallow copy; a KernelState copied this way shares its tables with x.', (args, _kw, site) => {
        arity(site, 'copy', args, 1);
        return dup(false)(args[0]);
      })],
    ]),
  );
  return copy;
}

const MODULES: Record<string, () => ModuleValue> = {
  z3: z3Module,
  util: utilModule,
  'libirpy.util': utilModule,
  datatypes: dtModule,
  'hv6py.kernel.spec.datatypes': dtModule,
  helpers: helpersModule,
  'hv6py.kernel.spec.helpers': helpersModule,
  base: baseModule,
  'hv6py.base': baseModule,
  'hv6py.kernel.spec.base': baseModule,
  types: typesModule,
  copy: copyModule,
  __future__: futureModule,
  sys: sysModule,
};

/** Packages: a dotted prefix whose attributes are its sub-modules. */
const PACKAGES: Record<string, string[]> = {
  libirpy: ['util'],
  hv6py: ['kernel', 'base'],
  'hv6py.kernel': ['spec'],
  'hv6py.kernel.spec': ['datatypes', 'helpers', 'base'],
};

/** The module (or package) at a dotted path, or undefined when it does not exist. */
export function resolveModule(path: readonly string[]): ModuleValue | undefined {
  const key = path.join('.');
  // Own properties only: 'constructor', 'toString', '__proto__' are no modules.
  const m = Object.hasOwn(MODULES, key) ? MODULES[key] : undefined;
  if (m) return m();
  const subs = Object.hasOwn(PACKAGES, key) ? PACKAGES[key] : undefined;
  if (!subs) return undefined;
  const attrs = new Map<string, PyValue>();
  for (const s of subs) attrs.set(s, resolveModule([...path, s])!);
  return new ModuleValue(key, attrs);
}

/** The seven helpers hv6's specs.py imports from its helpers module. */
const PRELUDE_HELPERS = [
  'is_dmapn_valid',
  'is_fd_valid',
  'is_fn_valid',
  'is_intremap_valid',
  'is_pcipn_valid',
  'is_pid_valid',
  'is_pn_valid',
] as const;

let prelude: ReadonlyMap<string, PyValue> | undefined;

/**
 * The global names every spec starts with, whether or not it has import
 * lines: those hv6's specs.py (and OSVBench's header in front of an answer)
 * give the functions appended to it: z3, util, dt, types, the base classes
 * and the seven is_*_valid helpers. A spec's own imports and definitions
 * rebind them.
 */
export function preludeNames(): ReadonlyMap<string, PyValue> {
  if (prelude) return prelude;
  const out = new Map<string, PyValue>([
    ['z3', z3Module()],
    ['util', utilModule()],
    ['dt', dtModule()],
    ['types', typesModule()],
  ]);
  for (const [k, v] of baseModule().attrs) out.set(k, v);
  const helpers = helpersModule();
  for (const h of PRELUDE_HELPERS) {
    const v = helpers.attrs.get(h);
    if (v === undefined) throw new Error(`helpers module has no ${h}`);
    out.set(h, v);
  }
  prelude = out;
  return out;
}
