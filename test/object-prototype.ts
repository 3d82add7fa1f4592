/**
 * The property names every plain JavaScript object inherits (`constructor`,
 * `toString`, `__proto__`, `hasOwnProperty`, ...). A table looked up with
 * `table[name]` finds them for any name a user writes, so each lookup of a
 * user's word (a C keyword, a spec name, a CLI command) is tested against
 * every one of them. Taken from the runtime, so a name a newer Node adds is
 * tested too.
 */
export const OBJECT_PROTOTYPE_NAMES: readonly string[] = Object.getOwnPropertyNames(Object.prototype).sort();
