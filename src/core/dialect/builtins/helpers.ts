/**
 * The `helpers` module: the validity predicates of docs/hv6-model.md §3 with
 * their exact signedness, and the page-table helpers used by invariants and
 * lemmas. Like upstream, the predicates compare against Python ints, so a
 * term of any width is accepted; a Python int argument is taken at the
 * predicate's nominal sort.
 */
import * as K from '../../kernel/constants.ts';
import * as o from '../../smt/ops.ts';
import { type Term, bvConst, fresh } from '../../smt/term.ts';
import type { Span } from '../../span.ts';
import { arity, argSpan, toBv } from '../coerce.ts';
import { typeError } from '../errors.ts';
import { stateAttr } from '../kernelstate.ts';
import type { KernelStateObj } from '../objects.ts';
import { describe, intOf, isPyInt, isTerm, termOf } from '../values.ts';
import { type Builtin, type CallSite, ModuleValue, type PyValue } from '../objects.ts';
import { termFn } from './define.ts';

const c = (v: bigint | number, w: number) => bvConst(BigInt(v), w);

/** The argument as a bit-vector; a Python int takes `width`. */
function arg(v: PyValue, width: number, span: Span, what: string): Term {
  if (isPyInt(v)) return c(intOf(v), width);
  return toBv(v, span, what);
}

function predicate(name: string, width: number, doc: string, body: (x: Term) => Term): Builtin {
  return termFn(`helpers.${name}`, `${name}(x)`, doc, (args, _kw, site) => {
    arity(site, name, args, 1);
    return body(arg(args[0], width, argSpan(site, 0), name));
  });
}

const PT_TYPES = ['PAGE_TYPE_X86_PML4', 'PAGE_TYPE_X86_PDPT', 'PAGE_TYPE_X86_PD', 'PAGE_TYPE_X86_PT'] as const;
const IOMMU_TYPES = ['PAGE_TYPE_IOMMU_PML4', 'PAGE_TYPE_IOMMU_PDPT', 'PAGE_TYPE_IOMMU_PD', 'PAGE_TYPE_IOMMU_PT'] as const;
const PT = K.ENUMS.page_type;
const LIVE = ['PROC_EMBRYO', 'PROC_RUNNABLE', 'PROC_RUNNING', 'PROC_SLEEPING'] as const;

function oneOf(x: Term, values: readonly bigint[]): Term {
  return o.or(...values.map((v) => o.eq(x, c(v, x.sort))));
}

/** If-chain t == k1 ? v1 : t == k2 ? v2 : ... : fresh. */
function chain(t: Term, pairs: ReadonlyArray<readonly [bigint, bigint]>, freshName: string): Term {
  let r = fresh(freshName, t.sort);
  for (let i = pairs.length - 1; i >= 0; i--) r = o.ite(o.eq(t, c(pairs[i][0], t.sort)), c(pairs[i][1], t.sort), r);
  return r;
}

function ksArg(v: PyValue, site: CallSite): KernelStateObj {
  if (typeof v === 'object' && v !== null && !isTerm(v) && v.kind === 'kstate') return v;
  throw typeError(argSpan(site, 0), `pgentry2pfn expects a KernelState first, got ${describe(v)}`);
}

let cached: ModuleValue | undefined;

