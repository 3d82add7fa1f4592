// Worker-thread entry for the grading pool: TypeScript via tsx, then the real worker.
import { register } from 'tsx/esm/api';

register();
await import('./grade-worker-impl.ts');
