/**
 * Canned model answers for scripting the fake provider: an oracle spec in a
 * code fence (correct), a deliberately broken one (wrong), prose with no code,
 * and an answer cut off mid-code as when max tokens is reached.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SPECS = join(import.meta.dirname, '..', '..', 'tasks', 'hv6', 'specs');

/** The oracle spec of a handler (its file name is the hv6 spec name, e.g. clone_proc). */
export function oracleSpec(name: string): string {
  const file = join(SPECS, `${name}.py`);
  if (!existsSync(file)) throw new Error(`no oracle spec ${file}`);
  return readFileSync(file, 'utf8');
}

/** A model-style answer: a sentence, the code in a python fence, a closing sentence. */
export function codeAnswer(spec: string): string {
  return `Here is the specification.\n\n\`\`\`python\n${spec.trimEnd()}\n\`\`\`\n\nIt covers the success and failure cases.`;
}

/** An answer with no code at all. */
export function proseAnswer(): string {
  return 'The system call checks its arguments and updates the process table; the new state reflects the change.';
}

/** The first half of a code answer, fence left open (finish reason "length"). */
export function truncatedAnswer(spec: string): string {
  const code = spec.trimEnd();
  return `\`\`\`python\n${code.slice(0, Math.floor(code.length / 2))}`;
}
