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
import { arity } from './coerce.ts';
import { KernelStateObj, copyState } from './kernelstate.ts';
import { ModuleValue, OpaqueClass, PyList, PyTuple, type PyValue, isTerm } from './values.ts';

function classes(name: string, names: string[]): ModuleValue {
  return new ModuleValue(name, new Map(names.map((n) => [n, new OpaqueClass(n)])));
}

let base: ModuleValue | undefined;
let types: ModuleValue | undefined;
let copy: ModuleValue | undefined;
let future: ModuleValue | undefined;

function baseModule(): ModuleValue {
  return (base ??= classes('base', ['Accessor', 'BaseStruct', 'Struct', 'Map', 'Refcnt', 'Refcnt2']));
}

function typesModule(): ModuleValue {
  return (types ??= classes('types', ['FunctionType', 'LambdaType', 'BuiltinFunctionType', 'MethodType']));
}

function futureModule(): ModuleValue {
  return (future ??= new ModuleValue(
    '__future__',
    new Map(['absolute_import', 'division', 'print_function', 'unicode_literals', 'annotations'].map((n) => [n, null])),
  ));
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
  'hv6py.kernel.spec.base': baseModule,
  types: typesModule,
  copy: copyModule,
  __future__: futureModule,
};

/** Packages: a dotted prefix whose attributes are its sub-modules. */
const PACKAGES: Record<string, string[]> = {
  libirpy: ['util'],
  hv6py: ['kernel'],
  'hv6py.kernel': ['spec'],
  'hv6py.kernel.spec': ['datatypes', 'helpers', 'base'],
};

/** The module (or package) at a dotted path, or undefined when it does not exist. */
export function resolveModule(path: readonly string[]): ModuleValue | undefined {
  const key = path.join('.');
  const m = MODULES[key];
  if (m) return m();
  const subs = PACKAGES[key];
  if (!subs) return undefined;
  const attrs = new Map<string, PyValue>();
  for (const s of subs) attrs.set(s, resolveModule([...path, s])!);
  return new ModuleValue(key, attrs);
}

/** Every importable dotted name (for the catalog and for suggestions). */
export function moduleNames(): string[] {
  return [...Object.keys(MODULES), ...Object.keys(PACKAGES)];
}
