/**
 * How the app words a counterexample: return values with their errno names,
 * the pre-state facts ("Where:") in the spec's names rather than the C
 * globals that back them, and a sentence for a failure of the condition
 * alone (which has no state cell to show). Presentation only: the verdict's
 * data is the core's (src/core/verify/counterexample.ts).
 */
import { ERRNO } from '../../core/kernel/constants.ts';
import { backing } from '../../core/kernel/equiv.ts';
import { ALL_FIELDS, type FieldSchema } from '../../core/kernel/schema.ts';
import { BOOL } from '../../core/smt/term.ts';
import type { Counterexample } from '../../core/verify/verdict.ts';

const ERRNO_NAME = new Map<number, string>(Object.entries(ERRNO).map(([name, n]) => [n, name]));

/** A return value as a kernel engineer reads it: `-EINVAL` for -22, `0` for success, the number otherwise. */
export function returnText(ret: string): string {
  const n = Number(ret);
  if (!Number.isInteger(n) || n >= 0) return ret;
  const name = ERRNO_NAME.get(-n);
  return name ? `-${name}` : ret;
}

/** The same, with the number beside a name: `-EINVAL (-22)`. */
export function returnWithNumber(ret: string): string {
  const t = returnText(ret);
  return t === ret ? ret : `${t} (${ret})`;
}

/** C memory key ("proc_table.ppid") -> the abstract field it backs. */
const FIELD_OF_KEY = new Map<string, FieldSchema>();
for (const f of ALL_FIELDS) {
  const b = backing(f.path);
  if (b && !b.key.startsWith('&') && !b.key.startsWith('#') && !FIELD_OF_KEY.has(b.key)) FIELD_OF_KEY.set(b.key, f);
}

const FACT = /^([A-Za-z_][\w.]*)(?:\[(.*)\])? = (.*)$/;

/**
 * One pre-state fact in the spec's terms: `proc_table.ppid[2] = 1` becomes
 * `procs.ppid[pid=2] = 1`, as the state table names cells; a Bool field backed
 * by a C flag shows True/False. Facts about no known field are kept as they are.
 */
export function specFact(fact: string): string {
  const m = FACT.exec(fact);
  if (!m) return fact;
  const [, key, idx, value] = m;
  const field = FIELD_OF_KEY.get(key);
  if (!field) return fact;
  const shown = field.value === BOOL && /^\d+$/.test(value) ? (value === '0' ? 'False' : 'True') : value;
  if (idx === undefined) return `${field.path} = ${shown}`;
  const parts = idx.split(', ');
  const named = parts.map((p, i) => (field.indexNames[i] ? `${field.indexNames[i]}=${p}` : p)).join(', ');
  return `${field.path}[${named}] = ${shown}`;
}

/**
 * The counterexample's state itself shows the condition and the return value
 * disagree (cond is not `ret == 0`); a refutation can fail cond and a field,
 * and the state shown may be one where only the field differs.
 */
export function showsCondition(cex: Counterexample): boolean {
  if (cex.specCond === null) return false;
  const ret = Number(cex.implRet);
  return Number.isInteger(ret) && cex.specCond !== (ret === 0);
}

/**
 * What a failure of the condition says, in one sentence, for a state that
 * `showsCondition`: the spec allows a call the implementation refuses, or
 * refuses one it carries out, with the arguments that show it.
 */
export function conditionText(cex: Counterexample): string {
  const args = cex.args.map((a) => `${a.name}=${a.value}`).join(', ') || 'no arguments';
  const ret = returnWithNumber(cex.implRet);
  if (cex.specCond) {
    return `With ${args}, the spec's condition is True (the call succeeds) but the implementation refuses it with ${ret}: the condition misses a check the implementation makes.`;
  }
  return `With ${args}, the spec's condition is False (the call fails) but the implementation carries it out and returns ${ret}: the condition refuses a call it should allow.`;
}
