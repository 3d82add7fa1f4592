/**
 * A scripted agent for the fake provider (docs/research.md, "The agent
 * mode"): it answers a request that offers tools as a model that debugs
 * with the verifier would, in whichever wire format the request came in.
 * Like the learner (learner.ts) it keeps no state: its move follows from the
 * conversation it is sent, so a resumed run and the response cache see the
 * same agent.
 *
 * - With no tool result yet, it calls `verify` with a draft that has a bug
 *   (the learner's wrong spec: `current` set to 1); with `parallel`, it also
 *   calls `verify` with the oracle spec in the same turn; with `run`, it
 *   first calls `run` with such a draft (`current` set to 7) on the
 *   handler's reachable case 0, then `verify` with the oracle spec.
 * - After a result that names the `current` cell, it calls `verify` with
 *   the oracle spec.
 * - After a result that says "Verified", or once it has two results, it
 *   answers with the oracle spec in a python block and no call.
 */
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { codeAnswer } from './answers.ts';
import { taskOfPrompt, wrongSpec } from './learner.ts';
import type { FakeReply, ReceivedRequest, Responder } from './server.ts';

/** The tool results of a conversation, in order, in any of the fake's wire formats. */
export function toolResultsOf(req: ReceivedRequest): string[] {
  const body = req.body ?? {};
  const out: string[] = [];
  if (req.wire === 'gemini') {
    for (const c of body.contents ?? []) for (const p of c.parts ?? []) if (p.functionResponse) out.push(String(p.functionResponse.response?.result ?? ''));
    return out;
  }
  for (const m of body.messages ?? []) {
    if (m.role === 'tool') out.push(String(m.content ?? ''));
    if (req.wire === 'anthropic' && Array.isArray(m.content)) for (const b of m.content) if (b?.type === 'tool_result') out.push(String(b.content ?? ''));
  }
  return out;
}

/** The first user message's text, in any wire format. */
function firstUserText(req: ReceivedRequest): string {
  const body = req.body ?? {};
  if (req.wire === 'gemini') return String(body.contents?.[0]?.parts?.[0]?.text ?? '');
  const m = (body.messages ?? []).find((x: { role: string }) => x.role === 'user');
  return typeof m?.content === 'string' ? m.content : String(m?.content?.[0]?.text ?? '');
}

/** The scripted agent's move for one request. */
export function agentMove(req: ReceivedRequest, opts: { readonly parallel?: boolean; readonly run?: boolean } = {}): FakeReply {
  const { handler } = taskOfPrompt(firstUserText(req));
  const oracle = oracleSpec(handler)!;
  const results = toolResultsOf(req);
  const last = results[results.length - 1];
  if (results.length >= 2 || (last !== undefined && last.startsWith('Verified'))) return { kind: 'text', text: codeAnswer(oracle) };
  if (last === undefined && opts.run) return { kind: 'tools', text: 'Let me run a first draft.', calls: [{ name: 'run', arguments: { spec: wrongSpec(handler, 7), case: 0 } }] };
  if (last === undefined) {
    const calls = [{ name: 'verify', arguments: { spec: wrongSpec(handler, 1) } }, ...(opts.parallel ? [{ name: 'verify', arguments: { spec: oracle } }] : [])];
    return { kind: 'tools', text: 'Let me check a first draft.', calls };
  }
  return { kind: 'tools', text: 'The counterexample shows the bug; checking the fix.', calls: [{ name: 'verify', arguments: { spec: oracle } }] };
}

/** The scripted agent as the fake provider's responder; a request without tools gets the oracle at once. */
export function scriptedAgent(opts: { readonly parallel?: boolean; readonly run?: boolean } = {}): Responder {
  return (req) => {
    const tools = req.body?.tools;
    if (!Array.isArray(tools) || tools.length === 0) return { kind: 'text', text: codeAnswer(oracleSpec(taskOfPrompt(firstUserText(req)).handler)!) };
    return agentMove(req, opts);
  };
}
