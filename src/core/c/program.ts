/**
 * Linking: preprocesses and parses each translation unit, checks them, and
 * joins them into one program with a single table of globals and one of
 * functions. An override unit (a buggy variant, or `--impl FILE`) is linked
 * last: each function it defines replaces the kernel's function of the same
 * name for every caller, and it may add helpers of its own.
 */
import type { CSpan, FunctionDef, TranslationUnit } from './ast.ts';
import { UnitChecker } from './check.ts';
import { type Binding, type FunctionInfo, type GlobalVar, type Linker, Sema } from './check/sema.ts';
import { type CDiagnostic, conflict, internal, nowhere, undefinedReference, withDetail } from './errors.ts';
import type { LexResult } from './lexer.ts';
import { parse } from './parser.ts';
import { type PreprocessResult, type SourceFiles, preprocess } from './preprocess.ts';
import { type StructType, sameType, typeName } from './types.ts';

/** A checked, linked C program, ready for symbolic execution. */
export interface CProgram {
  /** All source text, overrides included (for code frames and span rewriting). */
  readonly files: SourceFiles;
  readonly units: readonly TranslationUnit[];
  /** Every global variable, by name. */
  readonly globals: ReadonlyMap<string, GlobalVar>;
  /** The alignment of each global's address in bytes: the largest any of its declarations gives (GlobalVar.align). */
  readonly globalAlign: ReadonlyMap<string, number>;
  /** The function in effect for each name (an override's, or the kernel's definition, or a bare declaration). */
  readonly functions: ReadonlyMap<string, FunctionInfo>;
  /** Struct types by identity: the tag, or `file:offset` of an anonymous definition. */
  readonly structs: ReadonlyMap<string, StructType>;
  /** Expression types and name bindings. */
  readonly sema: Sema;
}

export interface Override {
  readonly path: string;
  readonly text: string;
}

export type ParseProgramResult =
  | { readonly ok: true; readonly program: CProgram }
  | { readonly ok: false; readonly errors: CDiagnostic[] };

interface FunctionEntry {
  /** Definitions: at most one per (unit, static) pair, plus overrides. */
  defs: FunctionInfo[];
  decl?: FunctionInfo;
}

class ProgramLinker implements Linker {
  readonly sema = new Sema();
  readonly structs = new Map<string, StructType>();
  readonly sites = new Map<string, string>();
  readonly globals = new Map<string, GlobalVar>();
  readonly globalAlign = new Map<string, number>();
  /** Globals some unit defines (a declaration without `extern` is a tentative definition). */
  readonly definedGlobals = new Set<string>();
  readonly functions = new Map<string, FunctionEntry>();
  readonly errors: CDiagnostic[] = [];
  private localIds = 0;

  struct(id: string): StructType | undefined {
    return this.structs.get(id);
  }

  addStruct(s: StructType, site: string): void {
    this.structs.set(s.id, s);
    if (site) this.sites.set(s.id, site);
  }

  structSite(id: string): string | undefined {
    return this.sites.get(id);
  }

  declareGlobal(g: GlobalVar, defined: boolean): void {
    if (defined) this.definedGlobals.add(g.name);
    this.globalAlign.set(g.name, Math.max(this.globalAlign.get(g.name) ?? 1, g.align));
    const old = this.globals.get(g.name);
    if (!old) {
      this.globals.set(g.name, g);
      return;
    }
    if (!sameType(old.type, g.type)) {
      this.fail(conflict(g.span, `'${g.name}' is declared as ${typeName(g.type)} here and as ${typeName(old.type)} at ${where(old.span)}`));
    }
  }

  global(name: string): GlobalVar | undefined {
    return this.globals.get(name);
  }

  declareFunction(f: FunctionInfo, def: FunctionDef | undefined): void {
    let e = this.functions.get(f.name);
    if (!e) {
      e = { defs: [] };
      this.functions.set(f.name, e);
    }
    const other = e.decl ?? e.defs[0];
    if (other && !sameType(other.type, f.type)) {
      this.fail(conflict(f.span, `'${f.name}' is declared as ${typeName(f.type)} here and as ${typeName(other.type)} at ${where(other.span)}`));
      return;
    }
    if (!def) {
      e.decl ??= f;
      return;
    }
    const clash = e.defs.find((x) => x.fromOverride === f.fromOverride && (x.unit === f.unit || (!x.isStatic && !f.isStatic)));
    if (clash) {
      this.fail(conflict(f.span, `'${f.name}' is defined twice (also at ${where(clash.span)})`));
      return;
    }
    e.defs.push(f);
  }

  resolveFunction(unit: string, name: string): FunctionInfo | undefined {
    const e = this.functions.get(name);
    if (!e) return undefined;
    return (
      e.defs.find((d) => d.fromOverride) ??
      e.defs.find((d) => d.unit === unit) ??
      e.defs.find((d) => !d.isStatic) ??
      e.defs[0] ??
      e.decl
    );
  }

  nextLocalId(): number {
    return ++this.localIds;
  }

  /** The function in effect for callers that have no static one of their own. */
  effective(name: string): FunctionInfo | undefined {
    const e = this.functions.get(name);
    if (!e) return undefined;
    return e.defs.find((d) => d.fromOverride) ?? e.defs.find((d) => !d.isStatic) ?? e.defs[0] ?? e.decl;
  }

  private fail(d: CDiagnostic): void {
    this.errors.push(d);
  }
}

/**
 * A global that every unit declares `extern` and none defines links only
 * while nothing refers to it: gcc compiles a use, and the link fails with an
 * undefined reference. Reported once per global, at its first use.
 */
