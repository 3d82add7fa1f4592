/**
 * A small validator for the JSON files the harness reads (run files, a
 * published site's index and manifest): each check appends errors, naming
 * the JSON path ("$.attempts[3].response.usage.input"), and says nothing on
 * success. Files are validated by hand, field by field, so an error says
 * exactly what is wrong where.
 */

export interface ValidationError {
  readonly path: string;
  readonly message: string;
}

export type Validator = (v: unknown, path: string, errs: ValidationError[]) => void;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 30 ? v.slice(0, 30) + '...' : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

export const fail = (errs: ValidationError[], path: string, message: string) => void errs.push({ path, message });

export const string: Validator = (v, p, e) => (typeof v === 'string' ? undefined : fail(e, p, `expected a string, got ${describe(v)}`));
export const number: Validator = (v, p, e) => (typeof v === 'number' && Number.isFinite(v) ? undefined : fail(e, p, `expected a number, got ${describe(v)}`));
export const boolean: Validator = (v, p, e) => (typeof v === 'boolean' ? undefined : fail(e, p, `expected true or false, got ${describe(v)}`));
export const unknown: Validator = () => undefined;

export function count(min = 0): Validator {
  return (v, p, e) => (Number.isInteger(v) && (v as number) >= min ? undefined : fail(e, p, `expected an integer >= ${min}, got ${describe(v)}`));
}

export function hex64(): Validator {
  return (v, p, e) => (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v) ? undefined : fail(e, p, `expected a 64-digit lower-case hex hash, got ${describe(v)}`));
}

export function literal(...allowed: readonly (string | number)[]): Validator {
  return (v, p, e) => (allowed.includes(v as string) ? undefined : fail(e, p, `expected one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${describe(v)}`));
}

export function nullable(c: Validator): Validator {
  return (v, p, e) => (v === null ? undefined : c(v, p, e));
}

export function array(item: Validator): Validator {
  return (v, p, e) => {
    if (!Array.isArray(v)) return fail(e, p, `expected an array, got ${describe(v)}`);
    v.forEach((x, i) => item(x, `${p}[${i}]`, e));
  };
}

export function record(value: Validator): Validator {
  return (v, p, e) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return fail(e, p, `expected an object, got ${describe(v)}`);
    for (const [k, x] of Object.entries(v)) value(x, `${p}[${JSON.stringify(k)}]`, e);
  };
}

/** An object with required fields and optional ones (name ending in "?"); other fields are allowed. */
export function object(fields: Readonly<Record<string, Validator>>): Validator {
  return (v, p, e) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return fail(e, p, `expected an object, got ${describe(v)}`);
    const o = v as Record<string, unknown>;
    for (const [spec, check] of Object.entries(fields)) {
      const optional = spec.endsWith('?');
      const key = optional ? spec.slice(0, -1) : spec;
      if (o[key] === undefined) {
        if (!optional) fail(e, `${p}.${key}`, 'is missing');
        continue;
      }
      check(o[key], `${p}.${key}`, e);
    }
  };
}

/** `text` as JSON, or the error that says why it is not. */
export function parseJson(text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly errors: readonly ValidationError[] } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, errors: [{ path: '$', message: `not JSON: ${(e as Error).message}` }] };
  }
}

/** The error of a document whose `formatVersion` is above `supported` (one a newer OSVLab wrote), or undefined. */
export function newerVersion(value: unknown, supported: number): ValidationError | undefined {
  const v = value !== null && typeof value === 'object' ? (value as { formatVersion?: unknown }).formatVersion : undefined;
  return typeof v === 'number' && v > supported ? { path: '$.formatVersion', message: `version ${v} was written by a newer OSVLab; this one reads up to ${supported}` } : undefined;
}

/** Errors as lines for people: "$.path: message". */
export function formatValidationErrors(errors: readonly ValidationError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('\n');
}
