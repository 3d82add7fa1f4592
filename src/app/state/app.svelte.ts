/**
 * The playground's long-lived state, shared by pages so work survives
 * navigation. The other routes' states are in `route-states.svelte.ts`,
 * which only their pages import: the first route (the playground) does not
 * download them (docs/app.md, "First visit and repeat visits, measured").
 */
import { PlaygroundState } from './playground.svelte.ts';
import { verifier } from './verifier.svelte.ts';

export const playground = new PlaygroundState(verifier);
