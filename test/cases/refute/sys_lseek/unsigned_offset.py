# expect: refuted cond
# mistake: the offset is compared unsigned, so negative offsets pass
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_fd_valid, is_fn_valid


def sys_lseek(old, fd, offset):
    fn = old.procs[old.current].ofile(fd)

    cond = z3.And(
        # fd is a descriptor number
        is_fd_valid(fd),
        # the caller's fd is open
        is_fn_valid(fn),
        # on a file that has a position (an inode)
        old.files[fn].type == dt.file_type.FD_INODE,
        # and the new position is not negative (signed comparison)
        z3.UGE(offset, z3.BitVecVal(0, dt.off_t)),
    )

    new = old.copy()
    new.files[fn].offset = offset

    return cond, util.If(cond, new, old)
