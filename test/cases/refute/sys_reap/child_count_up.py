# expect: refuted procs.nr_children
# mistake: the refcount moves in the wrong direction
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_pid_valid


def sys_reap(old, pid):
    zero = z3.BitVecVal(0, dt.size_t)

    cond = z3.And(
        # pid names a real process-table slot
        is_pid_valid(pid),
        # the caller is its parent
        old.procs[pid].ppid == old.current,
        # it has exited
        old.procs[pid].state == dt.proc_state.PROC_ZOMBIE,
        # it owns no device
        old.procs[pid].nr_devs() == zero,
        # it has no child left
        old.procs[pid].nr_children() == zero,
        # it holds no open file descriptor
        old.procs[pid].nr_fds() == zero,
        # it owns no RAM page
        old.procs[pid].nr_pages() == zero,
        # it owns no DMA page
        old.procs[pid].nr_dmapages() == zero,
        # it owns no I/O port
        old.procs[pid].nr_ports() == zero,
        # it owns no interrupt vector
        old.procs[pid].nr_vectors() == zero,
        # it owns no interrupt-remapping entry
        old.procs[pid].nr_intremaps() == zero,
    )

    new = old.copy()

    # The parent (the caller) loses the child.
    new.procs[old.current].nr_children[pid] += 1

    # The slot becomes free again.
    new.procs[pid].state = dt.proc_state.PROC_UNUSED
    new.procs[pid].ppid = z3.BitVecVal(0, dt.pid_t)
    new.procs[pid].page_table_root = z3.BitVecVal(0, dt.pn_t)
    new.procs[pid].stack = z3.BitVecVal(0, dt.pn_t)
    new.procs[pid].killed = z3.BoolVal(False)
    new.procs[pid].hvm = z3.BitVecVal(0, dt.pn_t)
    new.procs[pid].use_io_bitmap = z3.BoolVal(False)
    new.procs[pid].io_bitmap_a = z3.BitVecVal(0, dt.pn_t)
    new.procs[pid].io_bitmap_b = z3.BitVecVal(0, dt.pn_t)

    return cond, util.If(cond, new, old)