function undefinedReferences(linker: ProgramLinker): CDiagnostic[] {
  const out: CDiagnostic[] = [];
  const seen = new Set<string>();
  for (const [ident, b] of linker.sema.bindings) {
    if (b.kind !== 'global' || linker.definedGlobals.has(b.name) || seen.has(b.name)) continue;
    seen.add(b.name);
    out.push(undefinedReference(ident.span, b.name, where(b.span)));
  }
  return out;
}

function where(s: CSpan): string {
  return `${s.file}:${s.line}:${s.column}`;
}

/**
 * Preprocesses, parses, checks and links the translation units `units` of
 * `files` (paths of .c files), then the `overrides`. Returns the program,
 * or every error found (at most the first per unit and phase).
 */
export function parseProgram(files: SourceFiles, units: readonly string[], overrides: readonly Override[] = []): ParseProgramResult {
  try {
    return link(files, units, overrides);
  } catch (e) {
    // Bad input must not crash the caller (a stack overflow on absurd nesting, a bug of ours).
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, errors: [internal(nowhere(units[0] ?? overrides[0]?.path ?? '<program>'), why)] };
  }
}

/**
 * Units already parsed, by path, with the text of every file their
 * preprocessing read. A program with an override (each buggy variant a grade
 * checks for bug-following, `--impl FILE`) parses the kernel's units again
 * only if one of those files differs: the parse of the same text is the same
 * tree, and the tree is never changed after parsing (ast.ts is all readonly;
 * what checking finds goes in each program's own `Sema`), so programs share
 * it. Grading the corpus parsed the kernel's units once per variant, 19% of a
 * grading worker's busy time (docs/lemmas.md, "Benchmarks").
 */
const PARSED = new Map<string, { readonly read: readonly (readonly [string, string])[]; readonly absent: readonly string[]; readonly unit: TranslationUnit }>();
/** More paths than any kernel has units: past it, the cache starts again (a tool parsing many programs of its own). */
const PARSED_MAX = 64;

/**
 * The tree of unit `path` of `files`, if parsed before from the same text of
 * every file it read, with every path its includes looked for in vain still
 * absent (an include reads the first of its candidates that exists).
 */
function parsedUnit(files: SourceFiles, path: string): TranslationUnit | undefined {
  const e = PARSED.get(path);
  return e && e.read.every(([f, text]) => files.get(f) === text) && !e.absent.some((f) => files.has(f)) ? e.unit : undefined;
}

function keepParsed(files: SourceFiles, path: string, pp: PreprocessResult, unit: TranslationUnit): void {
  if (PARSED.size >= PARSED_MAX && !PARSED.has(path)) PARSED.clear();
  PARSED.set(path, { read: pp.files.map((f) => [f, files.get(f)!] as const), absent: pp.absent, unit });
}

function link(files: SourceFiles, units: readonly string[], overrides: readonly Override[]): ParseProgramResult {
  const all = new Map(files);
  for (const o of overrides) all.set(o.path, o.text);
  const errors: CDiagnostic[] = [];
  const parsed: { unit: TranslationUnit; override: boolean }[] = [];
  const sources = [...units.map((u) => ({ path: u, override: false })), ...overrides.map((o) => ({ path: o.path, override: true }))];
  const lexed = new Map<string, LexResult>();
  for (const { path, override } of sources) {
    const known = override ? undefined : parsedUnit(all, path);
    if (known) {
      parsed.push({ unit: known, override });
      continue;
    }
    const pp = preprocess(all, path, lexed);
    if (pp.errors.length) {
      errors.push(...pp.errors);
      continue;
    }
    const r = parse(path, pp.tokens);
    if (!r.ok) errors.push(...r.errors);
    else {
      parsed.push({ unit: r.unit, override });
      if (!override) keepParsed(all, path, pp, r.unit);
    }
  }
  if (errors.length) return fail(errors, all);

  const linker = new ProgramLinker();
  const checkers = parsed.map(({ unit, override }) => new UnitChecker(unit, linker, override));
  for (const c of checkers) c.declarations();
  for (const c of checkers) errors.push(...c.errors);
  errors.push(...linker.errors);
  if (errors.length) return fail(errors, all);

  for (const c of checkers) c.bodies();
  for (const c of checkers) errors.push(...c.errors);
  errors.push(...undefinedReferences(linker));
  if (errors.length) return fail(errors, all);

  const functions = new Map<string, FunctionInfo>();
  for (const name of linker.functions.keys()) functions.set(name, linker.effective(name)!);
  return {
    ok: true,
    program: { files: all, units: parsed.map((p) => p.unit), globals: linker.globals, globalAlign: linker.globalAlign, functions, structs: linker.structs, sema: linker.sema },
  };
}

function fail(errors: CDiagnostic[], files: SourceFiles): ParseProgramResult {
  return { ok: false, errors: errors.map((e) => withDetail(e, files)) };
}

/** The signature of a function as bit-vector widths (0 for void; pointers are 64-bit unsigned). */
export function functionSignature(
  program: CProgram,
  name: string,
):
  | { params: { name: string; width: number; signed: boolean }[]; ret: { width: number; signed: boolean } }
  | undefined {
  const f = program.functions.get(name);
  if (!f) return undefined;
  const w = (t: FunctionInfo['type']['ret']) =>
    t.kind === 'int' ? { width: t.width, signed: t.signed } : t.kind === 'pointer' ? { width: 64, signed: false } : { width: 0, signed: false };
  return { params: f.params.map((p) => ({ name: p.name, ...w(p.type) })), ret: w(f.type.ret) };
}
