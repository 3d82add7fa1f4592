/**
 * The reference-count lemmas (docs/hv6-model.md §5.5): each process counter, and each
 * file's reference count, equals the number of objects it owns. Each lemma is
 * a few facts linking process states to ownership plus the Refcnt check of
 * `refcnt.ts` with the lemma's owner function.
 */
import * as o from '../../smt/ops.ts';
import type { Term } from '../../smt/term.ts';
import type { Quantified } from '../../smt/quantified.ts';
import { ENUMS, NDMAPAGE, NOFILE, NPAGE, NPROC, NINTREMAP } from '../constants.ts';
import type { AbstractState } from '../state.ts';
import {
  D,
  type Domain,
  PS,
  fact,
  isDmapnValid,
  isFdValid,
  isFnValid,
  isIntremapValid,
  isPidValid,
  isPnValid,
  onFields,
  onPid,
  onStruct,
  rd,
  u64,
} from './helpers.ts';
import { refcntFacts } from './refcnt.ts';

const anything = (): Term => o.TRUE;
const isUnused = (s: AbstractState, p: Term) => o.eq(rd(s, 'procs.state', p), u64(PS.PROC_UNUSED));
const ZERO = u64(0);

/** A valid unused process has count 0 in `field`. */
function unusedZero(s: AbstractState, field: string, guarded = true): Quantified {
  return fact(
    `${field}.unused_zero`,
    guarded ? `an unused process has ${field} == 0` : `an unused process slot (any pid, no validity test) has ${field} == 0`,
    D.pid,
    onPid(s),
    ([p]) => o.implies(o.and(guarded ? isPidValid(p) : o.TRUE, isUnused(s, p)), o.eq(rd(s, `procs.${field}`, p), ZERO)),
  );
}

/** nr_pages counts the pages a process owns. */
export function nrPagesRefcnt(s: AbstractState): Quantified[] {
  return [
    unusedZero(s, 'nr_pages'),
    ...refcntFacts(s, {
      name: 'nr_pages',
      path: 'procs.nr_pages',
      isOwnerValid: isPidValid,
      isOwnedValid: [isPnValid],
      maxRefs: BigInt(NPAGE),
      ownership: { ownerfn: ([pn]) => rd(s, 'pages.owner', pn), triggers: onFields(s, ['pages.owner'], [0]) },
      objects: onFields(s, ['pages.owner', 'pages.type'], [0]),
    }),
  ];
}

/** nr_dmapages counts the DMA pages a process owns. */
export function nrDmapagesRefcnt(s: AbstractState): Quantified[] {
  return [
    fact('dmapage_owner_iff_used', 'a DMA page has a valid owner exactly when it is not FREE', D.dmapn, onStruct(s, 'dmapages'), ([d]) =>
      o.implies(
        isDmapnValid(d),
        o.eq(isPidValid(rd(s, 'dmapages.owner', d)), o.not(o.eq(rd(s, 'dmapages.type', d), u64(ENUMS.page_type.PAGE_TYPE_FREE)))),
      )),
    unusedZero(s, 'nr_dmapages'),
    ...refcntFacts(s, {
      name: 'nr_dmapages',
      path: 'procs.nr_dmapages',
      isOwnerValid: isPidValid,
      isOwnedValid: [isDmapnValid],
      maxRefs: BigInt(NDMAPAGE),
      ownership: { ownerfn: ([d]) => rd(s, 'dmapages.owner', d), triggers: onStruct(s, 'dmapages') },
    }),
  ];
}

/** nr_children counts the processes whose parent a process is. */
export function nrChildrenRefcnt(s: AbstractState): Quantified[] {
  const pidT = onPid(s);
  const ppid = (p: Term) => rd(s, 'procs.ppid', p);
  return [
    fact('nr_children.parent_iff_used', 'a process has a valid parent exactly when it is not UNUSED', D.pid, pidT, ([p]) =>
      o.implies(isPidValid(p), o.eq(isPidValid(ppid(p)), o.not(isUnused(s, p))))),
    fact('nr_children.unused_no_parent', 'an unused process has no valid parent (one-way copy of the above)', D.pid, pidT, ([p]) =>
      o.implies(o.and(isPidValid(p), isUnused(s, p)), o.not(isPidValid(ppid(p))))),
    unusedZero(s, 'nr_children'),
    fact('nr_children.unused_ppid_zero', 'an unused process has parent 0', D.pid, pidT, ([p]) =>
      o.implies(o.and(isPidValid(p), isUnused(s, p)), o.eq(ppid(p), ZERO))),
    ...refcntFacts(s, {
      name: 'nr_children',
      path: 'procs.nr_children',
      isOwnerValid: isPidValid,
      isOwnedValid: [isPidValid],
      maxRefs: BigInt(NPROC - 1),
      ownership: { ownerfn: ([c]) => ppid(c), triggers: onFields(s, ['procs.ppid'], [0]) },
      objects: onFields(s, ['procs.ppid', 'procs.state'], [0]),
    }),
  ];
}

