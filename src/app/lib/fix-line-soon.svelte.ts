/**
 * Where the fix goes (fix-line.ts), once its code is here. It parses the spec
 * with the dialect's parser, which a share link's first verdict does not
 * need: on a phone its bytes would share the network with that verdict's
 * (docs/app.md, "Loading Z3"). A spec with a `\N{...}` escape also needs the
 * Unicode names, which load on demand (docs/design.md, "The worker's first
 * code"). The first reader asks for what is missing; until it is here a
 * refutation points at the verifier's own line, and readers see the better
 * line arrive (the module is reactive state).
 */
import { loadOnce } from '../../core/load-once.ts';
import type { Verdict } from '../../core/verify/verdict.ts';
import type { FixLine } from './fix-line-kind.ts';

type FixLineModule = typeof import('./fix-line.ts');

let loaded = $state.raw<FixLineModule | undefined>(undefined);
/** Counts the Unicode names' arrivals, so that a reader of a spec that needed them reads it again. */
let namesIn = $state(0);
const fixLineModule = loadOnce(() => import('./fix-line.ts').then((m) => (loaded = m)));

/** Loads fix-line.ts once, and the Unicode names when `spec` needs them; resolves when `fixLineSoon` reads `spec`. */
export async function loadFixLine(spec = ''): Promise<void> {
  const m = await fixLineModule();
  if (!m.fixLineCanRead(spec)) {
    await m.fixLineReady(spec);
    namesIn++;
  }
}

/** `fixLine(spec, handler, verdict)` once fix-line.ts (and the names `spec` needs) are here; undefined, and they are asked for, until then. */
export function fixLineSoon(spec: string, handler: string, verdict: Verdict): FixLine | undefined {
  void namesIn;
  if (!loaded || !loaded.fixLineCanRead(spec)) {
    loadFixLine(spec).catch(() => undefined);
    return undefined;
  }
  return loaded.fixLine(spec, handler, verdict);
}
