import { describe, expect, it } from 'vitest';
import { HANDLERS, requireHandler } from '../../src/core/kernel/handlers.ts';
import { oracleSpec } from '../../src/core/kernel/content.ts';
import { runSpec } from '../../src/core/dialect/index.ts';
import { bvConst } from '../../src/core/smt/term.ts';
import { VerifierCaches } from '../../src/core/verify/index.ts';
import { STORED_BANK, type StateBankFile, reachableCases } from '../../src/core/verify/state-bank.ts';

describe('the state bank (docs/lemmas.md, "Reusing what is known", 9)', () => {
  it('replays every committed case: each call on its path and the handler itself succeed (else rerun scripts/gen-state-bank.ts)', () => {
    const caches = new VerifierCaches();
    const handlers = Object.keys(STORED_BANK.handlers);
    // Every handler with an oracle but sys_map_pcipage (a PCI page belongs to a device only if boot says so, and the boot state has none).
    const missing = HANDLERS.filter((h) => oracleSpec(h.name) && !handlers.includes(h.name)).map((h) => h.name);
    expect(missing).toEqual(['sys_map_pcipage']);
    for (const h of handlers) {
      const cases = reachableCases(h, caches);
      expect(cases.length, h).toBe(STORED_BANK.handlers[h].length);
      const hd = requireHandler(h);
      for (const c of cases) {
        const run = runSpec(oracleSpec(h)!, h, c.state, hd.args.map((a, i) => bvConst(c.args[i], a.width)), { force: 'all' });
        expect(run.ok && run.cond.op === 'const' && run.cond.value, `${h} ${c.args.join(',')}`).toBe(true);
      }
    }
  });

  it('drops a case whose path no longer replays, and a file whose states do not come from earlier ones', () => {
    const caches = new VerifierCaches();
    // sys_kill of pid 0 (not a valid pid) does not succeed at boot.
    const file: StateBankFile = {
      made: 'test',
      states: [{ from: -1, handler: 'sys_kill', args: ['0x0'] }, { from: 1, handler: 'sys_kill', args: ['0x1'] }],
      handlers: { sys_kill: [{ state: 0, args: ['0x1'] }, { state: 1, args: ['0x1'] }, { state: -1, args: ['0x1'] }] },
    };
    const cases = reachableCases('sys_kill', caches, file);
    expect(cases.map((c) => c.args)).toEqual([[1n]]);
  });
});
