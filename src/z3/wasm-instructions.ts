/**
 * Steps over WebAssembly instructions, as our build steps read Z3's code
 * (docs/app.md, "Z3's invoke trampolines" and "Z3's memory"): the MVP
 * instructions and those of the exception-handling, threads, bulk-memory,
 * reference-types, sign-extension and multivalue proposals that Emscripten
 * emits. An instruction it does not know is a `WasmFormatError`, so a build
 * that uses one is left as it ships rather than misread.
 *
 * While it steps, it names the immediates a rewrite may re-encode: a direct
 * call's function index, a global index, `call_indirect`'s type and table
 * indices (unsigned LEB128) and `i32.const`'s value (signed LEB128).
 */
import { Reader, WasmFormatError } from './wasm-binary.ts';

export const I32 = 0x7f;
export const I64 = 0x7e;
export const F32 = 0x7d;
export const F64 = 0x7c;
const VALUE_TYPES = new Set([I32, I64, F32, F64, 0x7b, 0x70, 0x6f]);

/** What an immediate `stepInstruction` names is: a direct call's callee, another unsigned index, or an `i32.const`'s signed value. */
export type Immediate = 'callee' | 'index' | 'i32';

/** Called with each named immediate's kind and offset, before the immediate is read. */
export type ImmediateSeen = (kind: Immediate, at: number) => void;

/** Steps over a block type: empty, one value type, or a type index (signed LEB128). */
function skipBlockType(r: Reader): void {
  const b = r.bytes[r.at];
  if (b === 0x40 || VALUE_TYPES.has(b)) r.at++;
  else r.skipLeb(33);
}

/** Steps over a memory immediate: alignment (bit 6: a memory index follows) and offset. */
function skipMemArg(r: Reader): void {
  const align = r.uleb();
  if (align & 0x40) r.uleb();
  r.skipLeb(64);
}

/** The 0xfc prefix: saturating truncations, bulk memory and table instructions. */
function skipMiscInstruction(r: Reader, sub: number): void {
  const immediates = [0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1][sub];
  if (immediates === undefined) throw new WasmFormatError(`unknown instruction 0xfc ${sub}`, r.at - 1);
  for (let i = 0; i < immediates; i++) r.uleb();
}

const noted = (r: Reader, kind: Immediate, seen: ImmediateSeen | undefined) => seen?.(kind, r.at);

/** Steps over one instruction, telling `seen` where its named immediates are. */
export function stepInstruction(r: Reader, seen?: ImmediateSeen): void {
  const op = r.byte();
  if (op >= 0x45 && op <= 0xc4) return; // numeric instructions, sign extension
  if (op >= 0x28 && op <= 0x3e) {
    skipMemArg(r);
    return;
  }
  switch (op) {
    case 0x00: // unreachable
    case 0x01: // nop
    case 0x05: // else
    case 0x0b: // end
    case 0x0f: // return
    case 0x19: // catch_all
    case 0x1a: // drop
    case 0x1b: // select
    case 0xd1: // ref.is_null
      return;
    case 0x02: // block
    case 0x03: // loop
    case 0x04: // if
    case 0x06: // try
      skipBlockType(r);
      return;
    case 0x10: // call
    case 0x12: // return_call
      noted(r, 'callee', seen);
      r.uleb();
      return;
    case 0x11: // call_indirect
    case 0x13: // return_call_indirect
      noted(r, 'index', seen);
      r.uleb();
      noted(r, 'index', seen);
      r.uleb();
      return;
    case 0x23: // global.get
    case 0x24: // global.set
      noted(r, 'index', seen);
      r.uleb();
      return;
    case 0x07: // catch
    case 0x08: // throw
    case 0x09: // rethrow
    case 0x18: // delegate
    case 0x0c: // br
    case 0x0d: // br_if
    case 0x20: // local.get
    case 0x21: // local.set
    case 0x22: // local.tee
    case 0x25: // table.get
    case 0x26: // table.set
    case 0x3f: // memory.size
    case 0x40: // memory.grow
    case 0xd2: // ref.func
      r.uleb();
      return;
    case 0x0e: // br_table
      for (let n = r.uleb() + 1; n > 0; n--) r.uleb();
      return;
    case 0x1c: // select with types
      r.skip(r.uleb());
      return;
    case 0x41: // i32.const
      noted(r, 'i32', seen);
      r.skipLeb(32);
      return;
    case 0x42: // i64.const
      r.skipLeb(64);
      return;
    case 0x43: // f32.const
      r.skip(4);
      return;
    case 0x44: // f64.const
      r.skip(8);
      return;
    case 0xd0: // ref.null
      r.skipLeb(33);
      return;
    case 0xfc:
      skipMiscInstruction(r, r.uleb());
      return;
    case 0xfe: {
      const sub = r.uleb();
      if (sub === 0x03) r.byte(); // atomic.fence
      else if (sub <= 0x02 || (sub >= 0x10 && sub <= 0x4e)) skipMemArg(r);
      else throw new WasmFormatError(`unknown atomic instruction 0xfe ${sub}`, r.at - 1);
      return;
    }
    default:
      throw new WasmFormatError(`unknown instruction 0x${op.toString(16)}`, r.at - 1);
  }
}

/** Steps over a function body's local declarations (after its size), to its first instruction. */
export function skipLocals(r: Reader): void {
  for (let groups = r.uleb(); groups > 0; groups--) {
    r.uleb();
    r.byte();
  }
}
