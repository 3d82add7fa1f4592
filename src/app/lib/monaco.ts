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
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/languages/definitions/cpp/register';
import 'monaco-editor/languages/definitions/python/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import type { Diagnostic } from '../../core/span.ts';
import type { CatalogEntry } from '../../worker/contract.ts';

(self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

export { monaco };

/** Owner id of our markers, so they never mix with Monaco's own. */
export const MARKER_OWNER = 'osvlab';

/** Monaco markers for checker diagnostics: red squiggles whose message leads with the error code. */
export function toMarkers(diags: readonly Diagnostic[]): monaco.editor.IMarkerData[] {
  return diags.map((d) => ({
    severity: monaco.MarkerSeverity.Error,
    message: d.message,
    code: d.code,
    source: 'osvlab',
    startLineNumber: d.span.line,
    startColumn: d.span.column,
    endLineNumber: d.span.endLine,
    // A zero-width span still gets a visible squiggle.
    endColumn: d.span.endLine === d.span.line && d.span.endColumn <= d.span.column ? d.span.column + 1 : d.span.endColumn,
  }));
}

const KIND: Record<string, monaco.languages.CompletionItemKind> = {
  field: monaco.languages.CompletionItemKind.Field,
  constant: monaco.languages.CompletionItemKind.Constant,
  enum: monaco.languages.CompletionItemKind.EnumMember,
  helper: monaco.languages.CompletionItemKind.Function,
  function: monaco.languages.CompletionItemKind.Function,
  method: monaco.languages.CompletionItemKind.Method,
  module: monaco.languages.CompletionItemKind.Module,
  sort: monaco.languages.CompletionItemKind.TypeParameter,
  struct: monaco.languages.CompletionItemKind.Struct,
  keyword: monaco.languages.CompletionItemKind.Keyword,
};

/**
 * The catalog as the completion and hover providers use it. Entries are
 * looked up by full label ("dt.PROC_ZOMBIE", "z3.And") and by last component
 * ("PROC_ZOMBIE", "state"), so `old.procs[pid].st|` finds the field `state`.
 */
class DialectIndex {
  entries: readonly CatalogEntry[] = [];
  private byLabel = new Map<string, CatalogEntry>();
  private byLast = new Map<string, CatalogEntry[]>();

  set(entries: readonly CatalogEntry[]): void {
    this.entries = entries;
    this.byLabel = new Map(entries.map((e) => [e.label, e]));
    this.byLast = new Map();
    for (const e of entries) {
      const last = e.label.slice(e.label.lastIndexOf('.') + 1);
      const list = this.byLast.get(last) ?? [];
      list.push(e);
      this.byLast.set(last, list);
    }
  }

  /** Entries offered after `qualifier.` ("dt", "z3", "util", "dt.proc_state") or, for state access, by kind. */
  after(qualifier: string): { entry: CatalogEntry; insert: string }[] {
    const prefix = qualifier + '.';
    const direct = this.entries
      .filter((e) => e.label.startsWith(prefix))
      .map((e) => ({ entry: e, rest: e.label.slice(prefix.length) }))
      .filter((x) => !x.rest.includes('.'))
      .map((x) => ({ entry: x.entry, insert: x.entry.insertText ?? x.rest }));
    if (direct.length) return direct;
    // Attribute access on a state expression: offer fields, structs and methods by their last name.
    return this.entries
      .filter((e) => e.kind === 'field' || e.kind === 'struct' || e.kind === 'method')
      .map((e) => ({ entry: e, insert: e.insertText ?? e.label.slice(e.label.lastIndexOf('.') + 1) }));
  }

  /** Top-level names: modules, helpers, builtins. */
  topLevel(): { entry: CatalogEntry; insert: string }[] {
    return this.entries.filter((e) => !e.label.includes('.')).map((e) => ({ entry: e, insert: e.insertText ?? e.label }));
  }

  find(dotted: string): CatalogEntry | undefined {
    const exact = this.byLabel.get(dotted);
    if (exact) return exact;
    const parts = dotted.split('.');
    // Drop leading parts until something matches ("old.procs.state" -> "procs.state").
    for (let i = 1; i < parts.length; i++) {
      const hit = this.byLabel.get(parts.slice(i).join('.'));
      if (hit) return hit;
    }
    return this.byLast.get(parts[parts.length - 1])?.[0];
  }
}

export const dialect = new DialectIndex();

/** The dotted name ending at `column` on `line`, with subscripts removed ("old.procs[pid].state" -> "old.procs.state"). */
export function dottedNameBefore(line: string, column: number): string {
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
        suggestions: items.map(({ entry, insert }) => ({
          label: { label: insert, description: entry.detail },
          kind: KIND[entry.kind] ?? monaco.languages.CompletionItemKind.Text,
          insertText: insert,
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
      const entry = dialect.find(dotted) ?? dialect.find(word.word);
      if (!entry) return null;
      return {
        range: new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn),
        contents: [{ value: '```python\n' + entry.detail + '\n```' }, { value: entry.doc }],
      };
    },
  });
}

/** Follows the app's theme. */
export function setMonacoTheme(dark: boolean): void {
  monaco.editor.setTheme(dark ? 'vs-dark' : 'vs');
}
