import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
# uses: alloc_page_table


def sys_alloc_pd(old, pid, frm, index, to, perm):
    # The new table level (X86_PD) hangs below an entry of a X86_PDPT page.
    return alloc_page_table(old, pid, frm, index, to, perm,
                            dt.page_type.PAGE_TYPE_X86_PDPT,
                            dt.page_type.PAGE_TYPE_X86_PD)
