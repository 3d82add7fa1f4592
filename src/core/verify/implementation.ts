/**
 * The implementation's side of a step (refinement.ts): the kernel program
 * with an optional override unit, and the handler's symbolic run on a fresh
 * C state, impl_h(σ, a) = (ret, σ'). Both are kept in the caller's caches
 * (caches.ts): neither depends on the spec.
 */
import { type CDiagnostic, type CProgram, addressFacts, execFunction, freshMemory, parseProgram } from '../c/index.ts';
import { KERNEL, type KernelContent } from '../kernel/content.ts';
import { abstractOf } from '../kernel/equiv.ts';
import { type HandlerArg, type HandlerInfo, requireHandler } from '../kernel/handlers.ts';
import { shippedProgram } from '../kernel/program.ts';
import { type Term, variable } from '../smt/term.ts';
import { phaseClock } from '../phases.ts';
import { type CacheStats, SlotMap, type VerifierCaches, cacheSlot } from './caches.ts';
import type { ImplementationStep } from './steps.ts';

/**
 * A problem with the implementation (not with the spec): it carries its
 * coded C diagnostics (docs/c-errors.md), the first of which is the one to
 * show. (An unknown handler is an UnknownHandlerError, kernel/handlers.ts.)
 */
export class ImplementationError extends Error {
  constructor(
    message: string,
    readonly diagnostics: readonly CDiagnostic[] = [],
  ) {
    super(message);
    this.name = 'ImplementationError';
  }

  toDiagnostic(): CDiagnostic {
    return this.diagnostics[0];
  }
}

export { requireHandler };

/** Fresh symbolic arguments of a handler, named `arg.<name>`. */
function handlerArgs(h: HandlerInfo): { arg: HandlerArg; term: Term }[] {
  return h.args.map((arg) => ({ arg, term: variable(`arg.${arg.name}`, arg.width) }));
}

/** The cache key of the kernel with `implSource` as its override unit. */
export function programKey(implSource: string, kernel: KernelContent): string {
  return `${kernel.kernelHash}\0${implSource}`;
}

/** A parsed program and the implementation's runs on it, by handler. */
interface ProgramEntry {
  readonly program: CProgram;
  readonly runs: Map<string, ImplementationStep>;
  /** The program's address facts (c/memory.ts `addressFacts`), shared by its runs: for counterexamples, never assumed. */
  readonly addresses: ReadonlyMap<string, Term>;
}

/** The parsed programs of a cache object (parsing takes 0.05-0.2 s; the kernel alone is read from its shipped form). */
class Programs extends SlotMap<string, ProgramEntry> {
  override stats(): Partial<CacheStats> {
    let implRuns = 0;
    for (const p of this.values()) implRuns += p.runs.size;
    return { programs: this.size, implRuns };
  }
}

const PROGRAMS = cacheSlot((limits) => new Programs(limits.programs, 'programs'));

function programEntry(implSource: string, kernel: KernelContent, caches: VerifierCaches): ProgramEntry {
  const key = programKey(implSource, kernel);
  const programs = caches.slot(PROGRAMS);
  const hit = programs.get(key);
  if (hit) return hit;
  const overrides = implSource.trim() ? [{ path: 'override.c', text: implSource }] : [];
  // The kernel alone is read from the form `npm run bundle` made of it, not parsed (kernel/program.ts).
  const r = phaseClock.timed('c', () => {
    const shipped = overrides.length ? undefined : shippedProgram(kernel);
    return shipped ? { ok: true as const, program: shipped } : parseProgram(kernel.files, kernel.units, overrides);
  });
  if (!r.ok) {
    const first = r.errors[0];
    throw new ImplementationError(
      `the implementation does not compile: ${first.message} (${first.file ?? ''}:${first.span.line}:${first.span.column})`,
      r.errors,
    );
  }
  const entry: ProgramEntry = { program: r.program, runs: new Map(), addresses: addressFacts(r.program) };
  programs.set(key, entry);
  return entry;
}

/** The kernel program with an optional override unit, parsed once per distinct text (kept in `caches`). */
export function loadProgram(caches: VerifierCaches, implSource = '', kernel: KernelContent = KERNEL): CProgram {
  return programEntry(implSource, kernel, caches).program;
}

/**
 * The shared start of every check of handler `h`: σ, S, the arguments and
 * the implementation's run on them. Cached per program, since it does not
 * depend on the spec.
 */
export function implementationStep(implSource: string, kernel: KernelContent, h: HandlerInfo, caches: VerifierCaches): ImplementationStep {
  const entry = programEntry(implSource, kernel, caches);
  const hit = entry.runs.get(h.name);
  if (hit) return hit;
  const mem = freshMemory(entry.program);
  const pre = abstractOf(mem);
  const args = handlerArgs(h);
  const r = phaseClock.timed('c', () => execFunction(entry.program, h.name, mem, args.map((a) => a.term)));
  if (!r.ok) {
    throw new ImplementationError(`cannot run ${h.name}: ${r.error.message} (${r.error.file}:${r.error.span.line}:${r.error.span.column})`, [r.error]);
  }
  const safety = r.safety.map((s) => ({ label: `${s.kind} at ${s.file}:${s.span.line}: ${s.message}`, ok: s.ok }));
  const run: ImplementationStep = { mem, pre, args, ret: r.ret, memAfter: r.mem, safety, addresses: entry.addresses };
  entry.runs.set(h.name, run);
  return run;
}
