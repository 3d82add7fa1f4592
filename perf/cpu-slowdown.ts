/**
 * A CPU slowdown for a browser's renderer processes, workers included, for
 * perf/app-load.ts's mobile profile. Chromium's own emulation
 * (`Emulation.setCPUThrottlingRate`) slows a page's main thread only: its
 * dedicated workers run at full speed, and the protocol refuses the command
 * on a worker's own target ("Operation is only supported for pages, not
 * workers", Chromium 156, flattened or not). The verifier's work runs in
 * workers, so that profile was not a slow phone.
 *
 * This does what a CPU-starved device does to every thread alike: the
 * renderers run for 1/rate of each period and are stopped (SIGSTOP) for the
 * rest, then continued (SIGCONT). A renderer is a process below `rootPid` (the
 * browser this script launched) whose command line has `--type=renderer`;
 * new ones (a navigation to another site) are found on each period. The
 * browser and its network and GPU processes are not slowed, as a phone's
 * network stack is not part of its CPU emulation in Lighthouse either.
 * Processes are only ever continued at the end: `stop()` continues them all.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of the processes below `rootPid`, from each thread's /proc children list (Linux; cheap enough for every period). */
function descendants(rootPid: number): number[] {
  const out: number[] = [];
  const frontier = [rootPid];
  while (frontier.length) {
    const p = frontier.pop()!;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      continue; // it ended
    }
    for (const t of tasks) {
      let children = '';
      try {
        children = readFileSync(`/proc/${p}/task/${t}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const c of children.split(' ')) {
        if (!c.trim()) continue;
        out.push(Number(c));
        frontier.push(Number(c));
      }
    }
  }
  return out;
}

function isRenderer(pid: number): boolean {
  try {
    // A zygote's child sets its title: one string with spaces rather than arguments apart.
    return /(^|[\0 ])--type=renderer([\0 ]|$)/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface CpuSlowdown {
  /** The share of wall time the renderers actually ran, measured over the slowdown so far (1/rate if the timers kept time). */
  runShare(): number;
  stop(): Promise<void>;
}

/**
 * Slows the renderers below `rootPid` by `rate` (4: they run a quarter of
 * each `periodMs`) until `stop()`. `rate` 1 does nothing.
 */
export function slowRenderers(rootPid: number, rate: number, periodMs = 40): CpuSlowdown {
  let running = rate > 1;
  let ran = 0;
  let total = 0;
  const stopped = new Set<number>();
  const signal = (pid: number, sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
      return true;
    } catch {
      return false; // it ended
    }
  };
  // A renderer left stopped would hang the browser's close: continue them on any exit.
  const onExit = () => {
    for (const pid of stopped) signal(pid, 'SIGCONT');
  };
  process.on('exit', onExit);
  const loop = (async () => {
    const renderers = new Map<number, boolean>();
    while (running) {
      // New renderers (a navigation to another site) are slowed from the next period on.
      const pids = descendants(rootPid).filter((pid) => {
        if (!renderers.has(pid)) renderers.set(pid, isRenderer(pid));
        return renderers.get(pid);
      });
      const t0 = performance.now();
      for (const pid of stopped) signal(pid, 'SIGCONT');
      stopped.clear();
      await sleep(periodMs / rate);
      const t1 = performance.now();
      if (!running) break;
      for (const pid of pids) if (signal(pid, 'SIGSTOP')) stopped.add(pid);
      // Stopped (rate - 1) times as long as they ran, however late this process's timers fire on a busy machine.
      await sleep((t1 - t0) * (rate - 1));
      const t2 = performance.now();
      ran += t1 - t0;
      total += t2 - t0;
    }
    onExit();
    stopped.clear();
    process.off('exit', onExit);
  })();
  return {
    runShare: () => (total ? ran / total : 1),
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
