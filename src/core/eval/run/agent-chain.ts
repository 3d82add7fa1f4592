/**
 * One (task, sample) of an agent run (docs/research.md, "The agent mode"):
 * the first prompt with the tools offered, then turn after turn, each a
 * request whose tool calls are answered by the verifier, until the model
 * answers without a call, calls `submit`, or runs out of turns. The
 * trajectory is stored after every turn in the chain's round-0 attempt, so a
 * run killed mid-trajectory resumes after its last stored turn; every turn's
 * request is keyed in the response cache by the conversation up to it, so
 * even a turn whose store write was lost is not asked again. The answer that
 * is graded is the last message without a call (its python block), a
 * submitted spec, or, when the turns ran out, the last spec the model sent
 * to a tool ("turns exhausted").
 */
import type { ChatMessage, CompletionRequest, Usage } from '../../llm/types.ts';

import type { Task } from '../../tasks/task.ts';
import { type ToolResult, fenced, specOfCall } from '../agent/tools.ts';
import { type AgentDeps, type RunLoop, gradeAttempt, promptHash, savePrompt, send, storedResponse } from './run-loop.ts';
import { type AgentTurn, type AttemptRecord, type StoredResponse, type TrajectoryEnd, attemptId } from './run-types.ts';
import { type ChainEnd, withAnswer } from './run-tally.ts';

/** The first prompt of an agent run: the task's prompt with the tools' paragraph after its last user message. */
function withInstruction(messages: readonly ChatMessage[], instruction: string): ChatMessage[] {
  const last = messages.map((m) => m.role).lastIndexOf('user');
  return messages.map((m, i) => (i === last ? { ...m, content: `${m.content.trimEnd()}\n\n${instruction}` } : m));
}

/** The messages a stored turn adds to the conversation: the assistant's turn and one tool message per call. */
function turnMessages(turn: AgentTurn): ChatMessage[] {
  const r = turn.response;
  const assistant: ChatMessage = {
    role: 'assistant',
    content: r.text,
    ...(r.toolCalls && r.toolCalls.length > 0 ? { toolCalls: r.toolCalls } : {}),
    ...(r.replay !== undefined ? { replay: r.replay } : {}),
  };
  return [assistant, ...turn.results.map((x): ChatMessage => ({ role: 'tool', content: x.text, toolCallId: x.callId, toolName: x.name }))];
}

/** The last spec the model sent in a tool call (its own text, as it wrote it), if any. */
function lastSpecSent(turns: readonly AgentTurn[]): string | undefined {
  for (let t = turns.length - 1; t >= 0; t--) {
    const calls = turns[t].response.toolCalls ?? [];
    for (let c = calls.length - 1; c >= 0; c--) {
      const read = specOfCall(calls[c]);
      if ('spec' in read) return read.spec;
    }
  }
  return undefined;
}

/** The text that is graded, and how the trajectory ended. */
function finalAnswer(turns: readonly AgentTurn[], exhausted: boolean): { text: string; end: TrajectoryEnd } {
  const last = turns[turns.length - 1];
  const calls = last?.response.toolCalls ?? [];
  if (!exhausted && last && calls.length === 0) return { text: last.response.text, end: 'answered' };
  const submitted = last?.results.find((r) => r.name === 'submit' && r.error === undefined);
  if (!exhausted && submitted) {
    const call = calls.find((c) => c.id === submitted.callId);
    const read = call ? specOfCall(call) : undefined;
    if (read && 'spec' in read) return { text: fenced(read.spec), end: 'submitted' };
  }
  const spec = lastSpecSent(turns);
  return { text: spec !== undefined ? fenced(spec) : (last?.response.text ?? ''), end: 'turns-exhausted' };
}

/** The attempt's response: the graded text, with every turn's tokens and time summed. */
function summed(turns: readonly AgentTurn[], text: string): StoredResponse {
  const last = turns[turns.length - 1].response;
  const usage: { -readonly [K in keyof Usage]: Usage[K] } = { input: 0, output: 0 };
  let latencyMs = 0;
  for (const t of turns) {
    usage.input += t.response.usage.input;
    usage.output += t.response.usage.output;
    if (t.response.usage.reasoning !== undefined) usage.reasoning = (usage.reasoning ?? 0) + t.response.usage.reasoning;
    if (t.response.usage.unknown) usage.unknown = true;
    latencyMs += t.response.latencyMs;
  }
  return { text, model: last.model, usage, finishReason: last.finishReason, ...(last.rawFinishReason !== undefined ? { rawFinishReason: last.rawFinishReason } : {}), latencyMs };
}

