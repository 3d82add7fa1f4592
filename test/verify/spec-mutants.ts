/**
 * Mutants of an oracle spec for comparing refutation by running with the
 * solver's (test/verify/run-refute.test.ts, perf/run-refute.ts): the text
 * with one conjunct of its condition dropped (a line of `z3.And(` that ends
 * with a comma), one comparison turned around (`==` <-> `!=`), or a
 * counter moved the other way (`+= 1` <-> `-= 1`). A mutant may still be
 * equivalent to the oracle: only the solver says.
 */
export interface SpecMutant {
  readonly how: string;
  readonly text: string;
}

export function specMutants(text: string): SpecMutant[] {
  const lines = text.split('\n');
  const out: SpecMutant[] = [];
  const open = lines.findIndex((l) => /cond\s*=\s*z3\.And\($/.test(l.trim()) || /=\s*z3\.And\($/.test(l.trim()));
  if (open >= 0) {
    for (let i = open + 1; i < lines.length && !/^\s*\)\s*$/.test(lines[i]); i++) {
      const l = lines[i].trim();
      if (l.startsWith('#') || !l.endsWith(',') || /[([]\s*,?$/.test(l) || (l.match(/\(/g)?.length ?? 0) !== (l.match(/\)/g)?.length ?? 0)) continue;
      out.push({ how: `drop line ${i + 1}`, text: [...lines.slice(0, i), ...lines.slice(i + 1)].join('\n') });
    }
  }
  lines.forEach((l, i) => {
    const swap = l.includes('==') ? l.replace('==', '!=') : l.includes('!=') ? l.replace('!=', '==') : undefined;
    if (swap !== undefined && !l.trim().startsWith('#')) out.push({ how: `compare line ${i + 1}`, text: [...lines.slice(0, i), swap, ...lines.slice(i + 1)].join('\n') });
    const count = l.includes('+= 1') ? l.replace('+= 1', '-= 1') : l.includes('-= 1') ? l.replace('-= 1', '+= 1') : undefined;
    if (count !== undefined) out.push({ how: `count line ${i + 1}`, text: [...lines.slice(0, i), count, ...lines.slice(i + 1)].join('\n') });
  });
  return out;
}
