import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
# uses: free_page_table_page


def sys_free_pt(old, frm, index, to):
    # Unhook a X86_PT page from the X86_PD entry that maps it, and free it.
    return free_page_table_page(old, frm, index, to,
                                dt.page_type.PAGE_TYPE_X86_PD,
                                dt.page_type.PAGE_TYPE_X86_PT)
