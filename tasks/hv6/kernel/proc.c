/*
 * Processes: creation, scheduling state, killing and reaping, and the ready
 * queue. The ready queue is a circular doubly linked list through
 * proc_table[].ready; only preemption walks it, so system calls just keep
 * it well formed (every link < NPROC).
 */
#include "kernel.h"

/* Insert pid into the ready queue just before current. */
void proc_ready_add(pid_t pid)
{
    struct proc *p = get_proc(pid);
    struct proc *cur = get_proc(current);
    pid_t prev = cur->ready.prev;

    p->ready.prev = prev;
    p->ready.next = current;
    proc_table[prev].ready.next = pid;
    cur->ready.prev = pid;
}

/* Unlink pid from the ready queue. */
void proc_ready_del(pid_t pid)
{
    struct proc *p = get_proc(pid);
    pid_t prev = p->ready.prev;
    pid_t next = p->ready.next;

    proc_table[prev].ready.next = next;
    proc_table[next].ready.prev = prev;
    p->ready.prev = 0;
    p->ready.next = 0;
}

/* Every field of an unused process slot back to 0. */
void proc_zero(struct proc *p)
{
    int i;

    p->state = PROC_UNUSED;
    p->ppid = 0;
    p->page_table_root = 0;
    p->stack = 0;
    p->hvm = 0;
    p->io_bitmap_a = 0;
    p->io_bitmap_b = 0;
    for (i = 0; i < NOFILE; i++)
        p->ofile[i] = 0;
    p->nr_children = 0;
    p->nr_fds = 0;
    p->nr_pages = 0;
    p->nr_dmapages = 0;
    p->nr_devs = 0;
    p->nr_ports = 0;
    p->nr_vectors = 0;
    p->nr_intremaps = 0;
    p->launched = 0;
    p->killed = 0;
    p->use_io_bitmap = 0;
    p->ipc_from = 0;
    p->ipc_val = 0;
    p->ipc_page = 0;
    p->ipc_size = 0;
    p->ipc_fd = 0;
    for (i = 0; i < 4; i++)
        p->intr[i] = 0;
    p->name[0] = 0;
    p->name[1] = 0;
    p->ready.prev = 0;
    p->ready.next = 0;
}

/*
 * Make the UNUSED slot pid an embryo child of current, with three FREE
 * pages as its page-table root, stack and hvm state.
 */
int alloc_proc(pid_t pid, pn_t pml4, pn_t stack, pn_t hvm)
{
    struct proc *p;

    if (!is_proc_state(pid, PROC_UNUSED))
        return -ENOMEM;
    if (!is_page_type(pml4, PAGE_TYPE_FREE))
        return -ENOMEM;
    if (!is_page_type(stack, PAGE_TYPE_FREE))
        return -ENOMEM;
    if (!is_page_type(hvm, PAGE_TYPE_FREE))
        return -ENOMEM;
    if (pml4 == stack)
        return -EINVAL;
    if (pml4 == hvm)
        return -EINVAL;
    if (stack == hvm)
        return -EINVAL;

    p = get_proc(pid);
    /* The counters are 0 already (invariant for UNUSED slots); zero it all anyway. */
    proc_zero(p);
    p->ppid = current;
    p->state = PROC_EMBRYO;
    alloc_page(pid, PAGE_TYPE_X86_PML4, pml4);
    p->page_table_root = pml4;
    alloc_page(pid, PAGE_TYPE_PROC_DATA, stack);
    p->stack = stack;
    alloc_page(pid, PAGE_TYPE_PROC_DATA, hvm);
    p->hvm = hvm;
    get_proc(current)->nr_children++;
    return 0;
}

/* Release the ZOMBIE pid, which owns nothing any more, back to UNUSED. */
void free_proc(pid_t pid)
{
    struct proc *p = get_proc(pid);

    get_proc(p->ppid)->nr_children--;
    p->state = PROC_UNUSED;
    p->ppid = 0;
    p->page_table_root = 0;
    p->stack = 0;
    p->hvm = 0;
    p->launched = 0;
    p->killed = 0;
    p->use_io_bitmap = 0;
    p->io_bitmap_a = 0;
    p->io_bitmap_b = 0;
    p->name[0] = 0;
    p->name[1] = 0;
}

