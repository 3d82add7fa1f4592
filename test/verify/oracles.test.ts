import { describe, expect, it } from 'vitest';
import { nodeEnv } from '../../src/z3/node.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { HANDLERS } from '../../src/core/kernel/handlers.ts';
import { verify } from '../../src/core/verify/index.ts';

describe('every oracle spec refines the kernel', () => {
  for (const h of HANDLERS) {
    it(h.name, async () => {
      const spec = oracleSpec(h.name);
      expect(spec, `no oracle for ${h.name}`).toBeDefined();
      const v = await verify({ handler: h.name, spec: spec! }, await nodeEnv());
      const failed = v.status === 'refuted' ? v.failed.join(', ') : '';
      expect(v.status, `${h.name}: ${v.status} ${failed} ${v.status === 'spec-error' ? v.error.message : ''}`).toBe('verified');
    });
  }
});
