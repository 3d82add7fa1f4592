/**
 * The playground's long-lived state, shared by pages so work survives
 * navigation. The other routes' states are in `route-states.svelte.ts`,
 * which only their pages import: the first route (the playground) does not
 * download them (docs/app.md, "Loading Z3").
 */
import { PlaygroundState } from './playground.svelte.ts';
import { verifier } from './verifier.svelte.ts';

export const playground = new PlaygroundState(verifier);