/* Save current's hardware state so that its hvm page is up to date. */
void flush_current(void)
{
    struct proc *cur = get_proc(current);

    hvm_flush(get_page(cur->hvm));
    cur->launched = 0;
}

/*
 * Create the embryo pid as a copy of current: same stack page and hvm
 * state, an empty address space, no files. current keeps running.
 */
int clone_proc(pid_t pid, pn_t pml4, pn_t stack, pn_t hvm)
{
    struct proc *parent;
    struct proc *child;
    int r;

    r = alloc_proc(pid, pml4, stack, hvm);
    if (r != 0)
        return r;
    parent = get_proc(current);
    child = get_proc(pid);
    memcpy(get_page(child->stack), get_page(parent->stack), PAGE_SIZE);
    flush_current();
    hvm_flush(get_page(child->hvm));
    memcpy(get_page(child->hvm), get_page(parent->hvm), PAGE_SIZE);
    hvm_copy(get_page(child->hvm), get_page(parent->hvm), pid);
    return 0;
}

int sys_set_proc_name(uint64_t name0, uint64_t name1)
{
    struct proc *cur = get_proc(current);

    cur->name[0] = name0;
    cur->name[1] = name1;
    return 0;
}

/* Let current's embryo child pid run. */
int sys_set_runnable(pid_t pid)
{
    struct proc *p;

    if (!is_pid_valid(pid))
        return -ESRCH;
    p = get_proc(pid);
    if (p->ppid != current)
        return -EACCES;
    if (p->state != PROC_EMBRYO)
        return -EINVAL;
    p->state = PROC_RUNNABLE;
    proc_ready_add(pid);
    return 0;
}

/*
 * Yield to the RUNNABLE pid. current is RUNNING (invariant), so it is not
 * pid; a killed current becomes a ZOMBIE instead of RUNNABLE.
 */
int switch_proc(pid_t pid)
{
    struct proc *old;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_proc_state(pid, PROC_RUNNABLE))
        return -EINVAL;
    old = get_proc(current);
    if (old->killed) {
        old->state = PROC_ZOMBIE;
        proc_ready_del(current);
    } else {
        old->state = PROC_RUNNABLE;
    }
    get_proc(pid)->state = PROC_RUNNING;
    current = pid;
    return 0;
}

/*
 * Kill any live pid. The RUNNING process (current) is only marked: it turns
 * into a ZOMBIE when it is switched away from.
 */
int sys_kill(pid_t pid)
{
    struct proc *p;

    if (!is_pid_valid(pid))
        return -ESRCH;
    p = get_proc(pid);
    if (p->state == PROC_UNUSED || p->state == PROC_ZOMBIE)
        return -EINVAL;
    p->killed = 1;
    if (p->state != PROC_RUNNING) {
        p->state = PROC_ZOMBIE;
        proc_ready_del(pid);
    }
    return 0;
}

/* Free the slot of current's ZOMBIE child pid once it owns nothing. */
int sys_reap(pid_t pid)
{
    struct proc *p;

    if (!is_pid_valid(pid))
        return -ESRCH;
    p = get_proc(pid);
    if (p->ppid != current)
        return -EACCES;
    if (p->state != PROC_ZOMBIE)
        return -EINVAL;
    /* One test for all eight counters: they must all be 0. */
    if ((p->nr_devs | p->nr_children | p->nr_fds | p->nr_pages | p->nr_dmapages |
         p->nr_ports | p->nr_vectors | p->nr_intremaps) != 0)
        return -ETXTBSY;
    free_proc(pid);
    return 0;
}

/* Hand pid, whose parent is a ZOMBIE, over to init. */
int sys_reparent(pid_t pid)
{
    struct proc *p;
    struct proc *init;

    if (!is_pid_valid(pid))
        return -ESRCH;
    p = get_proc(pid);
    if (!is_proc_state(p->ppid, PROC_ZOMBIE))
        return -EINVAL;
    init = get_proc(INITPID);
    if (init->state != PROC_RUNNABLE && init->state != PROC_RUNNING)
        return -EINVAL;
    init->nr_children++;
    get_proc(p->ppid)->nr_children--;
    p->ppid = INITPID;
    return 0;
}
