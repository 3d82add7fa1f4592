/**
 * The task browser: the benchmark's tasks, filtered by handler, bug class and
 * bug count, and the selected task's description, code and full prompt with
 * its token count (o200k tokenizer, loaded only when a prompt is shown).
 */
import type { BugClass, Task } from '../../core/tasks/task.ts';
import { description } from '../lib/content.ts';
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
  private seq = 0;

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
    await taskCatalog.load();
    const t = this.selected;
    if (!t || seq !== this.seq) return;
    // The prompt builder is loaded only when a prompt is shown.
    const { buildPrompt } = await import('../../core/eval/prompt/prompt.ts');
    const built = buildPrompt(t, this.shots, taskCatalog.tasks);
    const text = built.messages.map((m) => `[${m.role}]\n${m.content}`).join('\n\n');
    if (seq !== this.seq) return;
    this.prompt = text;
    // The same count as `osvlab prompt --stats` (o200k, message contents only).
    const { promptTokens } = await import('../../core/eval/prompt/tokens.ts');
    if (seq === this.seq) this.tokens = promptTokens(built.messages);
  }
}
