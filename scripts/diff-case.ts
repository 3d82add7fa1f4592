/**
 * Reproduces cases of the differential test (docs/differential.md):
 *
 *   npx tsx scripts/diff-case.ts <handler> <seed>[..<last>] [--state] [--impl FILE]
 *
 * Runs the cases of `handler` with those seeds through gcc and through our
 * executor, and prints the arguments, both outcomes and every disagreement.
 * --state also prints the initial state (every cell the case sets) and
 * gcc's changes. --impl links a C file over the kernel on our side only
 * (to see how a kernel change shows up).
 */
import { readFileSync } from 'node:fs';
import { cleanup, handlerIndex, report, runCases, setup } from '../test/diff/run.ts';

function main(): void {
  const argv = process.argv.slice(2);
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    argv.splice(i, 2);
    return v;
  };
  const impl = flag('--impl');
  const showState = argv.includes('--state');
  const pos = argv.filter((a) => !a.startsWith('--'));
  if (pos.length !== 2) {
    console.error('usage: npx tsx scripts/diff-case.ts <handler> <seed>[..<last>] [--state] [--impl FILE]');
    process.exit(2);
  }
  const [handler, range] = pos;
  const [first, last] = range.split('..').map(Number);
  const seeds = Array.from({ length: (last ?? first) - first + 1 }, (_, i) => first + i);
  const s = setup(impl ? [{ path: impl, text: readFileSync(impl, 'utf8') }] : []);
  const results = runCases(s, handlerIndex(handler), seeds);
  let bad = 0;
  for (const r of results) {
    const { c, native, outcome } = r;
    console.log(`${c.handler.name} seed ${c.seed}: ${outcome.kind}, ${c.state.count()} cells set, ${outcome.cells} cells compared`);
    console.log(`  args: ${c.handler.args.map((a, i) => `${a.name}=0x${c.args[i].toString(16)}`).join(' ')}`);
    if (c.broken) console.log(`  broken on purpose: ${c.broken}`);
    if (showState) {
      for (const [key, m] of c.state.cells) for (const [k, v] of m) console.log(`  S ${key}${k ? `[${k.split(',').join('][')}]` : ''} = 0x${v.toString(16)}`);
      console.log(`  gcc: ${native.status} ret 0x${native.ret.toString(16)}; tlb [${native.tlb.join(', ')}]; iotlb ${native.iotlb}`);
      for (const ch of native.changes) console.log(`  gcc changed ${s.layout.globals[ch.g].name}+${ch.off}: ${Buffer.from(ch.bytes).toString('hex')}`);
    }
    if (outcome.mismatches.length) {
      bad++;
      console.log(report(r, 1000));
    }
  }
  cleanup(s);
  console.log(bad ? `${bad} of ${results.length} cases disagree` : `all ${results.length} cases agree`);
  process.exitCode = bad ? 1 : 0;
}

main();
