/**
 * The kernel C front end and symbolic executor (docs/c-subset.md):
 * preprocess -> lex -> parse -> check and link (`parseProgram`) -> run a
 * function symbolically over a functional memory (`execFunction`).
 */
export type * from './ast.ts';
export { declaredName, declaresFunction, joinSpans } from './ast.ts';
export type { CDiagnostic } from './errors.ts';
export { withDetail } from './errors.ts';
export { lex, type Token, type TokenKind, intLiteral } from './lexer.ts';
export { preprocess, type Macro, type PreprocessResult, type SourceFiles } from './preprocess.ts';
export { parse, parseExpression, type ParseResult } from './parser.ts';
export * from './types.ts';
export { Sema, type Binding, type EnumConst, type FunctionInfo, type GlobalVar, type LocalVar } from './check/sema.ts';
export { literalType } from './check/typing.ts';
export { parseProgram, functionSignature, type CProgram, type Override, type ParseProgramResult } from './program.ts';
export {
  type CMemory, type Leaf, type Ptr, type ObjPtr, type Step, IOTLBINV, TLBINV, freshMemory, globalAddress, memoryLeaves,
  leafSort, address,
} from './memory.ts';
export { HOOKS, isHook, type HookContext, type HookModel, type Val } from './hooks.ts';
export { execFunction, type ExecOptions, type ExecResult, type SafetyCondition, type SafetyKind } from './symex.ts';
export { printExpr, printStmt, printTypeName } from './print.ts';
