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

/** Pids of the processes below `rootPid`, from /proc (Linux). */
function descendants(rootPid: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent pid is the 2nd field after the command, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const out: number[] = [];
  const frontier = [rootPid];
  while (frontier.length) {
    const p = frontier.pop()!;
    for (const [child, ppid] of parent) {
      if (ppid === p) {
        out.push(child);
        frontier.push(child);
      }
    }
  }
  return out;
}

function isRenderer(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--type=renderer');
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
    let pids: number[] = [];
    let n = 0;
    while (running) {
      // Look for new renderers every few periods (walking /proc costs a few ms).
      if (n++ % 5 === 0) pids = descendants(rootPid).filter(isRenderer);
      const t0 = performance.now();
      for (const pid of stopped) signal(pid, 'SIGCONT');
      stopped.clear();
      await sleep(periodMs / rate);
      const t1 = performance.now();
      if (!running) break;
      for (const pid of pids) if (signal(pid, 'SIGSTOP')) stopped.add(pid);
      await sleep(periodMs - periodMs / rate);
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
