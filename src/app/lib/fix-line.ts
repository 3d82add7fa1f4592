/**
 * Where in a refuted spec the fix goes, for the counterexample's "spec line"
 * link. The verifier names the line of a wrong write, and the `return` line
 * otherwise (src/core/verify/driver.ts); the return is rarely where the fix
 * goes, so for a failed condition this points at the line that builds the
 * condition, and for a field the spec never writes at the last write to the
 * new state (the missing write goes after it). A spec that changes the state
 * on a call that fails (its condition False, the implementation leaving the
 * cell as it was) is fixed where it returns its state, not at the write the
 * verifier names: the write is right for a call that succeeds.
 */
import { findHandler } from '../../core/kernel/handlers.ts';
import type * as A from '../../core/dialect/ast.ts';
import { parseModule } from '../../core/dialect/parser.ts';
import { loadNameFilter, mayNeedNameFilter, nameFilterLoaded } from '../../core/dialect/unicode-names.ts';
import type { Verdict } from '../../core/verify/verdict.ts';
import { showsCondition } from './cex-text.ts';
import type { FixLine } from './fix-line-kind.ts';


const NOT_FIELDS = new Set(['cond', 'safety', 'impl-invariants']);

/** Every statement of `body`, nested blocks included, in source order. */
function* statements(body: readonly A.Stmt[]): Generator<A.Stmt> {
  for (const s of body) {
    yield s;
    if (s.kind === 'If') {
      yield* statements(s.body);
      yield* statements(s.orelse);
    }
  }
}

/** The variable an assignment target writes into: `new` for `new.procs[pid].state`. */
function rootName(e: A.Expr): string | undefined {
  let x: A.Expr = e;
  while (x.kind === 'Attribute' || x.kind === 'Subscript') x = x.value;
  return x.kind === 'Name' ? x.id : undefined;
}

function targetsOf(s: A.Stmt): readonly A.Expr[] {
  return s.kind === 'Assign' ? s.targets : s.kind === 'AugAssign' ? [s.target] : [];
}

/** The spec's entry function for `handler` (its C name or hv6 alias), else the last function. */
function entry(mod: A.Module, handler: string): A.FunctionDef | undefined {
  const h = findHandler(handler);
  const names = new Set([handler, h?.name, h?.alias].filter(Boolean));
  const fns = mod.body.filter((s): s is A.FunctionDef => s.kind === 'FunctionDef');
  return fns.find((f) => names.has(f.name)) ?? fns.at(-1);
}

/**
 * Resolves when `fixLine` can read `spec`: at once, unless it holds a
 * `\N{...}` escape, which the lexer checks in the Unicode name filter the
 * page loads on demand (docs/design.md, "The worker's first code").
 */
export function fixLineReady(spec: string): Promise<void> {
  return mayNeedNameFilter(spec) ? loadNameFilter() : Promise.resolve();
}

/** Whether `fixLine` can read `spec` now (else await `fixLineReady`). */
export function fixLineCanRead(spec: string): boolean {
  return nameFilterLoaded() || !mayNeedNameFilter(spec);
}

/**
 * The line to point at for a refutation of `spec`, or undefined without a
 * counterexample line; the verifier's own line while `fixLineCanRead` is false.
 */
export function fixLine(spec: string, handler: string, verdict: Verdict): FixLine | undefined {
  if (verdict.status !== 'refuted' || !verdict.counterexample?.specLine) return undefined;
  const given = verdict.counterexample.specLine;
  const field = verdict.counterexample.rows.find((r) => r.differs)?.field ?? verdict.failed.find((n) => !NOT_FIELDS.has(n));
  // The verifier's line is a write's unless it is the return's (checked below).
  let fn: A.FunctionDef | undefined;
  // The spec was verified, so it parses; with its Unicode names not yet loaded the lexer could not say so.
  if (!fixLineCanRead(spec)) return { kind: 'line', line: given };
  try {
    fn = entry(parseModule(spec), handler);
  } catch {
    return { kind: 'line', line: given };
  }
  const ret = fn && [...statements(fn.body)].filter((s): s is A.Return => s.kind === 'Return').at(-1);
  const cex = verdict.counterexample;
  // The call fails (cond False), the implementation keeps a cell and the spec changes it.
  const changedOnFailure = cex.specCond === false ? cex.rows.find((r) => r.differs && r.spec !== r.old && r.impl === r.old) : undefined;
  if (ret && changedOnFailure) return { kind: 'failure-state', line: ret.span.line, field: changedOnFailure.field };
  if (!fn || !ret || ret.span.line !== given) return field ? { kind: 'write', line: given, field } : { kind: 'line', line: given };
  const before = [...statements(fn.body)].filter((s) => s.span.line < ret.span.line);
  const parts = ret.value?.kind === 'Tuple' ? ret.value.elts : [];

  // What the state shown disagrees on: the condition, else a field.
  const onCondition = showsCondition(verdict.counterexample) || (!field && verdict.failed.includes('cond'));
  if (onCondition && parts[0]) {
    const cond = parts[0];
    if (cond.kind !== 'Name') return { kind: 'condition', line: cond.span.line, endLine: cond.span.endLine };
    const def = before.filter((s) => targetsOf(s).some((t) => t.kind === 'Name' && t.id === cond.id)).at(-1);
    return def ? { kind: 'condition', line: def.span.line, endLine: def.span.endLine } : { kind: 'condition', line: given, endLine: given };
  }
  if (field && parts[1]) {
    // `util.If(cond, new, old)` or a bare `new`: the state the writes go into.
    const st = parts[1];
    const state = st.kind === 'Call' && st.args[1] ? rootName(st.args[1]) : rootName(st);
    const writes = before.filter((s) => targetsOf(s).some((t) => rootName(t) === state));
    const last = writes.at(-1);
    if (last) return { kind: 'missing-write', line: last.span.endLine, field };
  }
  return { kind: 'line', line: given };
}
