/**
 * Monaco glue: the editor core with only the features the app uses, the
 * Python and C grammars, the editor's own worker, and the spec dialect's
 * completion and hover on top of Python. Imported lazily by the editor
 * components so the first paint does not wait for Monaco.
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/diffEditor/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/indentation/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/suggest/register';
// The suggest widget itself has no features/ entry in 0.57 (features/suggest only adds
// inline completions); without this import completion never opens.
import 'monaco-editor/editor/contrib/suggest/browser/suggestController.js';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/languages/definitions/cpp/register';
import 'monaco-editor/languages/definitions/python/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import type { CatalogEntry } from '../../core/service/contract.ts';

(self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

export { monaco };

export { MARKER_OWNER, toMarkers } from './markers.ts';

const KIND: Record<string, monaco.languages.CompletionItemKind> = {
  field: monaco.languages.CompletionItemKind.Field,
  constant: monaco.languages.CompletionItemKind.Constant,
  enum: monaco.languages.CompletionItemKind.EnumMember,
  helper: monaco.languages.CompletionItemKind.Function,
  z3: monaco.languages.CompletionItemKind.Function,
  util: monaco.languages.CompletionItemKind.Function,
  method: monaco.languages.CompletionItemKind.Method,
  sort: monaco.languages.CompletionItemKind.TypeParameter,
};

/** A catalog entry, or a module name offered next to them. */
type Named = Omit<CatalogEntry, 'kind'> & { readonly kind: string };

/** A catalog entry with where it lives: its namespace ("z3", "dt", "dt.proc_state", "" for top level) or its struct. */
interface Placed {
  readonly entry: CatalogEntry;
  /** The dotted prefix the name is reached through; "" for top-level names; undefined for attributes of a state. */
  readonly qualifier?: string;
  /** For fields: the sub-struct ("procs") or "" for KernelState's own fields. */
  readonly struct?: string;
}

/**
 * Where an entry is reached from, read off its one-line signature: "z3.And(...)"
 * lives in z3, "dt.proc_state.PROC_RUNNING = 3" in dt.proc_state, a field
 * "procs[pid].state : ..." is an attribute of procs, "is_pid_valid(x)" is top level.
 */
