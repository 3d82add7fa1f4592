/** Building blocks for the spec texts of exercises: the usual imports and the oracle specs. */
import { oracleSpec } from '../../core/kernel/content.ts';

/** The imports every exercise spec starts with. */
export const HEADER = `import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid, is_pn_valid, is_intremap_valid
`;

/** A spec file: the imports, a blank line, then `body` (a def, without leading indentation). */
export function spec(body: string): string {
  return `${HEADER}\n\n${body.replace(/^\n+/, '').replace(/\s*$/, '')}\n`;
}

/** The reference spec of a handler (tasks/hv6/specs), used as the solution of many exercises. */
export function oracle(handler: string): string {
  const s = oracleSpec(handler);
  if (s === undefined) throw new Error(`no oracle spec for ${handler}`);
  return s;
}
