/**
 * The task browser: the benchmark's tasks, filtered by handler, bug class and
 * bug count, and the selected task's description, code and full prompt with
 * its token count (o200k tokenizer, loaded only when a prompt is shown).
 */
import type { BugClass, Task } from '../../core/bench/task.ts';
import type { ChatMessage } from '../../core/llm/types.ts';
import { description } from '../lib/content.ts';
import { taskCatalog } from './taskdb.svelte.ts';

/** `core/bench/prompt.ts`: builds the full prompt the model sees. Found with a glob so the app builds without it. */
type PromptModule = { buildPrompt?: (task: Task, shots: number, tasks: readonly Task[]) => { messages: readonly ChatMessage[] } };
const promptModules = import.meta.glob<PromptModule>('/src/core/bench/prompt.ts');

export class TasksState {
  handler = $state('');
  bugClass = $state<BugClass | ''>('');
  bugCount = $state<'' | '0' | '1' | '2' | '3+'>('');
  query = $state('');
  selectedId = $state('');
  shots = $state(0);
  prompt = $state<string | undefined>(undefined);
  promptNote = $state('');
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
    this.promptNote = '';
    await taskCatalog.load();
    const t = this.selected;
    if (!t || seq !== this.seq) return;
    const load = Object.values(promptModules)[0];
    const mod = load ? await load() : undefined;
    if (!mod?.buildPrompt) {
      this.promptNote = 'The prompt builder (core/bench/prompt.ts) is not in this build yet.';
      return;
    }
    const built = mod.buildPrompt(t, this.shots, taskCatalog.tasks);
    const text = built.messages.map((m) => `[${m.role}]\n${m.content}`).join('\n\n');
    if (seq !== this.seq) return;
    this.prompt = text;
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    if (seq === this.seq) this.tokens = countTokens(text);
  }
}
