/**
 * The per-gap measure of the agent loop's overhead, shared by the CLI's
 * benchmark (perf/agent-overhead.ts) and the page's (perf/agent-overhead-page.ts)
 * so the two compare like for like: between two turns of one trajectory, the
 * time from one turn's end to the next's (a turn's `at` is taken once its tool
 * calls are answered) less the later request's latency and its tool calls as
 * the loop saw them.
 */
import { interpolated } from '../src/core/quantile.ts';

/** A stored turn, as much of it as the measure reads. */
export interface TimedTurn {
  readonly at: number;
  readonly response: { readonly latencyMs: number };
  readonly results: readonly { readonly name: string; readonly ms: number }[];
}

interface Gap {
  /** The gap's time less the later request's latency and its tool calls. */
  readonly overhead: number;
  /** The later turn's tool calls, as the loop saw them. */
  readonly tools: number;
}

/** The gaps between consecutive turns of each trajectory. */
export function gapsOf(trajectories: readonly (readonly TimedTurn[])[]): Gap[] {
  return trajectories.flatMap((t) =>
    t.slice(1).map((x, i) => {
      const tools = x.results.reduce((m, r) => m + r.ms, 0);
      return { overhead: x.at - t[i].at - x.response.latencyMs - tools, tools };
    }),
  );
}

/** The median (the mean of the middle two for an even count); NaN when empty. */
export function median(xs: readonly number[]): number {
  return interpolated([...xs].sort((a, b) => a - b), 0.5);
}
