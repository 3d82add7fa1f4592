/**
 * The kernel's content (C sources, oracle specs and their helpers) from the
 * generated bundle `tasks/hv6/bundle.json` (`npm run bundle` rebuilds it; a
 * test checks it is current). One JSON import works in Node, Vite and workers.
 * The functional descriptions, which no verification reads, are in
 * descriptions.ts, out of the verifier worker's code (docs/design.md, "The
 * worker's first code").
 */
import bundle from '../../../tasks/hv6/bundle.json';

export interface KernelContent {
  readonly kernelHash: string;
  /** path -> text, for `#include` resolution. */
  readonly files: ReadonlyMap<string, string>;
  /** The translation units to link. */
  readonly units: readonly string[];
  readonly specs: Readonly<Record<string, string>>;
  readonly shared: Readonly<Record<string, string>>;
}

export const KERNEL: KernelContent = {
  kernelHash: bundle.kernelHash,
  files: new Map(Object.entries(bundle.kernel.files as Record<string, string>)),
  units: bundle.kernel.units,
  specs: bundle.specs as Record<string, string>,
  shared: bundle.shared as Record<string, string>,
};

/**
 * The entry of a content table under `key`, own keys only: a handler named
 * `constructor` or `__proto__` has no spec, not Object's.
 */
export function contentEntry(table: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

const USES = /^#\s*uses:\s*(.+)$/gm;

/**
 * Resolves `# uses: name` lines by appending the shared helper definitions
 * after the text (appending keeps the spec's own line numbers unchanged;
 * Python resolves names at call time, so order does not matter).
 */
export function resolveUses(text: string, shared: Readonly<Record<string, string>> = KERNEL.shared): string {
  const names = new Set<string>();
  for (const m of text.matchAll(USES)) for (const n of m[1].split(/[,\s]+/)) if (n) names.add(n);
  let out = text;
  for (const n of names) {
    const body = contentEntry(shared, n);
    if (body === undefined) throw new Error(`spec helper '${n}' not found in tasks/hv6/specs/_shared`);
    out += `\n\n# --- shared helper: ${n} ---\n${body}`;
  }
  return out;
}

/** The oracle spec of a handler, ready to run; undefined if there is none. */
export function oracleSpec(handler: string, content: KernelContent = KERNEL): string | undefined {
  const text = contentEntry(content.specs, handler);
  return text === undefined ? undefined : resolveUses(text, content.shared);
}
