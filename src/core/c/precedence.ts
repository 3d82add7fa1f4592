/**
 * C's binary operators by precedence, loosest first (`||` is 1, `*` is 10):
 * the parser, the `#if` evaluator and the printer read the same table.
 * A `Map`, so that a token spelled like a JavaScript object property
 * (`constructor`) is no operator.
 */
export const BINARY_PRECEDENCE: ReadonlyMap<string, number> = new Map([
  ['||', 1], ['&&', 2], ['|', 3], ['^', 4], ['&', 5], ['==', 6], ['!=', 6],
  ['<', 7], ['>', 7], ['<=', 7], ['>=', 7], ['<<', 8], ['>>', 8], ['+', 9], ['-', 9], ['*', 10], ['/', 10], ['%', 10],
]);