export function helpersModule(): ModuleValue {
  if (cached) return cached;
  const entries: Builtin[] = [
    predicate('is_pid_valid', 64, 'pid >s 0 and pid <s NPROC (signed): 1 <= pid <= 63.', (x) =>
      o.and(o.sgt(x, c(0, x.sort)), o.slt(x, c(K.NPROC, x.sort))),
    ),
    predicate('is_pid_bounded', 64, 'pid <u NPROC (0 <= pid <= 63).', (x) => o.ult(x, c(K.NPROC, x.sort))),
    predicate('is_pn_valid', 64, 'A valid RAM page number: pn <u NPAGE (unsigned).', (x) => o.ult(x, c(K.NPAGE, x.sort))),
    predicate('is_dmapn_valid', 64, 'A valid DMA page number: dmapn <u NDMAPAGE (unsigned).', (x) => o.ult(x, c(K.NDMAPAGE, x.sort))),
    predicate('is_pcipn_valid', 64, 'pcipn <u NPCIPAGE (a range check only).', (x) => o.ult(x, c(K.NPCIPAGE, x.sort))),
    predicate('is_fn_valid', 64, 'fn >u 0 and fn <u NFILE (unsigned): 1 <= fn <= 127.', (x) =>
      o.and(o.ugt(x, c(0, x.sort)), o.ult(x, c(K.NFILE, x.sort))),
    ),
    predicate('is_fd_valid', 32, 'fd >=s 0 and fd <s NOFILE (signed 32-bit): 0 <= fd <= 15.', (x) =>
      o.and(o.sge(x, c(0, x.sort)), o.slt(x, c(K.NOFILE, x.sort))),
    ),
    predicate('is_intremap_valid', 64, 'A valid interrupt-remapping index: index <u NINTREMAP.', (x) => o.ult(x, c(K.NINTREMAP, x.sort))),
    predicate('is_page_table_type', 64, 'The type is one of the four x86 page-table types.', (x) => oneOf(x, PT_TYPES.map((t) => PT[t]))),
    predicate('is_iommu_page_table_type', 64, 'The type is one of the four IOMMU page-table types.', (x) =>
      oneOf(x, IOMMU_TYPES.map((t) => PT[t])),
    ),
    predicate('is_status_live', 64, 'The state is EMBRYO, RUNNABLE, RUNNING or SLEEPING.', (x) =>
      oneOf(x, LIVE.map((s) => K.ENUMS.proc_state[s])),
    ),
    termFn('helpers.is_va_valid', 'is_va_valid(va)', 'Every element of the list va is <u 512.', (args, _kw, site) => {
      arity(site, 'is_va_valid', args, 1);
      const va = args[0];
      if (!(typeof va === 'object' && va !== null && !isTerm(va) && (va.kind === 'list' || va.kind === 'tuple'))) {
        throw typeError(argSpan(site, 0), `is_va_valid expects a list, got ${describe(va)}`);
      }
      return o.and(...va.items.map((x) => {
        const t = arg(x, 64, site.span, 'is_va_valid');
        return o.ult(t, c(512, t.sort));
      }));
    }),
    predicate('get_sub_type', 64, 'The page type one level down (PML4->PDPT->PD->PT->FRAME); fresh for other types.', (x) =>
      chain(x, [
        [PT.PAGE_TYPE_X86_PML4, PT.PAGE_TYPE_X86_PDPT],
        [PT.PAGE_TYPE_X86_PDPT, PT.PAGE_TYPE_X86_PD],
        [PT.PAGE_TYPE_X86_PD, PT.PAGE_TYPE_X86_PT],
        [PT.PAGE_TYPE_X86_PT, PT.PAGE_TYPE_FRAME],
      ], 'sub_type'),
    ),
    predicate('get_iommu_sub_type', 64, 'The IOMMU page type one level down, ending in IOMMU_FRAME; fresh for other types.', (x) =>
      chain(x, [
        [PT.PAGE_TYPE_IOMMU_PML4, PT.PAGE_TYPE_IOMMU_PDPT],
        [PT.PAGE_TYPE_IOMMU_PDPT, PT.PAGE_TYPE_IOMMU_PD],
        [PT.PAGE_TYPE_IOMMU_PD, PT.PAGE_TYPE_IOMMU_PT],
        [PT.PAGE_TYPE_IOMMU_PT, PT.PAGE_TYPE_IOMMU_FRAME],
      ], 'iommu_sub_type'),
    ),
    termFn('helpers.pgentry2pfn', 'pgentry2pfn(ks, off, perm, type)', 'The page-table entry ((base/4096 + off) << 12) | perm, base chosen by the PGTYPE_* type.', (args, _kw, site) => {
      arity(site, 'pgentry2pfn', args, 4);
      const ks = ksArg(args[0], site);
      const off = arg(args[1], 64, argSpan(site, 1), 'pgentry2pfn');
      const perm = arg(args[2], 64, argSpan(site, 2), 'pgentry2pfn');
      const type = arg(args[3], 64, argSpan(site, 3), 'pgentry2pfn');
      const base = (name: string) => termOf(stateAttr(ks, name, site.span))!;
      const G = K.PGTYPE;
      const bases: Array<[bigint, Term]> = [
        [G.PGTYPE_PAGE, base('pages_ptr_to_int')],
        [G.PGTYPE_PROC, base('proc_table_ptr_to_int')],
        [G.PGTYPE_PAGE_DESC, base('page_desc_table_ptr_to_int')],
        [G.PGTYPE_FILE_TABLE, base('file_table_ptr_to_int')],
        [G.PGTYPE_DEVICES, base('devices_ptr_to_int')],
        [G.PGTYPE_IOMMU_FRAME, base('dmapages_ptr_to_int')],
        [G.PGTYPE_PCIPAGE, c(K.PCI_START, 64)],
      ];
      let b: Term = c(0, 64);
      for (let i = bases.length - 1; i >= 0; i--) b = o.ite(o.eq(type, c(bases[i][0], 64)), bases[i][1], b);
      const pfn = o.add(o.udiv(b, c(K.PAGE_SIZE, 64)), off);
      return o.bvor(o.shl(pfn, c(K.PTE.PTE_PFN_SHIFT, 64)), perm);
    }),
  ];
  cached = new ModuleValue('helpers', new Map(entries.map((b) => [b.name.slice('helpers.'.length), b])));
  return cached;
}
