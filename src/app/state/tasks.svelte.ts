/**
 * The task browser: the benchmark's tasks, filtered by handler, bug class and
 * bug count, and the selected task's description, code and full prompt with
 * its token count (o200k tokenizer, loaded only when a prompt is shown), in
 * hv6's own names or in a renaming (docs/rename.md; the lens is loaded only
 * when one is chosen), with its code in the kernel's order or in a shape
 * (docs/shape.md; its bugs' lines follow). Task ids are the same in every naming and shape.
 */
import type { RenameChoice, RenameStyle } from '../../core/rename/choice.ts';
import type { ShapeChoice, ShapeStyle } from '../../core/shape/choice.ts';
import type { BugClass, Provenance, Task } from '../../core/tasks/task.ts';
import { description } from '../lib/description.ts';
import { taskCatalog } from './taskdb.svelte.ts';


export class TasksState {
  handler = $state('');
  bugClass = $state<BugClass | ''>('');
  bugCount = $state<'' | '0' | '1' | '2' | '3+'>('');
  query = $state('');
  selectedId = $state('');
  shots = $state(0);
  prompt = $state<string | undefined>(undefined);
  tokens = $state<number | undefined>(undefined);
  /** The names shown: '' for hv6's own, or a renaming's style and seed. */
  names = $state<RenameStyle | ''>('');
  renameSeed = $state<number | null>(1);
  /** The order of the shown code: '' for the kernel's own, or a shape's style and seed. */
  shapeStyle = $state<ShapeStyle | ''>('');
  shapeSeed = $state<number | null>(1);
  /** The selected task's declaration, description, code and bugs in the chosen names and shape (undefined while they are made). */
  shown = $state.raw<{ readonly declaration: string; readonly description: string; readonly code: string; readonly provenance: readonly Provenance[] } | undefined>(undefined);
  private seq = 0;

  /** The renaming chosen, or undefined for hv6's own names (or a seed that is no whole number yet). */
  get rename(): RenameChoice | undefined {
    const seed = this.renameSeed;
    return this.names && typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0 ? { style: this.names, seed } : undefined;
  }

  /** The shape chosen, or undefined for the kernel's order (or a seed that is no whole number yet). */
  get shape(): ShapeChoice | undefined {
    const seed = this.shapeSeed;
    return this.shapeStyle && typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0 ? { style: this.shapeStyle, seed } : undefined;
  }

  /** Why the shape's seed cannot be used, when a shape is chosen. */
  get shapeSeedError(): string | undefined {
    return this.shapeStyle && !this.shape ? 'the seed is a whole number, 0 or more' : undefined;
  }

  /** Why the seed cannot be used, when a renaming is chosen. */
  get seedError(): string | undefined {
    return this.names && !this.rename ? 'the seed is a whole number, 0 or more' : undefined;
  }

  readonly all = $derived(taskCatalog.tasks);
  readonly handlers = $derived([...new Set(taskCatalog.tasks.map((t) => t.handler))].sort());
  readonly filtered = $derived(
    taskCatalog.tasks.filter(
      (t) =>
        (!this.handler || t.handler === this.handler) &&
        (!this.bugClass || t.bug_classes.includes(this.bugClass)) &&
        (this.bugCount === '' || (this.bugCount === '3+' ? t.bug_count >= 3 : t.bug_count === Number(this.bugCount))) &&
        (!this.query || t.id.includes(this.query) || t.description.toLowerCase().includes(this.query.toLowerCase())),
    ),
  );
  readonly selected = $derived(taskCatalog.tasks.find((t) => t.id === this.selectedId));

  descriptionOf(t: Task): string {
    return t.description || description(t.handler) || '';
  }

  async select(id: string): Promise<void> {
    this.selectedId = id;
    const seq = ++this.seq;
    this.prompt = undefined;
    this.tokens = undefined;
    this.shown = undefined;
    await taskCatalog.load();
    const t = this.selected;
    if (!t || seq !== this.seq) return;
    const rename = this.rename;
    const shape = this.shape;
    // Shaped first (the parser is loaded only then), renamed after: a renaming keeps every line.
    const shaped = shape ? (await import('../../core/shape/task.ts')).shapedTask(t, shape) : t;
    if (seq !== this.seq) return;
    if (!rename) this.shown = { declaration: t.declaration, description: this.descriptionOf(t), code: shaped.code, provenance: shaped.provenance };
    else {
      const { lensFor } = await import('../../core/rename/lens.ts');
      const lens = lensFor(rename);
      if (seq !== this.seq) return;
      this.shown = {
        declaration: lens.forward.codeText(t.declaration, 'c'),
        description: lens.forward.markdown(this.descriptionOf(t)),
        code: lens.forward.codeText(shaped.code, 'c'),
        provenance: shaped.provenance,
      };
    }
    // The prompt builder is loaded only when a prompt is shown.
    const { buildPrompt } = await import('../../core/eval/prompt/prompt.ts');
    const built = buildPrompt(t, this.shots, taskCatalog.tasks, { ...(rename ? { rename } : {}), ...(shape ? { shape } : {}) });
    const text = built.messages.map((m) => `[${m.role}]\n${m.content}`).join('\n\n');
    if (seq !== this.seq) return;
    this.prompt = text;
    // The same count as `osvlab prompt --stats` (o200k, message contents only).
    const { promptTokens } = await import('../../core/eval/prompt/tokens.ts');
    if (seq === this.seq) this.tokens = promptTokens(built.messages);
  }
}
