/**
 * Remembers verdicts within one grader (a worker). A run grades the same spec
 * text for the same handler again and again: the same answer to the five
 * variants of a handler (grades are always taken against the correct
 * kernel), repeated samples, a repair that changed nothing. Verification is
 * deterministic in (handler, spec, implementation, timeout, kernel), so the
 * second time is a lookup. Failures to verify (thrown errors) are not kept.
 */
import type { KernelContent } from '../../kernel/content.ts';
import { type TimedVerdict, type VerifyEnv, type VerifyRequest, verify, verifyStatus } from '../../verify/index.ts';
import type { VerdictStatus } from '../../verify/verdict.ts';

const DEFAULT_CAPACITY = 512;

export class GradeMemo {
  private readonly verdicts = new Map<string, Promise<TimedVerdict>>();
  private readonly stricts = new Map<string, Promise<boolean>>();
  private readonly statuses = new Map<string, Promise<VerdictStatus>>();
  hits = 0;
  misses = 0;

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** `verify(req, env)`, once per distinct request. */
  verify(req: VerifyRequest, env: VerifyEnv): Promise<TimedVerdict> {
    return this.remember(this.verdicts, requestKey(req, env), () => verify(req, env));
  }

  /** The status of `verify(req, env)`: from its verdict if remembered, else `verifyStatus`, once per distinct request. */
  status(req: VerifyRequest, env: VerifyEnv): Promise<VerdictStatus> {
    const key = requestKey(req, env);
    const verdict = this.verdicts.get(key);
    if (verdict) return verdict.then((v) => v.status);
    return this.remember(this.statuses, key, () => verifyStatus(req, env));
  }

  /** The strict check of `spec` for `handler`, once per distinct pair. */
  strict(handler: string, spec: string, check: (handler: string, spec: string) => Promise<boolean>): Promise<boolean> {
    return this.remember(this.stricts, `${handler}\0${spec}`, () => check(handler, spec));
  }

  private remember<T>(map: Map<string, Promise<T>>, key: string, compute: () => Promise<T>): Promise<T> {
    const hit = map.get(key);
    if (hit) {
      this.hits++;
      // Refresh its place: the map's order is the eviction order.
      map.delete(key);
      map.set(key, hit);
      return hit;
    }
    this.misses++;
    const p = compute();
    map.set(key, p);
    p.catch(() => map.delete(key));
    while (map.size > this.capacity) map.delete(map.keys().next().value!);
    return p;
  }
}

/** What a verification depends on besides the verifier itself. */
function requestKey(req: VerifyRequest, env: VerifyEnv): string {
  return [req.handler, req.spec, req.implSource ?? '', req.timeoutMs ?? '', req.strict ? 1 : 0, req.run === false ? 0 : 1, kernelKey(env.kernel)].join('\0');
}

const kernelIds = new WeakMap<KernelContent, number>();
let nextKernelId = 1;

/** The default kernel is 0; any other kernel object gets its own number. */
function kernelKey(kernel: KernelContent | undefined): number {
  if (!kernel) return 0;
  let id = kernelIds.get(kernel);
  if (id === undefined) kernelIds.set(kernel, (id = nextKernelId++));
  return id;
}