function sumCost(turns: readonly AgentTurn[]): number | null {
  let total = 0;
  for (const t of turns) {
    if (t.cost === null) return null;
    total += t.cost;
  }
  return total;
}

/** Runs (or continues) one agent trajectory and grades its answer. */
export async function agentChain(loop: RunLoop, task: Task, sample: number): Promise<ChainEnd> {
  const { cfg, deps, now, runId } = loop;
  const agent = deps.agent;
  const settings = cfg.agent;
  if (!agent || !settings) throw new Error(`run "${runId}" is an agent run, but the runner was given no tools`);
  const built = await deps.buildPrompt(task, cfg.shots);
  const first = withInstruction(built.messages, agent.instruction);
  const hash = await promptHash(undefined, first);
  await savePrompt(loop, { hash, messages: first, ...(built.meta ? { meta: built.meta } : {}) });
  const id = attemptId(runId, task.id, sample, 0);
  const base = {
    id,
    runId,
    taskId: task.id,
    sample,
    round: 0,
    promptHash: hash,
    request: { provider: cfg.provider, baseUrl: cfg.baseUrl, model: cfg.model, params: cfg.params, sample },
  };
  let worked = false;
  let a = loop.attempts.get(id);

  if (!a?.response) {
    const turns: AgentTurn[] = [...(a?.trajectory?.turns ?? [])];
    const messages: ChatMessage[] = [...first, ...turns.flatMap(turnMessages)];
    let calls = turns.reduce((n, t) => n + (t.response.toolCalls?.length ?? 0), 0);
    let ended = turns.length > 0 && finalAnswer(turns, false).end !== 'turns-exhausted';
    while (!ended && turns.length < settings.maxTurns) {
      const round = turns.length;
      const request: CompletionRequest = { model: cfg.model, messages: [...messages], ...cfg.params, sample, tools: agent.tools };
      const sent = await send(loop, { id, task, sample, round }, request);
      if (sent === 'stopped') return { kind: 'stopped' };
      worked = true;
      if ('failed' in sent) {
        await deps.store.putAttempt({ ...base, cacheKey: sent.cacheKey, error: sent.failed.toJSON(), cost: null, createdAt: now(), trajectory: { turns } });
        return sent.failed.fatal ? { kind: 'stopped' } : { kind: 'error' };
      }
      const c = sent.result.completion;
      const results: ToolResult[] = [];
      for (const call of c.toolCalls ?? []) {
        calls++;
        const release = await loop.gradeSlots.acquire(loop.stop.signal).catch(() => undefined);
        if (!release) return { kind: 'stopped' };
        try {
          results.push(await agent.answer(task, call, calls > settings.maxCalls, loop.stop.signal));
        } finally {
          release();
        }
        if (loop.stop.signal.aborted) return { kind: 'stopped' };
      }
      const turn: AgentTurn = {
        response: storedResponse(c),
        cacheKey: sent.result.cacheKey,
        ...(sent.result.cached ? { cached: true } : {}),
        cost: sent.cost,
        results,
        at: now(),
      };
      turns.push(turn);
      messages.push(...turnMessages(turn));
      await deps.store.putAttempt({ ...base, cacheKey: turn.cacheKey, cost: sumCost(turns), createdAt: now(), trajectory: { turns } });
      ended = finalAnswer(turns, false).end !== 'turns-exhausted';
    }
    const { text, end } = finalAnswer(turns, !ended);
    const done: AttemptRecord = {
      ...base,
      cacheKey: turns[turns.length - 1].cacheKey,
      response: summed(turns, text),
      ...(turns.every((t) => t.cached) ? { cached: true } : {}),
      cost: sumCost(turns),
      createdAt: now(),
      trajectory: { turns, end },
    };
    await deps.store.putAttempt(done);
    loop.tally = withAnswer(loop.tally, done);
    loop.attempts.set(id, done);
    a = done;
  }
  if (!a.grade || a.grade.category === 'internal') {
    const graded = await gradeAttempt(loop, { id, task, sample, round: 0 }, a);
    if (graded === 'stopped') return { kind: 'stopped' };
    worked = true;
    a = graded;
  }
  if (a.grade!.category === 'internal') return { kind: 'error' };
  return a.grade!.category === 'pass' ? { kind: 'finished', passedRound: 0, worked } : { kind: 'finished', worked };
}
