/**
 * The 50 verified hv6 handlers (docs/hv6-model.md §7.1), in the verifier's
 * order: the C function name, the spec function's name(s), and the arguments
 * with their spec sorts. The C parameters have the same order.
 */
import type { Diagnostic } from '../diagnostic.ts';
import { SORTS } from './constants.ts';

export interface HandlerArg {
  /** Parameter name in the spec function. */
  readonly name: string;
  /** The `dt` sort name ("pid_t", "fd_t", ...). */
  readonly sort: string;
  /** Its width (all handler arguments are bit-vectors). */
  readonly width: number;
}

export interface HandlerInfo {
  /** The C function the verifier calls, and the name a spec may define. */
  readonly name: string;
  /** The hv6 spec function name when it differs (clone_proc = sys_clone). */
  readonly alias?: string;
  readonly args: readonly HandlerArg[];
  /** Part of OSVBench's 49 (all but sys_set_proc_name). */
  readonly inBenchmark: boolean;
}

function h(name: string, args: string, alias?: string): HandlerInfo {
  const parsed = args
    ? args.split(',').map((a) => {
        const [n, sort] = a.trim().split(':');
        return { name: n, sort, width: SORTS[sort] };
      })
    : [];
  return { name, alias, args: parsed, inBenchmark: name !== 'sys_set_proc_name' };
}

const MAP = 'pid:pid_t, frm:pn_t, index:size_t, n:size_t, perm:pte_t';
const ALLOC = 'pid:pid_t, frm:pn_t, index:size_t, to:pn_t, perm:pte_t';
const FREE = 'frm:pn_t, index:size_t, to:pn_t';
const IOMMU = 'frm:pn_t, index:size_t, to:pn_t, perm:dmar_pte_t';

export const HANDLERS: readonly HandlerInfo[] = [
  h('sys_map_pml4', 'pid:pid_t, index:size_t, perm:pte_t'),
  h('sys_map_page_desc', MAP),
  h('sys_map_proc', MAP),
  h('sys_map_dev', MAP),
  h('sys_map_file', MAP),
  h('sys_alloc_pdpt', ALLOC),
  h('sys_alloc_pd', ALLOC),
  h('sys_alloc_pt', ALLOC),
  h('sys_alloc_frame', ALLOC),
  h('sys_copy_frame', 'frm:pn_t, pid:pid_t, to:pn_t'),
  h('sys_protect_frame', 'pt:pn_t, index:size_t, frame:pn_t, perm:pte_t'),
  h('sys_free_pdpt', FREE),
  h('sys_free_pd', FREE),
  h('sys_free_pt', FREE),
  h('sys_free_frame', FREE),
  h('sys_reclaim_page', 'pn:pn_t'),
  h('clone_proc', 'pid:pid_t, pml4:pn_t, stack:pn_t, hvm:pn_t', 'sys_clone'),
  h('sys_set_proc_name', 'name0:uint64_t, name1:uint64_t'),
  h('sys_set_runnable', 'pid:pid_t'),
  h('switch_proc', 'pid:pid_t', 'sys_switch'),
  h('sys_kill', 'pid:pid_t'),
  h('sys_reap', 'pid:pid_t'),
  h('sys_reparent', 'pid:pid_t'),
  h('send_proc', 'pid:pid_t, val:uint64_t, pn:pn_t, size:size_t, fd:fd_t', 'sys_send'),
  h('recv_proc', 'pid:pid_t, pn:pn_t, fd:fd_t', 'sys_recv'),
  h('reply_wait_proc', 'pid:pid_t, val:uint64_t, inpn:pn_t, size:size_t, infd:fd_t, outpn:pn_t', 'sys_reply_wait'),
  h('call_proc', 'pid:pid_t, val:uint64_t, inpn:pn_t, size:size_t, outpn:pn_t, outfd:fd_t', 'sys_call'),
  h('sys_create', 'fd:fd_t, fn:fn_t, type:uint64_t, value:uint64_t, omode:uint64_t'),
  h('sys_close', 'pid:pid_t, fd:fd_t'),
  h('sys_dup', 'oldfd:fd_t, pid:pid_t, newfd:fd_t'),
  h('sys_dup2', 'oldfd:fd_t, pid:pid_t, newfd:fd_t'),
  h('sys_lseek', 'fd:fd_t, offset:off_t'),
  h('sys_map_pcipage', 'pt:pn_t, index:size_t, pcipn:pn_t, perm:pte_t'),
  h('sys_alloc_iommu_root', 'devid:devid_t, pn:pn_t'),
  h('sys_alloc_iommu_pdpt', IOMMU),
  h('sys_alloc_iommu_pd', IOMMU),
  h('sys_alloc_iommu_pt', IOMMU),
  h('sys_alloc_iommu_frame', IOMMU),
  h('sys_map_iommu_frame', 'pt:pn_t, index:size_t, to:dmapn_t, perm:pte_t'),
  h('sys_reclaim_iommu_frame', 'dmapn:dmapn_t'),
  h('sys_reclaim_iommu_root', 'devid:devid_t'),
  h('sys_alloc_vector', 'vector:uint8_t'),
  h('sys_reclaim_vector', 'vector:uint8_t'),
  h('sys_alloc_intremap', 'index:size_t, devid:devid_t, vector:uint8_t'),
  h('sys_reclaim_intremap', 'index:size_t'),
  h('sys_ack_intr', 'vector:uint8_t'),
  h('sys_alloc_io_bitmap', 'pn1:pn_t, pn2:pn_t, pn3:pn_t'),
  h('sys_alloc_port', 'port:uint16_t'),
  h('sys_reclaim_port', 'port:uint16_t'),
  h('extintr', 'vector:uint8_t'),
];

const byName = new Map<string, HandlerInfo>();
for (const x of HANDLERS) {
  byName.set(x.name, x);
  if (x.alias) byName.set(x.alias, x);
}

/** Looks a handler up by its C name or its spec alias. */
export function findHandler(name: string): HandlerInfo | undefined {
  return byName.get(name);
}

/**
 * The code of an unknown handler name, wherever a name is looked up (the
 * CLI, the verifier, the dialect's runSpec/lintSpec, the prompt builder):
 * a bad verifier request, not the spec's fault (docs/spec-errors.md).
 */
const UNKNOWN_HANDLER = 'SPEC030';

/** A handler name that is neither a C name nor a spec alias of one of the 50 handlers. */
export class UnknownHandlerError extends Error {
  readonly code = UNKNOWN_HANDLER;

  constructor(readonly handler: string) {
    super(`unknown handler '${handler}'`);
    this.name = 'UnknownHandlerError';
  }

  /** A request names no place in a text, so there is no span. */
  toDiagnostic(): Diagnostic<undefined> {
    return { code: this.code, severity: 'error', message: this.message, span: undefined };
  }
}

/** `findHandler`, for callers that cannot go on without one: throws UnknownHandlerError. */
export function requireHandler(name: string): HandlerInfo {
  const h = findHandler(name);
  if (!h) throw new UnknownHandlerError(name);
  return h;
}

/** The names a spec may use for the entry function of `handler`, in lookup order. */
export function entryNames(handler: HandlerInfo): string[] {
  return handler.alias ? [handler.name, handler.alias] : [handler.name];
}
