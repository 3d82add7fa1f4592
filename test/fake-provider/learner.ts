/**
 * A scripted model that behaves like a learner, for tests of repair rounds
 * and feedback modes (docs/research.md). It is a responder for the fake
 * provider (server.ts), so it is reached over real HTTP in any wire format
 * the fake speaks. It keeps no state: what it answers follows from the
 * conversation it is sent, so a resumed run, the response cache and a
 * second process all see the same learner.
 *
 * - Its first answer is wrong: the task's oracle spec with one wrong write
 *   after it, `current` set to 1 in the state the spec returns (the kernel
 *   never does that, on success or failure).
 * - Given a counterexample (the verifier's values), it fixes the field the
 *   counterexample names: the oracle spec, when `current` is among the cells
 *   that differ; otherwise it answers as before.
 * - Given only a verdict (failing obligations, no values), it fixes it half
 *   of the time, by a seeded coin per task and round, and otherwise answers
 *   its wrong spec again (the same text, so grading it again is a lookup).
 * - Given nothing ("not correct; try again"), it answers another wrong spec
 *   than its last: the same wrong write with the value 2 and 1 by turns (two
 *   wrong answers, so a study grades few distinct answers).
 */
import { createHash } from 'node:crypto';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { requireHandler } from '../../src/core/kernel/handlers.ts';
import { codeAnswer } from './answers.ts';
import type { FakeReply, ReceivedRequest, Responder } from './server.ts';

export const LEARNER_SEED = 'learner';

export interface Turn {
  readonly role: 'system' | 'user' | 'assistant';
  readonly text: string;
}

/** What the learner was told about its last answer. */
export type Feedback =
  | { readonly kind: 'counterexample'; readonly fields: readonly string[] }
  | { readonly kind: 'verdict'; readonly obligations: readonly string[] }
  | { readonly kind: 'none' };

/** The task a prompt asks for: its handler and the C code of its "Your task" section. */
export function taskOfPrompt(prompt: string): { handler: string; code: string } {
  const at = prompt.search(/## \d+\. Your task: `/);
  if (at < 0) throw new Error('learner: the prompt has no task section');
  const handler = /Your task: `(\w+)`/.exec(prompt.slice(at))![1];
  const code = /```c\n([\s\S]*?)\n```/.exec(prompt.slice(at))?.[1];
  if (code === undefined) throw new Error('learner: the task section shows no C code');
  return { handler, code };
}

/** How a repair message reads to the learner (prompt/repair.ts writes them). */
export function feedbackOf(message: string): Feedback {
  if (message.includes('Counterexample:')) {
    const fields = [...message.matchAll(/^([\w.]+)(?:\[[^\]\n]*\])?: was /gm)].map((m) => m[1]);
    return { kind: 'counterexample', fields };
  }
  const failing = /Failing obligations: ([^\n]*)\./.exec(message);
  if (failing) return { kind: 'verdict', obligations: failing[1].split(', ') };
  return { kind: 'none' };
}

/** The learner's coin for a verdict: heads (fix it) about half of the time, the same for the same task and round. */
export function fixesAfterVerdict(seed: string, task: { handler: string; code: string }, round: number): boolean {
  const h = createHash('sha256').update(`${seed}\0${task.handler}\0${task.code}\0${round}`).digest();
  return h[0] < 128;
}

/**
 * The oracle with the learner's wrong write: the module ends with a wrapper
 * that calls the oracle's entry and then sets `current` to `value` in the
 * state it returns, and the handler's name is bound to the wrapper (so it
 * works whatever the oracle's entry looks like, helpers and hv6 aliases
 * included).
 */
export function wrongSpec(handler: string, value: number): string {
  const oracle = oracleSpec(handler);
  if (!oracle) throw new Error(`learner: no oracle spec for ${handler}`);
  const args = requireHandler(handler).args.map((a) => a.name).join(', ');
  return [
    oracle.trimEnd(),
    '',
    '',
    `learner_entry = ${handler}`,
    '',
    '',
    `def learner_wrong(old${args ? `, ${args}` : ''}):`,
    `    cond, state = learner_entry(old${args ? `, ${args}` : ''})`,
    `    state.current = z3.BitVecVal(${value}, dt.pid_t)`,
    '    return cond, state',
    '',
    '',
    `${handler} = learner_wrong`,
  ].join('\n');
}

/** The learner's answer to a conversation (its own earlier answers included). */
export function learnerAnswer(turns: readonly Turn[], seed = LEARNER_SEED): string {
  const firstUser = turns.find((t) => t.role === 'user');
  if (!firstUser) throw new Error('learner: no user message');
  const task = taskOfPrompt(firstUser.text);
  const round = turns.filter((t) => t.role === 'assistant').length;
  if (round === 0) return codeAnswer(wrongSpec(task.handler, 1));
  const previous = [...turns].reverse().find((t) => t.role === 'assistant')!.text;
  const last = turns[turns.length - 1];
  if (last.role !== 'user') throw new Error('learner: the conversation does not end with a user message');
  const fixed = codeAnswer(oracleSpec(task.handler)!);
  const feedback = feedbackOf(last.text);
  switch (feedback.kind) {
    case 'counterexample':
      return feedback.fields.includes('current') ? fixed : previous;
    case 'verdict':
      return fixesAfterVerdict(seed, task, round) ? fixed : previous;
    case 'none':
      return codeAnswer(wrongSpec(task.handler, round % 2 === 1 ? 2 : 1));
  }
}

/** The conversation of a request, in any of the fake's wire formats. */
export function turnsOf(req: ReceivedRequest): Turn[] {
  const body = req.body ?? {};
  const text = (c: unknown): string =>
    typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (typeof p === 'string' ? p : String(p?.text ?? ''))).join('') : '';
  if (req.wire === 'gemini') {
    const sys = (body.systemInstruction?.parts ?? []).map((p: { text?: string }) => p.text ?? '').join('');
    const turns: Turn[] = sys ? [{ role: 'system', text: sys }] : [];
    for (const c of body.contents ?? []) turns.push({ role: c.role === 'model' ? 'assistant' : 'user', text: text(c.parts) });
    return turns;
  }
  const turns: Turn[] = req.wire === 'anthropic' && body.system ? [{ role: 'system', text: text(body.system) }] : [];
  for (const m of body.messages ?? []) turns.push({ role: m.role, text: text(m.content) });
  return turns;
}

/** The learner as the fake provider's responder. */
export function learner(seed = LEARNER_SEED): Responder {
  return (req): FakeReply => ({ kind: 'text', text: learnerAnswer(turnsOf(req), seed) });
}
