/**
 * Grades the OSVBench-style answers of test/dialect/osvbench-answers.ts, bare
 * and with import lines, and prints the count of each grade category
 * ("internal" when grading threw), next to what upstream grading gives.
 * Used to compare the interpreter before and after a change: run it in
 * both trees. Run: npx tsx perf/spec-answers.ts
 */
import { nodeEnv } from '../src/z3/node.ts';
import { gradeResponse, handlerOnlyTask } from '../src/core/eval/grade/grade.ts';
import { ANSWERS, withImports } from '../test/dialect/osvbench-answers.ts';

async function main(): Promise<void> {
  const env = await nodeEnv();
  const counts = { bare: {} as Record<string, number>, imports: {} as Record<string, number>, upstream: {} as Record<string, number> };
  const bump = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
  let agree = 0;
  for (const a of ANSWERS) {
    bump(counts.upstream, a.expect);
    const row: string[] = [a.id.padEnd(24), a.expect.padEnd(9)];
    for (const [label, text] of [['bare', a.code], ['imports', withImports(a.code)]] as const) {
      let cat: string;
      try {
        const g = await gradeResponse(handlerOnlyTask(a.handler), text, env);
        cat = g.category;
        if (g.verdict?.status === 'spec-error') cat += ` (${g.verdict.error.code})`;
      } catch (e) {
        cat = `internal (${(e instanceof Error ? e.message : String(e)).slice(0, 40)})`;
      }
      bump(counts[label], cat.split(' ')[0]);
      if (label === 'bare' && cat.split(' ')[0] === a.expect) agree++;
      row.push(cat.padEnd(20));
    }
    console.log(row.join(' '));
  }
  console.log(`\nupstream: ${JSON.stringify(counts.upstream)}`);
  console.log(`bare:     ${JSON.stringify(counts.bare)}`);
  console.log(`imports:  ${JSON.stringify(counts.imports)}`);
  console.log(`bare answers graded as upstream grades them: ${agree}/${ANSWERS.length}`);
  process.exit(0);
}

void main();
