/**
 * Golden verification cases as files: each starts with an expectation line
 * (`# expect: refuted cond procs.nr_fds`, `// expect: verified`, ...). A case
 * file without one is refused.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export interface Case {
  readonly handler: string;
  readonly name: string;
  readonly path: string;
  readonly text: string;
  readonly expect: 'verified' | 'refuted';
  /** Obligations that must be among the failed ones. */
  readonly obligations: readonly string[];
}

const EXPECT = /^(?:#|\/\/)\s*expect:\s*(verified|refuted)((?:\s+[\w.#-]+)*)\s*$/m;

export function loadCases(dir: string, ext: string): Case[] {
  if (!existsSync(dir)) return [];
  const out: Case[] = [];
  for (const handler of readdirSync(dir).sort()) {
    for (const file of readdirSync(join(dir, handler)).sort()) {
      if (!file.endsWith(ext)) continue;
      const path = join(dir, handler, file);
      const text = readFileSync(path, 'utf8');
      const m = EXPECT.exec(text);
      if (!m) throw new Error(`${path}: no '# expect:' line; every case file must state its expectation`);
      out.push({
        handler,
        name: file,
        path,
        text,
        expect: m[1] as Case['expect'],
        obligations: m[2].trim() ? m[2].trim().split(/\s+/) : [],
      });
    }
  }
  return out;
}
