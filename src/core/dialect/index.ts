/**
 * The hv6 spec dialect: parse, check and interpret state-machine specs
 * written in hv6's Python dialect, producing terms over the symbolic
 * abstract kernel state.
 */
export { parseSpec, runSpec, lintSpec, callSpecFunction, runModule, quantifierDiagnostic, newParseCache, type ParseCache } from './run.ts';
export { dialectCatalog } from './catalog.ts';
export type { CatalogEntry } from './catalog.ts';
export { SPEC_CODES, SpecError } from './errors.ts';
export { SPEC_WARNINGS } from './warnings.ts';
