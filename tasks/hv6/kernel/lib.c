/*
 * Validity predicates, state predicates and accessors shared by all
 * handlers, plus the word copy used by IPC.
 */
#include "kernel.h"

/* pid_t is signed: pid -1 and pid 0 are both invalid. */
bool is_pid_valid(pid_t pid)
{
    return pid > 0 && pid < NPROC;
}

bool is_pn_valid(pn_t pn)
{
    return pn < NPAGE;
}

bool is_dmapn_valid(dmapn_t dmapn)
{
    return dmapn < NDMAPAGE;
}

/* fn 0 is the "no file" value of an empty descriptor slot. */
bool is_fn_valid(fn_t fn)
{
    return fn > 0 && fn < NFILE;
}

/* fds are signed 32-bit: -1 is invalid (IPC uses it for "no fd"). */
bool is_fd_valid(int fd)
{
    return fd >= 0 && fd < NOFILE;
}

bool is_intremap_valid(size_t index)
{
    return index < NINTREMAP;
}

bool is_page_type(pn_t pn, enum page_type type)
{
    return is_pn_valid(pn) && page_desc_table[pn].type == type;
}

bool is_page_pid(pn_t pn, pid_t pid)
{
    return is_pn_valid(pn) && page_desc_table[pn].pid == pid;
}

bool is_proc_state(pid_t pid, enum proc_state state)
{
    return is_pid_valid(pid) && proc_table[pid].state == state;
}

/*
 * May the caller act on pid's resources? Either pid is the caller, or an
 * embryo child the caller is still setting up. The caller checks validity.
 */
bool is_current_or_embryo(pid_t pid)
{
    struct proc *p = get_proc(pid);

    return pid == current || (p->ppid == current && p->state == PROC_EMBRYO);
}

bool is_file_type(fn_t fn, enum file_type type)
{
    return is_fn_valid(fn) && file_table[fn].type == type;
}

bool is_dmapage_type(dmapn_t dmapn, enum page_type type)
{
    return is_dmapn_valid(dmapn) && dmapage_desc_table[dmapn].type == type;
}

bool is_dmapage_pid(dmapn_t dmapn, pid_t pid)
{
    return is_dmapn_valid(dmapn) && dmapage_desc_table[dmapn].pid == pid;
}

bool is_intremap_state(size_t index, enum intremap_state state)
{
    return is_intremap_valid(index) && intremap_table[index].state == state;
}

struct proc *get_proc(pid_t pid)
{
    assert(is_pid_valid(pid));
    return &proc_table[pid];
}

struct page_desc *get_page_desc(pn_t pn)
{
    assert(is_pn_valid(pn));
    return &page_desc_table[pn];
}

uint64_t *get_page(pn_t pn)
{
    assert(is_pn_valid(pn));
    return pages[pn];
}

struct file *get_file(fn_t fn)
{
    assert(is_fn_valid(fn));
    return &file_table[fn];
}

/* The fn in pid's descriptor slot fd (0 if the slot is empty). */
fn_t get_fd(pid_t pid, int fd)
{
    assert(is_fd_valid(fd));
    return get_proc(pid)->ofile[fd];
}

/* The physical frame number of RAM page pn: the address of `pages` / 4096 + pn. */
uint64_t pn_to_pfn(pn_t pn)
{
    assert(is_pn_valid(pn));
    return (uintptr_t)pages[0] / PAGE_SIZE + pn;
}

/*
 * The IPC copy: words 0 .. n-1 of src into dst (all of the page when
 * n >= 512). The verifier has its own model of this function; the loop is
 * for real builds.
 */
void copy_words(uint64_t *dst, uint64_t *src, size_t n)
{
    size_t i;

    /* A select rather than an `if`, so the loop body does not branch. */
    for (i = 0; i < NPTENTRIES; i++)
        dst[i] = i < n ? src[i] : dst[i];
}
