/**
 * A one-query refutation check for screening candidate mutations: do the
 * oracle spec and the mutated implementation disagree anywhere? The steps
 * and the obligations are verify()'s own (verify/driver.ts); this asks a
 * single solver query for a state that falsifies any of them, and stops
 * there. A satisfying state is replayed by our own evaluator before it
 * counts. The finished variants are then checked with `verify()` itself.
 */
import { type QuickVerdict, type VerifyEnv, buildSteps, refuteOnce } from '../verify/driver.ts';


export async function quickRefute(
  req: { readonly handler: string; readonly spec: string; readonly implSource: string; readonly timeoutMs?: number },
  env: VerifyEnv,
): Promise<QuickVerdict> {
  const steps = buildSteps(req, env);
  if (!steps.ok) return 'unknown';
  return refuteOnce(steps, env, req.timeoutMs ?? 60000);
}
