/**
 * What the verifier worker's first code (src/worker/verifier-core.ts and
 * everything it imports statically) and the page's lexer leave to a dynamic
 * `import()`: on a phone's network a share link's first verdict waits for
 * those bytes (docs/design.md, "The worker's first code"). A static import
 * of a module that is loaded on demand would bring it back, and Vite would
 * only warn; this bundles each entry with esbuild and reads its graph.
 */
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/** The source files in `entry`'s first code, and those only its dynamic imports load. */
async function graph(entry: string): Promise<{ first: Set<string>; later: Set<string> }> {
  const r = await esbuild.build({
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    write: false,
    metafile: true,
    outdir: join(ROOT, 'node_modules/.cache/worker-imports'),
    external: ['z3-solver', '*.wasm'],
    platform: 'browser',
    logLevel: 'silent',
  });
  const outputs = r.metafile.outputs;
  const start = Object.keys(outputs).find((o) => outputs[o].entryPoint === entry)!;
  const firstChunks = new Set<string>();
  const visit = (o: string) => {
    if (firstChunks.has(o)) return;
    firstChunks.add(o);
    for (const i of outputs[o].imports) if (i.kind === 'import-statement' && outputs[i.path]) visit(i.path);
  };
  visit(start);
  const first = new Set<string>();
  const later = new Set<string>();
  for (const [o, out] of Object.entries(outputs)) for (const input of Object.keys(out.inputs)) (firstChunks.has(o) ? first : later).add(input);
  return { first, later };
}

describe("the verifier worker's first code", () => {
  it('loads the Unicode name filter on demand', async () => {
    const { first, later } = await graph('src/worker/verifier-core.ts');
    expect(first).toContain('src/core/dialect/lexer.ts');
    expect(first).not.toContain('src/core/dialect/unicode-name-filter.ts');
    expect(later).toContain('src/core/dialect/unicode-name-filter.ts');
  });

  it("loads an agent's run tool on demand", async () => {
    const { first, later } = await graph('src/worker/verifier-core.ts');
    expect(first).not.toContain('src/core/eval/agent/run-tool.ts');
    expect(later).toContain('src/core/eval/agent/run-tool.ts');
  });

  it('has no task description: a verification reads none', async () => {
    const { first, later } = await graph('src/worker/verifier-core.ts');
    expect(first).toContain('tasks/hv6/bundle.json');
    expect([...first, ...later]).not.toContain('tasks/hv6/descriptions.json');
  });

  it("and the page's lexer loads the filter on demand too", async () => {
    const { first, later } = await graph('src/app/lib/fix-line.ts');
    expect(first).toContain('src/core/dialect/lexer.ts');
    expect(first).not.toContain('src/core/dialect/unicode-name-filter.ts');
    expect(later).toContain('src/core/dialect/unicode-name-filter.ts');
  });
});
