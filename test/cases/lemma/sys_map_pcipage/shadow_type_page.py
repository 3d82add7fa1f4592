# expect: verified
# expect: lemma-fail isolation
# ghost mistake: the PCI page is shadowed as a RAM page
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pn_valid, is_pcipn_valid


def sys_map_pcipage(old, pt, index, pcipn, perm):
    cur = old.current

    cond = z3.And(
        # the page-table page is a RAM page number
        is_pn_valid(pt),
        # of the last level
        old.pages[pt].type == dt.page_type.PAGE_TYPE_X86_PT,
        # owned by the caller
        old.pages[pt].owner == cur,
        # the entry index is inside the table
        z3.ULT(index, 512),
        # pcipn is a page number inside the PCI hole
        is_pcipn_valid(pcipn),
        # that belongs to some device
        old.pcipages[pcipn].valid,
        # and that device is owned by the caller
        old.pci[old.pcipages[pcipn].owner].owner == cur,
        # perm only uses bits a user may set
        perm & (dt.MAX_INT64 ^ dt.PTE_PERM_MASK) == z3.BitVecVal(0, dt.pte_t),
        # perm makes the entry present
        perm & dt.PTE_P != z3.BitVecVal(0, dt.pte_t),
        # the entry is not present yet
        old.pages[pt].data(index) & dt.PTE_P == z3.BitVecVal(0, dt.pte_t),
    )

    new = old.copy()

    new.pages[pt].data[index] = (
        (z3.UDiv(util.i64(dt.PCI_START), util.i64(dt.PAGE_SIZE)) + pcipn) << dt.PTE_PFN_SHIFT) | perm
    new.pages[pt].pgtable_pn[index] = pcipn
    new.pages[pt].pgtable_perm[index] = perm
    new.pages[pt].pgtable_type[index] = dt.PGTYPE_PAGE

    new.flush_tlb(cur)

    return cond, util.If(cond, new, old)
