/**
 * What the tests need from the repository and from the machine. The
 * repository's own artefacts (the kernel, the oracle specs, the generated
 * tasks) must be there: a test that needs one fails when it is missing or
 * broken, it never skips or turns into `todo`, so a broken tasks.json cannot
 * pass CI. Tools that `.ci/run` installs (gcc, python3-z3) may be missing on a
 * developer's machine, where their tests skip; under CI (`CI` set) a missing
 * tool fails the suite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** `value`, or an error naming the missing artefact. */
export function requireArtefact<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`missing artefact: ${what} (it is part of the repository; restore it or regenerate it)`);
  return value;
}

/** The generated tasks of tasks/hv6/tasks.json; throws when the file is missing, not JSON, or holds no task. */
export function generatedTasks(): readonly { readonly id: string }[] {
  const file = join(ROOT, 'tasks/hv6/tasks.json');
  let tasks: unknown;
  try {
    tasks = (JSON.parse(readFileSync(file, 'utf8')) as { tasks?: unknown }).tasks;
  } catch (e) {
    throw new Error(`tasks/hv6/tasks.json cannot be read (${(e as Error).message}); run npm run tasks`);
  }
  if (!Array.isArray(tasks) || tasks.length === 0) throw new Error('tasks/hv6/tasks.json holds no task; run npm run tasks');
  return tasks as { id: string }[];
}

/** Whether a tool's tests can run: `present` off CI; on CI a missing tool is an error naming the package to install. */
export function toolAvailable(present: boolean, tool: string, debianPackage: string): boolean {
  if (!present && process.env.CI) throw new Error(`${tool} is missing on CI: .ci/run must install the Debian package ${debianPackage}`);
  return present;
}
