import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
# uses: free_page_table_page


def sys_free_frame(old, frm, index, to):
    # Unhook a FRAME page from the X86_PT entry that maps it, and free it.
    return free_page_table_page(old, frm, index, to,
                                dt.page_type.PAGE_TYPE_X86_PT,
                                dt.page_type.PAGE_TYPE_FRAME)
