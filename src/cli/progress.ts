/** A one-line progress bar on stderr (redrawn in place on a terminal, printed every few seconds otherwise). */
import type { RunProgress } from '../core/eval/run/runner.ts';
import { writeControl } from './visible-output.ts';

function duration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '--';
  const s = Math.round(ms / 1000);
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m` : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

function progressLine(p: RunProgress): string {
  const width = 24;
  const filled = p.total ? Math.round((p.done / p.total) * width) : 0;
  const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
  const tokens = `${((p.tokens.input + p.tokens.output) / 1000).toFixed(1)}k tok`;
  return `[${bar}] ${p.done}/${p.total}  pass ${p.passed}  ${tokens}  $${p.cost.toFixed(4)}  ETA ${duration(p.etaMs)}${p.errors ? `  unanswered ${p.errors}` : ''}${p.paused ? '  (paused)' : ''}`;
}

export function progressReporter(stream: NodeJS.WriteStream = process.stderr): { update(p: RunProgress): void; done(): void } {
  let last = 0;
  return {
    update(p) {
      if (stream.isTTY) {
        writeControl(stream, '\r', progressLine(p), '\x1b[K');
      } else if (Date.now() - last > 5000 || p.done === p.total) {
        last = Date.now();
        stream.write(`${progressLine(p)}\n`);
      }
    },
    done() {
      if (stream.isTTY) stream.write('\n');
    },
  };
}
