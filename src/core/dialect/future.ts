/**
 * Python 2.7's future statements (`from __future__ import division`): which
 * features a module turns on, and where such a statement may stand. Only
 * the statements at the top of a module count, after at most a docstring,
 * as in CPython's future.c; one anywhere else (after another statement, in
 * a function) or naming a feature 2.7 does not have is a compile-time error
 * (SPEC026). The lexer needs the features before it can read the rest
 * (`print_function` makes `print` a name, `unicode_literals` makes plain
 * literals unicode), so they are read from the tokens first.
 */
import type * as A from './ast.ts';
import { structureError } from './errors.ts';
import type { Token } from './tokens.ts';

/** The features of Python 2.7's `__future__` module. */
export const FUTURE_FEATURES: ReadonlySet<string> = new Set([
  'nested_scopes', 'generators', 'division', 'absolute_import', 'with_statement', 'print_function', 'unicode_literals',
]);

/**
 * The features named by the future statements a token stream starts with
 * (after an optional docstring): one pass over the leading tokens, read
 * with no feature on. Any malformed statement ends the scan; the parser
 * reports it.
 */
export function leadingFeatures(tokens: readonly Token[]): Set<string> {
  const out = new Set<string>();
  let i = 0;
  const is = (kind: Token['kind'], value?: string) => tokens[i]?.kind === kind && (value === undefined || tokens[i].value === value);
  const endOfStatement = () => {
    if (is('op', ';') || is('newline')) {
      i++;
      return true;
    }
    return false;
  };
  if (is('string')) {
    while (is('string')) i++;
    if (!endOfStatement()) return out;
  }
  for (;;) {
    while (is('newline')) i++;
    if (!(is('keyword', 'from') && tokens[i + 1]?.kind === 'name' && tokens[i + 1].value === '__future__' && tokens[i + 2]?.kind === 'keyword' && tokens[i + 2].value === 'import')) return out;
    i += 3;
    const paren = is('op', '(');
    if (paren) i++;
    while (is('name')) {
      out.add(tokens[i++].value);
      if (is('keyword', 'as') && tokens[i + 1]?.kind === 'name') i += 2;
      if (!is('op', ',')) break;
      i++;
    }
    if (paren && is('op', ')')) i++;
    if (!endOfStatement()) return out;
  }
}

/**
 * Checks a module's future statements as CPython 2.7 compiles them: every
 * one stands at the top of the module (after at most a docstring) and names
 * a feature 2.7 has. Throws SPEC026.
 */
export function lintFutureStatements(mod: A.Module): void {
  let leading = true;
  mod.body.forEach((s, i) => {
    if (isFuture(s)) {
      if (!leading) throw structureError(s.span, 'from __future__ imports must occur at the beginning of the file');
      if (s.names === '*') throw structureError(s.span, 'future feature * is not defined');
      for (const n of s.names) {
        if (n.name === 'braces') throw structureError(n.span, 'not a chance');
        if (!FUTURE_FEATURES.has(n.name)) throw structureError(n.span, `future feature ${n.name} is not defined`);
      }
      return;
    }
    if (i === 0 && s.kind === 'ExprStmt' && s.expr.kind === 'Constant' && typeof s.expr.value === 'string') return;
    leading = false;
  });
  for (const s of mod.body) nested(s);
}

function isFuture(s: A.Stmt): s is A.ImportFrom {
  return s.kind === 'ImportFrom' && s.module.length === 1 && s.module[0] === '__future__';
}

/** A future statement inside a function or an `if` is never at the top of the file. */
function nested(s: A.Stmt): void {
  const inner = s.kind === 'FunctionDef' ? s.body : s.kind === 'If' ? [...s.body, ...s.orelse] : [];
  for (const b of inner) {
    if (isFuture(b)) throw structureError(b.span, 'from __future__ imports must occur at the beginning of the file');
    nested(b);
  }
}
