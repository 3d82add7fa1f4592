/** Spec text the dialect tests share: the imports a hand-written spec starts with. */

/** The imports every spec of hv6's dialect starts with. */
export const SPEC_IMPORTS = 'import z3\nfrom libirpy import util\nimport hv6py.kernel.spec.datatypes as dt\n';

/** The imports and the validity helpers most specs call. */
export const SPEC_HEADER = `${SPEC_IMPORTS}from hv6py.kernel.spec.helpers import is_pid_valid, is_fd_valid, is_fn_valid, is_pn_valid\n`;
