/**
 * The fake provider in a renamed world (docs/rename.md): a script written
 * in hv6's names answers a renamed run as a model shown the renamed names
 * would. The task of a request is found by its shown code, renamed the same
 * way, and every text reply is renamed forward, so the run receives answers
 * in the names it showed, which it must rename back before grading.
 */
import type { RenameChoice } from '../../src/core/rename/choice.ts';
import { lensFor } from '../../src/core/rename/lens.ts';
import type { Task } from '../../src/core/tasks/task.ts';
import type { FakeReply, ReceivedRequest, Responder } from './server.ts';

/** The task whose shown code, in `choice`'s names, is the code of the prompt's task section. */
export function renamedTaskOf(prompt: string, candidates: readonly Task[], choice: RenameChoice): Task {
  const lens = lensFor(choice);
  const at = prompt.indexOf('Your task: `');
  if (at < 0) throw new Error('prompt has no task section');
  const code = /```c\n([\s\S]*?)\n```/.exec(prompt.slice(at))?.[1];
  const found = candidates.filter((t) => lens.forward.codeText(t.code, 'c').trimEnd() === code);
  if (found.length !== 1) throw new Error(`renamed prompt matches ${found.length} of the selected tasks`);
  return found[0];
}

/** `reply` as a model shown `choice`'s names writes it: its text renamed forward. */
export function renamedReply(reply: FakeReply, choice: RenameChoice): FakeReply {
  if (reply.kind === 'text') return { ...reply, text: lensFor(choice).forward.markdown(reply.text) };
  if (reply.kind === 'slow') return { ...reply, reply: renamedReply(reply.reply, choice) };
  return reply;
}

/**
 * A responder for a renamed run from a script in hv6's names: `script`
 * gets the request's task (found in the renamed prompt) and answers as for
 * a plain run; its reply is renamed forward.
 */
export function renamedResponder(choice: RenameChoice, candidates: readonly Task[], script: (task: Task, request: ReceivedRequest) => FakeReply): Responder {
  return (request) => renamedReply(script(renamedTaskOf(request.prompt, candidates, choice), request), choice);
}
