/**
 * The kernel's checked program as `npm run bundle` made it
 * (tasks/hv6/kernel-program.json, c/program-form.ts): read back in a few
 * milliseconds instead of parsed (about 0.2 s on this machine, 1 s on a slow
 * phone, most of it the JIT warming to the preprocessor, parser and checker:
 * docs/measurements.md, "The kernel's program made at build time"). It
 * stands only for the kernel it was made from: the same kernel hash (the
 * digest of the files' texts), units and file names. test/c/program-form.test.ts checks that it is what the
 * parse of today's kernel and front end gives.
 *
 * The form (240 kB, 26 kB with brotli) is loaded on demand
 * (`loadShippedForm`): imported from here it is a chunk of its own in the
 * site, which the page's own code (it imports the verifier's modules too)
 * never asks for. The verifier worker has it with its own code
 * (src/worker/verifier-core.ts) and loads it when first asked to verify
 * (service/serve.ts).
 */
import type { CProgram } from '../c/index.ts';
import { type ProgramForm, programFromForm } from '../c/program-form.ts';
import type { KernelContent } from './content.ts';

/** What tasks/hv6/kernel-program.json holds. */
export interface ShippedProgram {
  readonly kernelHash: string;
  readonly units: readonly string[];
  /** The files the form was made from: their texts must be the content's. */
  readonly files: readonly string[];
  readonly form: ProgramForm;
}

let loaded: Promise<ShippedProgram | undefined> | undefined;
let shipped: ShippedProgram | undefined;

/**
 * Loads the shipped form, once: what `shippedProgram` reads from then on
 * (undefined if it cannot be loaded). `given` is the form where the caller
 * has it already (the page's verifier worker imports it with its own code,
 * src/worker/verifier-core.ts); otherwise it is imported here.
 */
export function loadShippedForm(given?: () => Promise<ShippedProgram>): Promise<ShippedProgram | undefined> {
  loaded ??= (given ? given() : import('../../../tasks/hv6/kernel-program.json').then((m) => m.default as ShippedProgram)).then(
    (f) => (shipped = f),
    () => undefined,
  );
  return loaded;
}

/**
 * The program of `content` with no override, from its shipped form (`form`,
 * or the one `loadShippedForm` loaded); undefined before that form is here,
 * or when it was made from another kernel (or another front end's version of
 * it: then a test fails until `npm run bundle` makes it again).
 */
export function shippedProgram(content: KernelContent, form: ShippedProgram | undefined = shipped): CProgram | undefined {
  if (!form || form.kernelHash !== content.kernelHash) return undefined;
  if (form.units.length !== content.units.length || form.units.some((u, i) => content.units[i] !== u)) return undefined;
  if (form.files.length !== content.files.size || form.files.some((f) => !content.files.has(f))) return undefined;
  return programFromForm(form.form, content.files);
}
