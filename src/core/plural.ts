/**
 * A count with its noun in the right number, the one way every front end
 * writes it: "1 task", "5 tasks", "1 repair round", "0 answers". `many` is
 * for nouns whose plural is not the singular plus "s".
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
