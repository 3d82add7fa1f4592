/**
 * Prompt sizes of the benchmark: tokens (o200k_base) of every task's prompt
 * for k = 0, 1, 3, 5, 7, 9 examples. `npx tsx perf/prompt-stats.ts`
 * (the same table as `osvlab prompt --stats --all`).
 */
import { formatStats, promptTokenStats } from '../src/core/eval/prompt/prompt-stats.ts';
import { loadTasks } from '../src/core/tasks/load.ts';
import { ENCODING } from '../src/core/eval/prompt/tokens.ts';

const tasks = await loadTasks();
const started = Date.now();
const rows = promptTokenStats(tasks);
process.stdout.write(`prompt tokens (${ENCODING}) over ${tasks.length} tasks\n${formatStats(rows)}(${Date.now() - started} ms)\n`);
