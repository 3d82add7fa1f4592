/**
 * The preprocessor of the subset: `#include "..."`, object-like and
 * function-like macros (no `#`/`##`, not variadic), `#undef`, and the
 * conditionals `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif` with a
 * small integer expression language (`defined`, literals, the usual
 * operators). It works on tokens, so every token keeps a span in its
 * original file; a token that comes out of a macro expansion gets the span
 * of the outermost macro use it came from.
 */
import { type CSpan, joinSpans } from './ast.ts';
import {
  type CDiagnostic,
  CError,
  badIfExpression,
  badMacro,
  conditionalMismatch,
  errorDirective,
  includeDepth,
  includeNotFound,
  macroOperator,
  nowhere,
  systemInclude,
  unsupportedDirective,
} from './errors.ts';
import { type LexResult, type Token, lex } from './lexer.ts';
import { evalCondition } from './pp-condition.ts';

/** path -> text; `#include "x.h"` is looked up here. */
export type SourceFiles = ReadonlyMap<string, string>;

export interface Macro {
  readonly name: string;
  /** Parameter names of a function-like macro; undefined for an object-like one. */
  readonly params?: readonly string[];
  readonly body: readonly Token[];
  readonly span: CSpan;
}

export interface PreprocessResult {
  /** The unit's tokens after preprocessing, ending with one `eof`. */
  readonly tokens: Token[];
  readonly errors: CDiagnostic[];
  readonly macros: ReadonlyMap<string, Macro>;
  /** Every file read, in first-include order (the unit first). */
  readonly files: readonly string[];
  /** Paths an include looked for and did not find before the file it read (what it reads depends on their absence). */
  readonly absent: readonly string[];
}

const MAX_INCLUDE_DEPTH = 40;
// The kernel expands a few hundred tokens per unit; a runaway macro is stopped in well under a second.
const MAX_EXPANSION_TOKENS = 100_000;

/** Resolves `name` included from `from`: next to the includer first, then from the root; each path looked for and not found goes in `absent`. */
function resolveInclude(files: SourceFiles, from: string, name: string, absent: string[]): string | undefined {
  const slash = from.lastIndexOf('/');
  const candidates = slash >= 0 ? [normalizePath(from.slice(0, slash + 1) + name), normalizePath(name)] : [normalizePath(name)];
  for (const c of candidates) {
    if (files.has(c)) return c;
    if (!absent.includes(c)) absent.push(c);
  }
  return undefined;
}