function place(e: CatalogEntry): Placed {
  if (e.kind === 'field') {
    const m = /^([A-Za-z_]\w*)\[/.exec(e.detail);
    return { entry: e, struct: m && m[1] !== e.label ? m[1] : '' };
  }
  if (e.kind === 'method') return { entry: e };
  const full = /^[A-Za-z_][\w.]*/.exec(e.detail)?.[0] ?? e.label;
  const qualifier = full.endsWith('.' + e.label) ? full.slice(0, -(e.label.length + 1)) : '';
  return { entry: e, qualifier };
}

/** The spec dialect's names, indexed for completion and hover. */
class DialectIndex {
  private placed: Placed[] = [];
  private namespaces = new Set<string>();
  private structs = new Set<string>();

  set(entries: readonly CatalogEntry[]): void {
    this.placed = entries.map(place);
    this.namespaces = new Set(this.placed.map((p) => p.qualifier).filter((q): q is string => !!q));
    this.structs = new Set(this.placed.filter((p) => p.entry.kind === 'field' && p.struct === '').map((p) => p.entry.label));
  }

  get size(): number {
    return this.placed.length;
  }

  /** Entries offered after `qualifier.`: a namespace's members, or a state's fields and methods. */
  after(qualifier: string): CatalogEntry[] {
    if (this.namespaces.has(qualifier)) return this.placed.filter((p) => p.qualifier === qualifier).map((p) => p.entry);
    const last = qualifier.slice(qualifier.lastIndexOf('.') + 1);
    const struct = this.structs.has(last) ? last : '';
    const out = new Map<string, CatalogEntry>();
    for (const p of this.placed) {
      const wanted = (p.entry.kind === 'field' && p.struct === struct) || (!struct && p.entry.kind === 'method');
      if (wanted && !out.has(p.entry.label)) out.set(p.entry.label, p.entry);
    }
    return [...out.values()];
  }

  /** Top-level names: helpers and the modules. */
  topLevel(): Named[] {
    const modules = [...this.namespaces].filter((n) => !n.includes('.'));
    const mods: Named[] = modules.map((m) => ({ label: m, kind: 'module', detail: `module ${m}`, doc: `The \`${m}\` namespace of the spec dialect.` }));
    return [...mods, ...this.placed.filter((p) => p.qualifier === '').map((p) => p.entry)];
  }

  /** The entry a dotted name ("z3.And", "old.procs.state", "dt.proc_state.PROC_ZOMBIE") refers to. */
  find(dotted: string): CatalogEntry | undefined {
    const dot = dotted.lastIndexOf('.');
    const name = dotted.slice(dot + 1);
    const qualifier = dot >= 0 ? dotted.slice(0, dot) : '';
    const candidates = this.placed.filter((p) => p.entry.label === name);
    if (!candidates.length) return undefined;
    if (this.namespaces.has(qualifier)) return candidates.find((p) => p.qualifier === qualifier)?.entry ?? candidates[0].entry;
    if (dot < 0) return (candidates.find((p) => p.qualifier === '') ?? candidates[0]).entry;
    const last = qualifier.slice(qualifier.lastIndexOf('.') + 1);
    const struct = this.structs.has(last) ? last : '';
    return (candidates.find((p) => p.entry.kind === 'field' && p.struct === struct) ?? candidates.find((p) => p.qualifier === undefined) ?? candidates[0]).entry;
  }
}

export const dialect = new DialectIndex();

/** The dotted name ending at `column` on `line`, with subscripts and calls removed ("old.procs[pid].state" -> "old.procs.state"). */
function dottedNameBefore(line: string, column: number): string {
  let text = line.slice(0, column - 1);
  // Remove balanced [...] and (...) groups so indexing does not break the chain.
  let prev;
  do {
    prev = text;
    text = text.replace(/\[[^[\]]*\]|\([^()]*\)/g, '');
  } while (text !== prev);
  const m = /[A-Za-z_][\w.]*$/.exec(text);
  return m ? m[0] : '';
}

let providersRegistered = false;

/** Registers the dialect's completion and hover on Python (once). */
export function registerDialectProviders(): void {
  if (providersRegistered) return;
  providersRegistered = true;

  monaco.languages.registerCompletionItemProvider('python', {
    triggerCharacters: ['.'],
    provideCompletionItems(model, position) {
      const line = model.getLineContent(position.lineNumber);
      const dotted = dottedNameBefore(line, position.column);
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const dot = dotted.lastIndexOf('.');
      const items = dot >= 0 ? dialect.after(dotted.slice(0, dot)) : dialect.topLevel();
      return {
        suggestions: items.map((entry) => ({
          label: { label: entry.label, description: entry.detail },
          kind: KIND[entry.kind] ?? monaco.languages.CompletionItemKind.Module,
          insertText: entry.insertText ?? entry.label,
          detail: entry.detail,
          documentation: { value: entry.doc },
          range,
        })),
      };
    },
  });

  monaco.languages.registerHoverProvider('python', {
    provideHover(model, position) {
      const word = model.getWordAtPosition(position);
      if (!word) return null;
      const line = model.getLineContent(position.lineNumber);
      const dotted = dottedNameBefore(line, word.endColumn);
      const entry = dialect.find(dotted);
      if (!entry) return null;
      return {
        range: new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn),
        contents: [{ value: '```python\n' + entry.detail + '\n```' }, { value: entry.doc }],
      };
    },
  });
}

// Monaco's own themes with the colours that fall below 4.5:1 raised: dimmed
// line numbers (both), comments (dark).
monaco.editor.defineTheme('osvlab-light', { base: 'vs', inherit: true, rules: [], colors: { 'editorLineNumber.dimmedForeground': '#6e6e6e' } });
monaco.editor.defineTheme('osvlab-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [{ token: 'comment', foreground: '6a9955' }],
  colors: { 'editorLineNumber.dimmedForeground': '#8a8a8a' },
});

/** Follows the app's theme. */
export function setMonacoTheme(dark: boolean): void {
  monaco.editor.setTheme(dark ? 'osvlab-dark' : 'osvlab-light');
}
