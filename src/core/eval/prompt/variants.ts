/** The prompt variants this build knows (a run's `config.prompt`); for-run.ts builds each. Light: the pages list it. */
export const PROMPT_VARIANTS: readonly string[] = ['standard'];