/** nr_fds counts the fd slots of a process that hold a valid file. */
export function nrFdsRefcnt(s: AbstractState): Quantified[] {
  const ofileT = onFields(s, ['procs.ofile'], [0, 1]);
  const holdsFile = (p: Term, fd: Term) => isFnValid(rd(s, 'procs.ofile', p, fd));
  return [
    unusedZero(s, 'nr_fds'),
    fact('nr_fds.unused_no_files', 'an unused process holds no valid file in any fd', D.pidFd, ofileT, ([p, fd]) =>
      o.implies(o.and(isPidValid(p), isFdValid(fd), isUnused(s, p)), o.not(holdsFile(p, fd)))),
    fact('nr_fds.files_imply_used', 'a process holding a valid file is not UNUSED', D.pidFd, ofileT, ([p, fd]) =>
      o.implies(o.and(isPidValid(p), isFdValid(fd), holdsFile(p, fd)), o.not(isUnused(s, p)))),
    ...refcntFacts(s, {
      name: 'nr_fds',
      path: 'procs.nr_fds',
      isOwnerValid: isPidValid,
      isOwnedValid: [isFdValid],
      maxRefs: BigInt(NOFILE),
      ownership: { ownedby: (p, [fd]) => holdsFile(p, fd), triggers: ofileT },
    }),
  ];
}

/** A resource owned through a plain owner map, with every index valid (devices, ports). */
function ownerMapRefcnt(s: AbstractState, field: string, struct: string, domain: Domain, maxRefs: bigint, what: string): Quantified[] {
  const owner = (x: Term) => rd(s, `${struct}.owner`, x);
  const structT = onStruct(s, struct);
  return [
    fact(`${field}.owner_not_unused`, `the valid owner of a ${what} is not an UNUSED process`, domain, structT, ([x]) =>
      o.implies(isPidValid(owner(x)), o.not(isUnused(s, owner(x))))),
    unusedZero(s, field, false),
    ...refcntFacts(s, {
      name: field,
      path: `procs.${field}`,
      isOwnerValid: isPidValid,
      isOwnedValid: [anything],
      maxRefs,
      ownership: { ownerfn: ([x]) => owner(x), triggers: structT },
    }),
  ];
}

/** nr_devs counts the PCI devices a process owns. */
export function nrDevsRefcnt(s: AbstractState): Quantified[] {
  return ownerMapRefcnt(s, 'nr_devs', 'pci', D.devid, 1n << 16n, 'device');
}

/** nr_ports counts the I/O ports a process owns. */
export function nrPortsRefcnt(s: AbstractState): Quantified[] {
  return ownerMapRefcnt(s, 'nr_ports', 'io', D.port, 1n << 16n, 'port');
}

/** nr_vectors counts the interrupt vectors a process owns. */
export function nrVectorsRefcnt(s: AbstractState): Quantified[] {
  return refcntFacts(s, {
    name: 'nr_vectors',
    path: 'procs.nr_vectors',
    isOwnerValid: isPidValid,
    isOwnedValid: [anything],
    maxRefs: 1n << 8n,
    ownership: { ownerfn: ([v]) => rd(s, 'vectors.owner', v), triggers: onStruct(s, 'vectors') },
  });
}

/** nr_intremaps counts the active remapping entries whose device a process owns. */
export function nrIntremapsRefcnt(s: AbstractState): Quantified[] {
  const active = (i: Term) => o.eq(rd(s, 'intremaps.state', i), u64(ENUMS.intremap_state.IR_ACTIVE));
  const devOwner = (i: Term) => rd(s, 'pci.owner', rd(s, 'intremaps.devid', i));
  const irT = onStruct(s, 'intremaps');
  return [
    fact('nr_intremaps.active_owned', "an active entry's device has a valid owner", D.intremap, irT, ([i]) =>
      o.implies(o.and(isIntremapValid(i), active(i)), isPidValid(devOwner(i)))),
    fact('nr_intremaps.active_vector_matches', "an active entry's device and vector have the same owner", D.intremap, irT, ([i]) =>
      o.implies(o.and(isIntremapValid(i), active(i)), o.eq(devOwner(i), rd(s, 'vectors.owner', rd(s, 'intremaps.vector', i))))),
    ...refcntFacts(s, {
      name: 'nr_intremaps',
      path: 'procs.nr_intremaps',
      isOwnerValid: isPidValid,
      isOwnedValid: [isIntremapValid],
      maxRefs: BigInt(NINTREMAP),
      ownership: { ownerfn: ([i]) => o.ite(active(i), devOwner(i), ZERO), triggers: irT },
    }),
  ];
}

/** A file's refcnt counts the (pid, fd) slots that hold it. */
export function filesRefcnt(s: AbstractState): Quantified[] {
  return refcntFacts(s, {
    name: 'files',
    path: 'files.refcnt',
    isOwnerValid: isFnValid,
    isOwnedValid: [isPidValid, isFdValid],
    maxRefs: BigInt((NPROC - 1) * NOFILE),
    ownership: { ownerfn: ([p, fd]) => rd(s, 'procs.ofile', p, fd), triggers: onFields(s, ['procs.ofile'], [0, 1]) },
  });
}
