/**
 * `osvlab task show <id>` (options: ../declarations.ts): one task: its header, the functional
 * description, the code shown to the model, where the injected bugs are,
 * and the override the verifier links for it.
 */
import { findTask } from '../../core/tasks/load.ts';
import { UsageError } from '../args.ts';
import { parseCommand } from '../declarations.ts';

export async function run(argv: string[]): Promise<number> {
  const { args, options } = parseCommand('task', argv);
  const [sub, id, ...extra] = args.positionals;
  if (sub !== 'show') throw new UsageError(sub ? `unknown subcommand '${sub}' (known: show)` : 'usage: osvlab task show <id> [--json]');
  if (!id) throw new UsageError('which task? e.g. osvlab task show sys_dup-v1');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const t = await findTask(id);
  if (!t) throw new UsageError(`no task '${id}' (osvlab tasks lists them)`, 'ARG007');
  if (options.json) {
    process.stdout.write(`${JSON.stringify(t, null, 2)}\n`);
    return 0;
  }
  const out = [
    `task ${t.id}  (handler ${t.handler}, ${t.bug_count ? `${t.bug_count} injected bug${t.bug_count > 1 ? 's' : ''}: ${t.bug_classes.join(', ')}` : 'correct implementation'})`,
    `declaration: ${t.declaration}`,
    `hash: ${t.hash}`,
    '',
    '== description ==',
    t.description.trimEnd(),
    '',
    '== code shown to the model ==',
    t.code.trimEnd(),
  ];
  if (t.provenance.length) {
    out.push('', '== injected bugs ==');
    for (const p of t.provenance) out.push(`line ${p.line} (${p.function}): [${p.bugClass}] ${p.operator}: ${p.description}`);
    out.push('', '== impl_override ==', t.impl_override.trimEnd());
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
