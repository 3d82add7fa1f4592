/**
 * The kernel C front end and symbolic executor (docs/c-subset.md):
 * preprocess -> lex -> parse -> check and link (`parseProgram`) -> run a
 * function symbolically over a functional memory (`execFunction`).
 */
export type * from './ast.ts';
export { declaredName, declaresFunction } from './ast.ts';
export type { CDiagnostic } from './errors.ts';
export { lex, intLiteral } from './lexer.ts';
export { preprocess, type Macro } from './preprocess.ts';
export { parse, parseExpression } from './parser.ts';
export * from './types.ts';
export type { FunctionInfo } from './check/sema.ts';
export { parseProgram, functionSignature, type CProgram, type Override } from './program.ts';
export { type CMemory, IOTLBINV, TLBINV, addressFacts, freshMemory, memoryLeaves } from './memory.ts';
export { isHook } from './hooks.ts';
export { execFunction, type ExecResult, type SafetyCondition } from './symex.ts';
export { printExpr, printStmt } from './print.ts';