function normalizePath(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

interface Cond {
  /** Were the enclosing groups active? */
  readonly parentActive: boolean;
  /** Has some branch of this conditional been taken? */
  taken: boolean;
  /** Is the current branch active? */
  active: boolean;
  seenElse: boolean;
  readonly span: CSpan;
}

/**
 * Preprocesses the translation unit `path` of `files`. `lexed` may carry
 * the tokens of files across units (headers are lexed once per program).
 */
export function preprocess(files: SourceFiles, path: string, lexed: Map<string, LexResult> = new Map()): PreprocessResult {
  const pp = new Preprocessor(files, lexed);
  const text = files.get(path);
  if (text === undefined) {
    return { tokens: [eofAt(nowhere(path))], errors: [includeNotFound(nowhere(path), path)], macros: pp.macros, files: [], absent: [path] };
  }
  pp.file(path, text, 0);
  const last = pp.out.length ? pp.out[pp.out.length - 1].span : nowhere(path);
  pp.out.push(eofAt(pp.mainEof ?? last));
  return { tokens: pp.out, errors: pp.errors, macros: pp.macros, files: pp.read, absent: pp.absent };
}

function eofAt(span: CSpan): Token {
  return { kind: 'eof', text: '', span, bol: true, space: true };
}

class Preprocessor {
  readonly macros = new Map<string, Macro>();
  readonly out: Token[] = [];
  readonly errors: CDiagnostic[] = [];
  readonly read: string[] = [];
  readonly absent: string[] = [];
  private readonly once = new Set<string>();
  mainEof?: CSpan;
  private budget = MAX_EXPANSION_TOKENS;

  constructor(
    private readonly files: SourceFiles,
    private readonly lexed: Map<string, LexResult>,
  ) {}

  file(path: string, text: string, depth: number): void {
    if (this.once.has(path)) return;
    if (!this.read.includes(path)) this.read.push(path);
    let lexedFile = this.lexed.get(path);
    if (!lexedFile) {
      lexedFile = lex(path, text);
      this.lexed.set(path, lexedFile);
    }
    const { tokens, errors: lexErrors } = lexedFile;
    if (depth === 0) this.mainEof = tokens[tokens.length - 1].span;
    const conds: Cond[] = [];
    const inactive: [number, number][] = [];
    let run: Token[] = [];
    const active = () => conds.length === 0 || conds[conds.length - 1].active;
    const flush = () => {
      if (run.length === 0) return;
      try {
        for (const t of this.expand(run)) this.out.push(t);
      } catch (e) {
        if (!(e instanceof CError)) throw e;
        this.errors.push(e.diagnostic);
      }
      run = [];
    };

    let i = 0;
    while (tokens[i].kind !== 'eof') {
      const t = tokens[i];
      if (!(t.bol && t.kind === 'punct' && t.text === '#')) {
        if (active()) run.push(t);
        else inactive.push([t.span.offset, t.span.endOffset]);
        i++;
        continue;
      }
      flush();
      let j = i + 1;
      while (!tokens[j].bol) j++;
      const line = tokens.slice(i + 1, j);
      i = j;
      try {
        this.directive(path, t, line, conds, active(), depth);
      } catch (e) {
        if (!(e instanceof CError)) throw e;
        this.errors.push(e.diagnostic);
      }
    }
    flush();
    for (const c of conds) this.errors.push(conditionalMismatch(c.span, 'this conditional has no #endif'));
    // Lexical errors inside skipped groups do not count (e.g. an apostrophe under #if 0).
    for (const e of lexErrors) {
      if (!inactive.some(([a, b]) => e.span.offset >= a && e.span.offset < b)) this.errors.push(e);
    }
  }

  private directive(path: string, hash: Token, line: Token[], conds: Cond[], active: boolean, depth: number): void {
    if (line.length === 0) return; // the null directive
    const name = line[0];
    const span = joinAll(hash, line);
    const rest = line.slice(1);
    switch (name.text) {
      case 'ifdef':
      case 'ifndef': {
        let taken = false;
        if (active) {
          const id = rest[0];
          if (!id || id.kind !== 'ident') throw new CError(badMacro(span, `#${name.text} needs a macro name`));
          taken = this.macros.has(id.text) === (name.text === 'ifdef');
        }
        conds.push({ parentActive: active, taken, active: active && taken, seenElse: false, span });
        return;
      }
      case 'if': {
        const taken = active ? this.evalIf(span, rest) : false;
        conds.push({ parentActive: active, taken, active: active && taken, seenElse: false, span });
        return;
      }
      case 'elif': {
        const c = conds[conds.length - 1];
        if (!c) throw new CError(conditionalMismatch(span, '#elif without #if'));
        if (c.seenElse) throw new CError(conditionalMismatch(span, '#elif after #else'));
        if (!c.parentActive || c.taken) {
          c.active = false;
        } else {
          c.taken = this.evalIf(span, rest);
          c.active = c.taken;
        }
        return;
      }
      case 'else': {
        const c = conds[conds.length - 1];
        if (!c) throw new CError(conditionalMismatch(span, '#else without #if'));
        if (c.seenElse) throw new CError(conditionalMismatch(span, '#else after #else'));
        c.seenElse = true;
        c.active = c.parentActive && !c.taken;
        c.taken = true;
        return;
      }
      case 'endif':
        if (!conds.pop()) throw new CError(conditionalMismatch(span, '#endif without #if'));
        return;
    }
    if (!active) return;
    switch (name.text) {
      case 'include':
        this.include(path, span, rest, depth);
        return;
      case 'define':
        this.define(span, rest);
        return;
      case 'undef':
        if (!rest[0] || rest[0].kind !== 'ident') throw new CError(badMacro(span, '#undef needs a macro name'));
        this.macros.delete(rest[0].text);
        return;
      case 'error':
        throw new CError(errorDirective(span, rest.map((t) => t.text).join(' ')));
      case 'pragma':
        if (rest[0]?.text === 'once') this.once.add(path);
        return;
      default:
        throw new CError(unsupportedDirective(name.span, name.text));
    }
  }

  private include(path: string, span: CSpan, rest: Token[], depth: number): void {
    const t = rest[0];
    if (t?.kind === 'punct' && t.text === '<') {
      throw new CError(systemInclude(span, rest.slice(1, -1).map((x) => x.text).join('')));
    }
    if (!t || t.kind !== 'string') throw new CError(badMacro(span, '#include needs a "file" name'));
    const name = t.text.slice(1, -1);
    const target = resolveInclude(this.files, path, name, this.absent);
    if (target === undefined) throw new CError(includeNotFound(t.span, name));
    if (depth >= MAX_INCLUDE_DEPTH) throw new CError(includeDepth(t.span, name));
    this.file(target, this.files.get(target)!, depth + 1);
  }

  private define(span: CSpan, rest: Token[]): void {
    const id = rest[0];
    if (!id || id.kind !== 'ident') throw new CError(badMacro(span, '#define needs a macro name'));
    let body = rest.slice(1);
    let params: string[] | undefined;
    if (body[0]?.text === '(' && !body[0].space) {
      params = [];
      let k = 1;
      if (body[k]?.text === ')') k++;
      else {
        for (;;) {
          const p = body[k];
          if (p?.text === '...') throw new CError(macroOperator(p.span, 'a variadic parameter'));
          if (!p || p.kind !== 'ident') throw new CError(badMacro(p?.span ?? span, `bad parameter list of macro '${id.text}'`));
          if (params.includes(p.text)) throw new CError(badMacro(p.span, `duplicate macro parameter '${p.text}'`));
          params.push(p.text);
          const sep = body[k + 1];
          k += 2;
          if (sep?.text === ')') break;
          if (sep?.text !== ',') throw new CError(badMacro(sep?.span ?? span, `bad parameter list of macro '${id.text}'`));
        }
      }
      body = body.slice(k);
    }
    for (const b of body) {
      if (b.kind === 'punct' && (b.text === '#' || b.text === '##')) {
        throw new CError(macroOperator(b.span, `the '${b.text}' operator`));
      }
    }
    this.macros.set(id.text, { name: id.text, params, body, span });
  }

  /** Fully macro-expands a list of tokens (the rescanning of C's translation phase 4). */
  expand(input: readonly Token[]): Token[] {
    const out: Token[] = [];
    const pending = input.slice().reverse();
    while (pending.length) {
      const t = pending.pop()!;
      if (t.kind !== 'ident' || t.hide?.has(t.text)) {
        out.push(t);
        continue;
      }
      if (t.text === '__LINE__' || t.text === '__FILE__') {
        out.push({
          ...t,
          kind: t.text === '__LINE__' ? 'number' : 'string',
          text: t.text === '__LINE__' ? String(t.span.line) : JSON.stringify(t.span.file),
        });
        continue;
      }
      const m = this.macros.get(t.text);
      if (!m) {
        out.push(t);
        continue;
      }
      const hide = new Set(t.hide ?? []);
      hide.add(m.name);
      let expansion: Token[];
      let use = t.span;
      if (m.params === undefined) {
        expansion = m.body.map((b) => respan(b, use, hide));
      } else {
        const open = pending[pending.length - 1];
        if (!open || open.text !== '(' || open.kind !== 'punct') {
          out.push(t); // a function-like macro name without arguments is a plain identifier
          continue;
        }
        pending.pop();
        const args: Token[][] = [[]];
        let depthP = 0;
        let close: Token | undefined;
        while (pending.length) {
          const a = pending.pop()!;
          if (a.kind === 'punct' && a.text === '(') depthP++;
          if (a.kind === 'punct' && a.text === ')') {
            if (depthP === 0) {
              close = a;
              break;
            }
            depthP--;
          }
          if (a.kind === 'punct' && a.text === ',' && depthP === 0) args.push([]);
          else args[args.length - 1].push(a);
        }
        if (!close) throw new CError(badMacro(t.span, `unterminated arguments of macro '${m.name}'`));
        use = joinSpans(t.span, close.span);
        const n = args.length === 1 && args[0].length === 0 ? 0 : args.length;
        if (n !== m.params.length) {
          throw new CError(badMacro(use, `macro '${m.name}' takes ${m.params.length} argument${m.params.length === 1 ? '' : 's'}, got ${n}`));
        }
        const expandedArgs = new Map<string, Token[]>();
        m.params.forEach((p, k) => expandedArgs.set(p, this.expand(args[k])));
        expansion = [];
        for (const b of m.body) {
          const arg = b.kind === 'ident' ? expandedArgs.get(b.text) : undefined;
          if (arg) for (const a of arg) expansion.push(respan(a, use, union(a.hide, hide)));
          else expansion.push(respan(b, use, hide));
        }
      }
      this.budget -= expansion.length;
      if (this.budget < 0) throw new CError(badMacro(t.span, 'macro expansion is too large'));
      for (let k = expansion.length - 1; k >= 0; k--) pending.push(expansion[k]);
    }
    return out;
  }

  private evalIf(span: CSpan, line: Token[]): boolean {
    // `defined X` and `defined(X)` are decided before expansion.
    const pre: Token[] = [];
    for (let k = 0; k < line.length; k++) {
      const t = line[k];
      if (t.kind === 'ident' && t.text === 'defined') {
        let id = line[k + 1];
        let skip = 1;
        if (id?.text === '(') {
          id = line[k + 2];
          if (line[k + 3]?.text !== ')') throw new CError(badIfExpression(span, "missing ')' after defined"));
          skip = 3;
        }
        if (!id || id.kind !== 'ident') throw new CError(badIfExpression(span, 'defined needs a macro name'));
        pre.push({ ...t, kind: 'number', text: this.macros.has(id.text) ? '1' : '0' });
        k += skip;
      } else pre.push(t);
    }
    const toks = this.expand(pre);
    if (toks.length === 0) throw new CError(badIfExpression(span, 'empty condition'));
    const v = evalCondition(toks, span);
    return v !== 0n;
  }
}

function respan(t: Token, span: CSpan, hide: ReadonlySet<string>): Token {
  return { kind: t.kind, text: t.text, span, bol: false, space: t.space, hide };
}

function union(a: ReadonlySet<string> | undefined, b: ReadonlySet<string>): ReadonlySet<string> {
  if (!a || a.size === 0) return b;
  const s = new Set(a);
  for (const x of b) s.add(x);
  return s;
}

function joinAll(first: Token, rest: Token[]): CSpan {
  return rest.length ? joinSpans(first.span, rest[rest.length - 1].span) : first.span;
}
