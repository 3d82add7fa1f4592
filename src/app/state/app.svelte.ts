/** The app's long-lived state objects, shared by pages so work survives navigation. */
import { PlaygroundState } from './playground.svelte.ts';
import { verifier } from './verifier.svelte.ts';

export const playground = new PlaygroundState(verifier);
