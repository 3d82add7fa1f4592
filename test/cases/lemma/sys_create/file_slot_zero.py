# expect: verified
# expect: lemma-fail files_refcnt
# ghost mistake: the file records slot 0 instead of fd
import z3
from libirpy import util
import hv6py.kernel.spec.datatypes as dt
from hv6py.kernel.spec.helpers import is_fd_valid, is_fn_valid


def sys_create(old, fd, fn, type, value, omode):
    cur = old.current

    cond = z3.And(
        # the new file has a real type (FD_NONE marks an unused entry)
        type != dt.file_type.FD_NONE,
        # fd is a descriptor number (0..NOFILE-1)
        is_fd_valid(fd),
        # the caller's descriptor fd is empty
        z3.Not(is_fn_valid(old.procs[cur].ofile(fd))),
        # fn is a file-table index (1..NFILE-1)
        is_fn_valid(fn),
        # and no descriptor refers to that file
        old.files[fn].refcnt() == z3.BitVecVal(0, dt.size_t),
    )

    new = old.copy()

    new.files[fn].type = type
    new.files[fn].value = value
    new.files[fn].omode = omode
    new.files[fn].offset = z3.BitVecVal(0, dt.off_t)

    # Install the file in the caller's descriptor table.
    new.procs[cur].ofile[fd] = fn
    new.procs[cur].nr_fds[fd] += 1
    new.files[fn].refcnt[(cur, z3.BitVecVal(0, dt.fd_t))] += 1

    return cond, util.If(cond, new, old)
