/**
 * What an agent run measures beyond its final answers' pass@k
 * (docs/research.md, "The agent mode"): how trajectories ended, the share of
 * (task, sample) trajectories solved within t turns (the agent's curve,
 * shown beside the repair curve), tool calls per trajectory by tool and the
 * errors among them, and tokens and cost per pass. Counted over finished
 * trajectories (round-0 attempts with a grade the model is charged with).
 */
import type { AttemptRecord, TrajectoryEnd } from '../run/run-types.ts';
import { outcomeOf } from './outcome.ts';
import { pct } from './table.ts';

export interface AgentMetrics {
  /** Finished trajectories counted. */
  readonly trajectories: number;
  readonly ends: Readonly<Record<TrajectoryEnd, number>>;
  /** Mean model turns per trajectory. */
  readonly meanTurns: number;
  /** Share solved (final answer passes) within t turns, for t = 1 .. the longest trajectory. */
  readonly solvedWithin: readonly { readonly turns: number; readonly share: number }[];
  /** Mean tool calls per trajectory, by tool name (unknown names included as the model sent them). */
  readonly callsPerTask: Readonly<Record<string, number>>;
  /** Tool calls answered with an error, by code (AGENT0xx). */
  readonly callErrors: Readonly<Record<string, number>>;
  /** Tokens (input + output) and USD of all trajectories per passing one; null without a pass (or, for cost, a price). */
  readonly tokensPerPass: number | null;
  readonly costPerPass: number | null;
}

/** The agent metrics of `attempts`, or undefined when none holds a trajectory. */
export function agentMetrics(attempts: readonly AttemptRecord[]): AgentMetrics | undefined {
  const done = attempts.filter((a) => a.round === 0 && a.trajectory?.end !== undefined && outcomeOf(a) !== undefined);
  if (done.length === 0) return undefined;
  const ends: Record<TrajectoryEnd, number> = { answered: 0, submitted: 0, 'turns-exhausted': 0 };
  const calls: Record<string, number> = {};
  const errors: Record<string, number> = {};
  let turns = 0;
  let tokens = 0;
  let cost: number | null = 0;
  let passes = 0;
  const passTurns: number[] = [];
  for (const a of done) {
    const t = a.trajectory!;
    ends[t.end!]++;
    turns += t.turns.length;
    for (const turn of t.turns) {
      for (const c of turn.response.toolCalls ?? []) calls[c.name] = (calls[c.name] ?? 0) + 1;
      for (const r of turn.results) if (r.error) errors[r.error] = (errors[r.error] ?? 0) + 1;
    }
    tokens += (a.response?.usage.input ?? 0) + (a.response?.usage.output ?? 0);
    cost = cost === null || a.cost === null ? null : cost + a.cost;
    if (outcomeOf(a) === 'pass') {
      passes++;
      passTurns.push(t.turns.length);
    }
  }
  const longest = Math.max(...done.map((a) => a.trajectory!.turns.length));
  const solvedWithin = Array.from({ length: longest }, (_, i) => ({ turns: i + 1, share: passTurns.filter((n) => n <= i + 1).length / done.length }));
  const perTask = Object.fromEntries(Object.entries(calls).sort().map(([k, v]) => [k, v / done.length]));
  return {
    trajectories: done.length,
    ends,
    meanTurns: turns / done.length,
    solvedWithin,
    callsPerTask: perTask,
    callErrors: errors,
    tokensPerPass: passes > 0 ? tokens / passes : null,
    costPerPass: passes > 0 && cost !== null ? cost / passes : null,
  };
}

/** The agent figures as `report` and a study's report print them (docs/research.md, "The agent mode"): how trajectories ended, the solved-within-t curve, tool calls, cost per pass. */
export function agentMetricsLines(a: AgentMetrics): string[] {
  const calls = Object.entries(a.callsPerTask).map(([k, v]) => `${k} ${v.toFixed(2)}`).join('  ') || 'none';
  const errors = Object.entries(a.callErrors).map(([k, v]) => `${k} ${v}`).join('  ');
  return [
    `agent: ${a.trajectories} trajectories, ${a.meanTurns.toFixed(2)} turns each on average; answered ${a.ends.answered}, submitted ${a.ends.submitted}, turns exhausted ${a.ends['turns-exhausted']}`,
    `  solved within t turns: ${a.solvedWithin.map((s) => `${s.turns}: ${pct(s.share)}`).join('  ')}`,
    `  tool calls per task: ${calls}${errors ? `   errors: ${errors}` : ''}`,
    `  per pass: ${a.tokensPerPass === null ? '-' : `${Math.round(a.tokensPerPass)} tokens`}, ${a.costPerPass === null ? '-' : `$${a.costPerPass.toFixed(4)}`}`,
  ];
}
