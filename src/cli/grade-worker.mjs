// Worker-thread entry for the grading pool: the compiled CLI's worker
// (compiled-cli.mjs), or the TypeScript through tsx.
import { compiledEntry } from './compiled-cli.mjs';

const compiled = await compiledEntry('grade-worker-impl');
if (compiled) await import(compiled);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./grade-worker-impl.ts');
}
