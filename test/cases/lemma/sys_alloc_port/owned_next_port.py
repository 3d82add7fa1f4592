# expect: verified
# expect: lemma-fail nr_ports_refcnt
# ghost mistake: the permutation records the next port
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt


def sys_alloc_port(old, port):
    cur = old.current

    cond = z3.And(
        # the port is free (not owned, not reserved by the kernel)
        old.io[port].owner == z3.BitVecVal(0, dt.pid_t),
        # the caller has an I/O permission bitmap
        old.procs[cur].use_io_bitmap,
    )

    new = old.copy()

    new.io[port].owner = cur
    new.procs[cur].nr_ports[port + z3.BitVecVal(1, dt.uint16_t)] += 1

    # Clear the port's bit in the caller's bitmap: the low half of the port
    # space lives in io_bitmap_a, the high half in io_bitmap_b.
    half = z3.BitVecVal(0x8000, dt.uint16_t)
    low = z3.ULT(port, half)
    page = util.If(low, old.procs[cur].io_bitmap_a, old.procs[cur].io_bitmap_b)
    bit = z3.ZeroExt(48, util.If(low, port, port - half))
    word = z3.UDiv(bit, util.i64(64))
    mask = util.i64(1) << z3.URem(bit, util.i64(64))
    new.pages[page].data[word] = new.pages[page].data(word) & ~mask

    return cond, util.If(cond, new, old)
