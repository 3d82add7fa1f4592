/**
 * Where the fix goes (fix-line.ts), once its code is here. It parses the spec
 * with the dialect's parser, which a share link's first verdict does not
 * need: on a phone its bytes would share the network with that verdict's
 * (docs/app.md, "Loading Z3"). The first reader asks for it; until it is
 * here a refutation points at the verifier's own line, and readers see the
 * better line arrive (the module is reactive state).
 */
import type { Verdict } from '../../core/verify/verdict.ts';
import type { FixLine } from './fix-line.ts';

type FixLineModule = typeof import('./fix-line.ts');

let loaded = $state.raw<FixLineModule | undefined>(undefined);
let loading: Promise<FixLineModule> | undefined;

/** Loads fix-line.ts once; resolves when `fixLineSoon` answers from it. */
export function loadFixLine(): Promise<FixLineModule> {
  loading ??= import('./fix-line.ts').then((m) => (loaded = m));
  loading.catch(() => (loading = undefined));
  return loading;
}

/** `fixLine(spec, handler, verdict)` once fix-line.ts is here; undefined (and it is asked for) until then. */
export function fixLineSoon(spec: string, handler: string, verdict: Verdict): FixLine | undefined {
  if (!loaded) {
    loadFixLine().catch(() => undefined);
    return undefined;
  }
  return loaded.fixLine(spec, handler, verdict);
}
