/*
 * Runs the kernel for real: supplies the hooks, boots a small system the
 * way hv6 does (docs/hv6-model.md §7.3), then drives every handler through
 * success and failure paths with concrete expectations. After every step it
 * checks the representation invariants (docs/hv6-model.md §5.3) and the reference
 * counts against a recount. Built and run by test/kernel/gcc.test.ts.
 * Prints "ok <n>" on success; on a failure, the line and what went wrong.
 */
#include "kernel.h"

int printf(const char *fmt, ...);
void exit(int code);

/* ---------------------------------------------------------------- hooks */

static int checks;
static bool tlbinv[NPROC];
static bool iotlbinv;

void __osv_assert(bool e)
{
    if (!e) {
        printf("kernel assertion failed\n");
        exit(1);
    }
}

void panic(char *msg)
{
    printf("panic: %s\n", msg);
    exit(1);
}

void hvm_invalidate_tlb(pid_t pid)
{
    assert(is_pid_valid(pid));
    tlbinv[pid] = true;
}

void iommu_flush(void)
{
    iotlbinv = true;
}

uint64_t iommu_entry(uint64_t addr, uint64_t perm, size_t level)
{
    assert(level < 4);
    return addr | perm;
}

void hvm_set_cr3(uint64_t *hvm, physaddr_t pml4) {}
void hvm_copy(uint64_t *dst_hvm, uint64_t *src_hvm, pid_t pid) {}
void hvm_flush(uint64_t *hvm) {}
void hvm_set_io_bitmap(uint64_t *hvm, uint64_t *bitmap) {}
void iommu_set_dev_root(devid_t devid, physaddr_t root) {}
void iommu_reset_dev_root(devid_t devid) {}
void iommu_set_intremap(size_t index, devid_t devid, uint8_t vector) {}
void iommu_reset_intremap(size_t index) {}
void iommu_hack_root(physaddr_t root, physaddr_t pdpt) {}

/* ---------------------------------------------------------------- checking */

#define FAIL(...) do { printf("line %d: ", __LINE__); printf(__VA_ARGS__); printf("\n"); exit(1); } while (0)
#define EXPECT(e) do { checks++; if (!(e)) FAIL("expected %s", #e); } while (0)
#define EQ(a, b) do { long _a = (long)(a), _b = (long)(b); checks++; \
    if (_a != _b) FAIL("%s is %ld, expected %s = %ld", #a, _a, #b, _b); } while (0)
/* Run a handler, compare its result, then re-check every invariant. */
#define CALL(expected, call) do { EQ(call, expected); check_state(__LINE__); } while (0)

static void check_state(int line)
{
    size_t counts[NPROC][8] = {{0}};
    size_t refs[NFILE] = {0};
    long pid, fd, i;

    if (!is_pid_valid(current) || proc_table[current].state != PROC_RUNNING)
        FAIL("after line %d: current %ld is not a RUNNING valid pid", line, (long)current);
    for (pid = 0; pid < NPROC; pid++) {
        struct proc *p = &proc_table[pid];
        if (p->page_table_root >= NPAGE || p->stack >= NPAGE || p->hvm >= NPAGE)
            FAIL("after line %d: pid %ld has an invalid root/stack/hvm", line, pid);
        if ((unsigned long)p->ready.prev >= NPROC || (unsigned long)p->ready.next >= NPROC)
            FAIL("after line %d: pid %ld has bad ready links", line, pid);
        if (!is_pid_valid(pid))
            continue;
        if (p->state == PROC_EMBRYO || p->state == PROC_RUNNABLE || p->state == PROC_RUNNING ||
            p->state == PROC_SLEEPING) {
            if (!is_page_type(p->page_table_root, PAGE_TYPE_X86_PML4) || !is_page_pid(p->page_table_root, pid) ||
                !is_page_type(p->stack, PAGE_TYPE_PROC_DATA) || !is_page_pid(p->stack, pid) ||
                !is_page_type(p->hvm, PAGE_TYPE_PROC_DATA) || !is_page_pid(p->hvm, pid))
                FAIL("after line %d: live pid %ld does not own its root/stack/hvm", line, pid);
        }
        if (p->state == PROC_RUNNING && pid != current)
            FAIL("after line %d: pid %ld RUNNING but not current", line, pid);
        if (p->state != PROC_ZOMBIE && p->use_io_bitmap &&
            (!is_page_type(p->io_bitmap_a, PAGE_TYPE_PROC_DATA) || !is_page_pid(p->io_bitmap_a, pid) ||
             !is_page_type(p->io_bitmap_b, PAGE_TYPE_PROC_DATA) || !is_page_pid(p->io_bitmap_b, pid)))
            FAIL("after line %d: pid %ld has a bad io bitmap", line, pid);
        if (p->state == PROC_SLEEPING) {
            if (!is_page_type(p->ipc_page, PAGE_TYPE_FRAME) || !is_page_pid(p->ipc_page, pid))
                FAIL("after line %d: sleeping pid %ld has a bad ipc page", line, pid);
            if (is_fd_valid(p->ipc_fd) && p->ofile[p->ipc_fd] != 0)
                FAIL("after line %d: sleeping pid %ld has an occupied ipc fd", line, pid);
        }
        for (fd = 0; fd < NOFILE; fd++) {
            fn_t fn = p->ofile[fd];
            if (fn != 0 && !is_fn_valid(fn))
                FAIL("after line %d: pid %ld fd %ld holds bad fn", line, pid, fd);
            if (fn != 0) {
                counts[pid][1]++;
                refs[fn]++;
            }
        }
        if (p->state != PROC_UNUSED && is_pid_valid(p->ppid))
            counts[p->ppid][0]++;
    }
    for (i = 0; i < NPAGE; i++) {
        struct page_desc *d = &page_desc_table[i];
        if (is_pid_valid(d->pid) != (d->type != PAGE_TYPE_FREE))
            FAIL("after line %d: page %ld owner/type mismatch", line, i);
        if (d->link.prev >= NPAGE || d->link.next >= NPAGE)
            FAIL("after line %d: page %ld bad free-list links", line, i);
        if (d->type != PAGE_TYPE_FREE)
            counts[d->pid][2]++;
    }
    for (i = 0; i < NDMAPAGE; i++) {
        if (dmapage_desc_table[i].type != PAGE_TYPE_FREE)
            counts[dmapage_desc_table[i].pid][3]++;
    }
    for (i = 0; i < NDEVID; i++) {
        if (is_pid_valid(pci_table[i]))
            counts[pci_table[i]][4]++;
    }
    for (i = 0; i < NPORT; i++) {
        if (is_pid_valid(io_table[i]))
            counts[io_table[i]][5]++;
    }
    for (i = 0; i < NVECTOR; i++) {
        if (is_pid_valid(vector_table[i]))
            counts[vector_table[i]][6]++;
    }
    for (i = 0; i < NINTREMAP; i++) {
        if (intremap_table[i].state == IR_ACTIVE)
            counts[pci_table[intremap_table[i].devid]][7]++;
    }
    for (pid = 1; pid < NPROC; pid++) {
        struct proc *p = &proc_table[pid];
        size_t have[8] = {p->nr_children, p->nr_fds, p->nr_pages, p->nr_dmapages,
                          p->nr_devs, p->nr_ports, p->nr_vectors, p->nr_intremaps};
        for (i = 0; i < 8; i++) {
            if (have[i] != counts[pid][i])
                FAIL("after line %d: pid %ld counter %ld is %lu, recount %lu", line, pid, i,
                     have[i], counts[pid][i]);
        }
        if (p->state == PROC_UNUSED && (have[0] | have[1] | have[2] | have[3] | have[4] | have[5] |
                                        have[6] | have[7]) != 0)
            FAIL("after line %d: unused pid %ld owns things", line, pid);
    }
    for (i = 1; i < NFILE; i++) {
        if (file_table[i].refcnt != refs[i])
            FAIL("after line %d: file %ld refcnt %lu, recount %lu", line, i, file_table[i].refcnt, refs[i]);
    }
}

static uint64_t pte(pn_t pn, pte_t perm)
{
    return ((uintptr_t)pages / PAGE_SIZE + pn) << PTE_PFN_SHIFT | perm;
}

/* ---------------------------------------------------------------- boot */

static void boot(void)
{
    long i;

    /* Free list: page 0 alone, then 1 .. NPAGE-1 appended at the tail. */
    for (i = 0; i < NPAGE; i++) {
        page_desc_table[i].link.prev = i == 0 ? NPAGE - 1 : i - 1;
        page_desc_table[i].link.next = i == NPAGE - 1 ? 0 : i + 1;
    }
    for (i = 0; i < NPORT; i++)
        io_table[i] = -1;
    for (i = 0x3f8; i < 0x3f8 + 6; i++)
        io_table[i] = 0;
    for (i = 0; i < 32; i++)
        vector_table[i] = -1;
    /* Two PCI devices: devid 5 with hole pages 0..1, devid 9 with page 2. */
    pcipages[0].devid = 5;
    pcipages[0].valid = true;
    pcipages[1].devid = 5;
    pcipages[1].valid = true;
    pcipages[2].devid = 9;
    pcipages[2].valid = true;

    current = INITPID;
    EQ(alloc_proc(INITPID, 0, 1, 2), 0);
    proc_table[INITPID].state = PROC_RUNNING;
    proc_table[INITPID].ready.prev = INITPID;
    proc_table[INITPID].ready.next = INITPID;
    check_state(__LINE__);
    EQ(proc_table[INITPID].ppid, INITPID);
    EQ(proc_table[INITPID].nr_children, 1);
}

/* ---------------------------------------------------------------- scenarios */

#define RW (PTE_P | PTE_W)

/* Build pid 2 from init, give it a page table down to a frame, run it. */
static void processes_and_vm(void)
{
    uint64_t *stack1 = pages[proc_table[1].stack];
    long i;

    stack1[7] = 0x1234;
    CALL(-ENOMEM, clone_proc(0, 10, 11, 12));
    CALL(-ENOMEM, clone_proc(1, 10, 11, 12));
    CALL(-ENOMEM, clone_proc(2, 1, 11, 12));
    CALL(-EINVAL, clone_proc(2, 10, 10, 12));
    CALL(-EINVAL, clone_proc(2, 10, 11, 11));
    CALL(0, clone_proc(2, 10, 11, 12));
    EQ(proc_table[2].state, PROC_EMBRYO);
    EQ(proc_table[2].ppid, 1);
    EQ(pages[11][7], 0x1234);
    EQ(page_desc_table[10].type, PAGE_TYPE_X86_PML4);
    CALL(-ENOMEM, clone_proc(2, 20, 21, 22));

    /* Page tables for the embryo, built by its parent. */
    CALL(-EINVAL, sys_alloc_pdpt(2, 10, 0, 10, PTE_P));
    CALL(-ESRCH, sys_alloc_pdpt(0, 10, 0, 13, PTE_P));
    CALL(-EINVAL, sys_alloc_pdpt(2, 11, 0, 13, PTE_P));
    CALL(-EACCES, sys_alloc_pdpt(1, 10, 0, 13, PTE_P));
    CALL(-EINVAL, sys_alloc_pdpt(2, 10, 512, 13, PTE_P));
    CALL(-EINVAL, sys_alloc_pdpt(2, 10, 0, 13, PTE_PS | PTE_P));
    CALL(-EINVAL, sys_alloc_pdpt(2, 10, 0, 13, PTE_W));
    tlbinv[2] = false;
    CALL(0, sys_alloc_pdpt(2, 10, 0, 13, RW | PTE_U));
    EQ(pages[10][0], pte(13, RW | PTE_U));
    EXPECT(tlbinv[2]);
    CALL(-EINVAL, sys_alloc_pdpt(2, 10, 0, 14, PTE_P));
    CALL(0, sys_alloc_pd(2, 13, 1, 14, RW));
    CALL(0, sys_alloc_pt(2, 14, 2, 15, RW));
    pages[16][3] = 99;
    tlbinv[2] = false;
    CALL(0, sys_alloc_frame(2, 15, 3, 16, RW | PTE_U));
    EXPECT(tlbinv[2]);
    EQ(pages[16][3], 0);
    EQ(page_desc_table[16].type, PAGE_TYPE_FRAME);
    EQ(proc_table[2].nr_pages, 7);

    /* Kernel tables and the root, read-only. */
    CALL(-EINVAL, sys_map_proc(2, 15, 4, 6, PTE_P));
    CALL(-EACCES, sys_map_proc(2, 15, 4, 0, RW));
    CALL(0, sys_map_proc(2, 15, 4, 5, PTE_P));
    EQ(pages[15][4], ((uintptr_t)proc_table / PAGE_SIZE + 5) << 12 | PTE_P);
    CALL(-EINVAL, sys_map_page_desc(2, 15, 5, 64, PTE_P));
    CALL(-EACCES, sys_map_page_desc(2, 15, 5, 63, RW));
    CALL(0, sys_map_page_desc(2, 15, 5, 63, PTE_P));
    CALL(-EINVAL, sys_map_dev(2, 15, 6, 2, PTE_P));
    CALL(-EACCES, sys_map_dev(2, 15, 6, 1, RW));
    CALL(0, sys_map_dev(2, 15, 6, 1, PTE_P));
    EQ(pages[15][6], ((uintptr_t)devices / PAGE_SIZE + 1) << 12 | PTE_P);
    CALL(-EINVAL, sys_map_file(2, 15, 7, 2, PTE_P));
    CALL(0, sys_map_file(2, 15, 7, 1, PTE_P));
    EQ(pages[15][7], ((uintptr_t)file_table / PAGE_SIZE + 1) << 12 | PTE_P);
    CALL(-EINVAL, sys_map_file(2, 15, 7, 0, PTE_P));
    CALL(-EACCES, sys_map_pml4(2, 511, RW));
    CALL(0, sys_map_pml4(2, 511, PTE_P));
    EQ(pages[10][511], pte(10, PTE_P));

    /* Copy init's frame into the child's. */
    CALL(0, sys_alloc_pdpt(1, 0, 0, 30, RW));
    CALL(0, sys_alloc_pd(1, 30, 0, 31, RW));
    CALL(0, sys_alloc_pt(1, 31, 0, 32, RW));
    CALL(0, sys_alloc_frame(1, 32, 0, 33, RW));
    for (i = 0; i < NPTENTRIES; i++)
        pages[33][i] = i * 3;
    CALL(-EACCES, sys_copy_frame(16, 2, 33));
    CALL(-EINVAL, sys_copy_frame(33, 2, 15));
    CALL(0, sys_copy_frame(33, 2, 16));
    EQ(pages[16][511], 511 * 3);

    /* Run the child; init becomes RUNNABLE. */
    CALL(-EINVAL, switch_proc(2));
    CALL(-ESRCH, sys_set_runnable(0));
    CALL(-EACCES, sys_set_runnable(3));
    CALL(0, sys_set_runnable(2));
    CALL(-EINVAL, sys_set_runnable(2));
    CALL(-EINVAL, switch_proc(1));
    CALL(0, switch_proc(2));
    EQ(current, 2);
    EQ(proc_table[1].state, PROC_RUNNABLE);

    /* The child changes and frees its own mapping. */
    tlbinv[2] = false;
    CALL(-EINVAL, sys_protect_frame(15, 3, 13, PTE_P));
    CALL(-EINVAL, sys_protect_frame(15, 4, 16, PTE_P));
    CALL(-EINVAL, sys_protect_frame(15, 3, 16, PTE_PS | PTE_P));
    CALL(0, sys_protect_frame(15, 3, 16, PTE_P | PTE_NX));
    EQ(pages[15][3], pte(16, PTE_P | PTE_NX));
    EXPECT(tlbinv[2]);
    CALL(-EACCES, sys_copy_frame(16, 1, 33));
    CALL(-EACCES, sys_free_frame(32, 0, 33));
    CALL(-EINVAL, sys_free_frame(15, 2, 16));
    CALL(0, sys_free_frame(15, 3, 16));
    EQ(pages[15][3], 0);
    EQ(page_desc_table[16].type, PAGE_TYPE_FREE);
    CALL(-EINVAL, sys_free_frame(15, 3, 16));
    tlbinv[2] = false;
    CALL(0, sys_free_pt(14, 2, 15));
    EXPECT(tlbinv[2]);
    CALL(-EACCES, sys_free_pd(13, 1, 31));
    CALL(0, sys_free_pd(13, 1, 14));
    CALL(0, sys_free_pdpt(10, 0, 13));
    EQ(pages[10][0], 0);
    EQ(proc_table[2].nr_pages, 3);
    CALL(0, sys_set_proc_name(0x61, 0x62));
    EQ(proc_table[2].name[1], 0x62);
}

/* Files: create, dup, dup2, lseek, close. Runs as pid 2. */
static void files(void)
{
    CALL(-EINVAL, sys_create(0, 1, FD_NONE, 0, 0));
    CALL(-EBADF, sys_create(16, 1, FD_INODE, 0, 0));
    CALL(-EINVAL, sys_create(0, 0, FD_INODE, 0, 0));
    CALL(0, sys_create(0, 1, FD_INODE, 7, 1));
    CALL(-EINVAL, sys_create(0, 2, FD_INODE, 7, 1));
    CALL(-EINVAL, sys_create(1, 1, FD_INODE, 7, 1));
    file_table[2].offset = 77;
    CALL(0, sys_create(1, 2, FD_PIPE, 8, 0));
    EQ(file_table[2].offset, 0);
    EQ(file_table[1].refcnt, 1);
    CALL(-EBADF, sys_dup(5, 2, 3));
    CALL(-EINVAL, sys_dup(0, 2, 1));
    CALL(-EACCES, sys_dup(0, 1, 3));
    CALL(0, sys_dup(0, 2, 3));
    EQ(file_table[1].refcnt, 2);
    CALL(0, sys_dup2(0, 2, 0));
    CALL(0, sys_dup2(1, 2, 3));
    EQ(file_table[1].refcnt, 1);
    EQ(file_table[2].refcnt, 2);
    CALL(0, sys_dup2(0, 2, 1));
    EQ(file_table[2].refcnt, 1);
    CALL(-EBADF, sys_dup2(0, 2, 16));
    CALL(0, sys_dup2(3, 2, 3));
    EQ(file_table[2].type, FD_PIPE);
    CALL(-EINVAL, sys_lseek(3, 10));
    CALL(-EINVAL, sys_lseek(0, -1));
    CALL(0, sys_lseek(0, 10));
    EQ(file_table[1].offset, 10);
    CALL(-EACCES, sys_close(1, 0));
    CALL(-EBADF, sys_close(2, 9));
    CALL(0, sys_close(2, 3));
    EQ(file_table[2].refcnt, 0);
    EQ(file_table[2].type, FD_NONE);
    EQ(file_table[2].value, 0);
    CALL(0, sys_close(2, 1));
    EQ(file_table[1].refcnt, 1);
    EQ(file_table[1].type, FD_INODE);
}

/* IPC between init (1) and pid 2. Starts with 2 RUNNING, 1 RUNNABLE. */
static void ipc(void)
{
    long i;

    CALL(0, sys_alloc_pdpt(2, 10, 1, 40, RW));
    CALL(0, sys_alloc_pd(2, 40, 0, 41, RW));
    CALL(0, sys_alloc_pt(2, 41, 0, 42, RW));
    CALL(0, sys_alloc_frame(2, 42, 0, 43, RW));
    CALL(0, sys_alloc_frame(2, 42, 1, 44, RW));
    CALL(-EINVAL, recv_proc(1, 42, -1));
    CALL(-EINVAL, recv_proc(1, 43, 0));
    CALL(-EAGAIN, send_proc(1, 1, 43, 8, -1));

    /* 2 waits for a message in frame 43 and a file in fd 5; init runs. */
    CALL(0, recv_proc(1, 43, 5));
    EQ(current, 1);
    EQ(proc_table[2].state, PROC_SLEEPING);
    for (i = 0; i < NPTENTRIES; i++)
        pages[33][i] = 1000 + i;
    CALL(0, sys_create(2, 3, FD_SOCKET, 1, 2));
    CALL(-EINVAL, send_proc(2, 5, 33, 4097, -1));
    CALL(-EACCES, send_proc(2, 5, 43, 8, -1));
    CALL(-EINVAL, send_proc(2, 5, 33, 8, 4));
    CALL(0, send_proc(2, 42, 33, 3, 2));
    EQ(current, 2);
    EQ(proc_table[1].state, PROC_RUNNABLE);
    EQ(proc_table[2].ipc_val, 42);
    EQ(proc_table[2].ipc_from, 1);
    EQ(pages[43][2], 1002);
    EQ(pages[43][3], 0);
    EQ(proc_table[2].ofile[5], 3);
    EQ(file_table[3].refcnt, 2);

    /* 2 calls init, which is RUNNABLE, not SLEEPING: refused. Init waits first. */
    CALL(-EAGAIN, call_proc(1, 7, 43, 8, 44, 6));
    CALL(0, switch_proc(1));
    proc_table[1].ipc_from = 5;
    CALL(0, recv_proc(2, 33, -1));
    EQ(proc_table[1].ipc_from, 0);
    EQ(current, 2);
    CALL(-EINVAL, call_proc(1, 7, 43, 8, 44, 5));
    CALL(0, call_proc(1, 7, 43, 4096, 44, 6));
    EQ(current, 1);
    EQ(proc_table[2].state, PROC_SLEEPING);
    EQ(proc_table[2].ipc_from, 1);
    EQ(proc_table[2].ipc_fd, 6);
    EQ(proc_table[1].ipc_val, 7);
    EQ(pages[33][511], pages[43][511]);

    /* Init answers with fd 2 and waits again; 2 only accepts init. */
    pages[44][0] = 0;
    pages[44][1] = 0;
    CALL(0, reply_wait_proc(2, 8, 33, 1, 2, 33));
    EQ(pages[44][0], pages[33][0]);
    EQ(pages[44][1], 0);
    EQ(current, 2);
    EQ(proc_table[1].state, PROC_SLEEPING);
    EQ(proc_table[1].ipc_from, 0);
    EQ(proc_table[1].ipc_fd, -1);
    EQ(proc_table[2].ofile[6], 3);
    EQ(file_table[3].refcnt, 3);
    EQ(proc_table[2].ipc_val, 8);

    /* 2 replies and waits; then init sends back with send_proc. */
    CALL(0, reply_wait_proc(1, 9, 44, 0, -1, 43));
    EQ(current, 1);
    EQ(proc_table[2].ipc_from, 0);
    CALL(0, send_proc(2, 10, 33, 0, -1));
    EQ(current, 2);
    EQ(proc_table[1].state, PROC_RUNNABLE);
}

/* Devices, IOMMU, vectors, intremaps, ports. Runs as pid 2. */
static void devices_and_interrupts(void)
{
    CALL(-EINVAL, sys_alloc_iommu_root(5, 10));
    iotlbinv = false;
    CALL(0, sys_alloc_iommu_root(5, 50));
    EXPECT(iotlbinv);
    EQ(pci_table[5], 2);
    CALL(-EBUSY, sys_alloc_iommu_root(5, 51));
    CALL(-EINVAL, sys_alloc_iommu_pdpt(50, 0, 51, PTE_U | PTE_P));
    CALL(0, sys_alloc_iommu_pdpt(50, 0, 51, DMAR_PTE_R | DMAR_PTE_W));
    EQ(pages[50][0], (uintptr_t)pages[51] | 3);
    CALL(-EINVAL, sys_alloc_iommu_pdpt(50, 0, 52, 0));
    CALL(0, sys_alloc_iommu_pd(51, 4, 52, DMAR_PTE_R));
    iotlbinv = false;
    CALL(0, sys_alloc_iommu_pt(52, 4, 53, DMAR_PTE_R));
    EXPECT(iotlbinv);
    pages[53][9] = 0x1000;
    CALL(-EINVAL, sys_alloc_iommu_frame(53, 9, 8, 0));
    CALL(-EINVAL, sys_alloc_iommu_frame(53, 1, 512, 0));
    CALL(0, sys_alloc_iommu_frame(53, 1, 7, DMAR_PTE_W));
    EQ(pages[53][1], (uintptr_t)dmapages[7] | 2);
    CALL(-EBUSY, sys_alloc_iommu_frame(53, 2, 7, 0));
    CALL(-EINVAL, sys_map_iommu_frame(42, 2, 8, PTE_P));
    CALL(0, sys_map_iommu_frame(42, 2, 7, PTE_P));
    EQ(pages[42][2], ((uintptr_t)dmapages / PAGE_SIZE + 7) << 12 | PTE_P);
    CALL(-EINVAL, sys_map_pcipage(42, 3, 3, PTE_P));
    CALL(-EACCES, sys_map_pcipage(42, 3, 2, PTE_P));
    CALL(0, sys_map_pcipage(42, 3, 1, RW));
    EQ(pages[42][3], (0xa0000UL + 1) << 12 | RW);

    CALL(-EBUSY, sys_alloc_vector(3));
    CALL(0, sys_alloc_vector(40));
    CALL(-EBUSY, sys_alloc_vector(40));
    CALL(-EACCES, sys_alloc_intremap(0, 9, 40));
    CALL(-EACCES, sys_alloc_intremap(0, 5, 41));
    CALL(-EINVAL, sys_alloc_intremap(8, 5, 40));
    CALL(0, sys_alloc_intremap(0, 5, 40));
    CALL(-EINVAL, sys_alloc_intremap(0, 5, 40));
    CALL(0, extintr(40));
    EQ(proc_table[2].intr[0], 1UL << 40);
    CALL(-EINVAL, extintr(41));
    CALL(-EINVAL, extintr(3));
    CALL(0, sys_ack_intr(40));
    EQ(proc_table[2].intr[0], 0);
    proc_table[2].intr[3] = 1UL << 8 | 1;
    CALL(0, sys_ack_intr(200));
    EQ(proc_table[2].intr[3], 1);
    CALL(-EACCES, sys_reclaim_intremap(0));

    CALL(-EBUSY, sys_alloc_port(0x60));
    CALL(-EACCES, sys_alloc_port(0x3f8));
    CALL(-EINVAL, sys_alloc_io_bitmap(60, 61, 63));
    CALL(-EINVAL, sys_alloc_io_bitmap(52, 53, 54));
    CALL(0, sys_alloc_io_bitmap(60, 61, 62));
    EQ(pages[62][100], ~0UL);
    CALL(-EEXIST, sys_alloc_io_bitmap(63, 64, 65));
    CALL(0, sys_alloc_port(0x3f8));
    CALL(-EACCES, sys_reclaim_port(0x3f8));
    EQ(pages[60][0x3f8 / 64], ~(1UL << (0x3f8 % 64)));
    io_table[0x8001] = 0;
    CALL(0, sys_alloc_port(0x8001));
    EQ(pages[61][0], ~2UL);
}

/* Kill pid 2 (as init), reclaim everything it owns, reap it. */
static void teardown(void)
{
    long i;

    CALL(0, clone_proc(3, 70, 71, 72));
    CALL(0, switch_proc(1));
    EQ(proc_table[2].state, PROC_RUNNABLE);
    CALL(-EINVAL, sys_reparent(3));
    CALL(-ESRCH, sys_kill(0));
    CALL(0, sys_kill(2));
    EQ(proc_table[2].state, PROC_ZOMBIE);
    CALL(-EINVAL, sys_kill(2));
    CALL(-EACCES, sys_reap(3));
    CALL(-ETXTBSY, sys_reap(2));
    CALL(0, sys_reparent(3));
    EQ(proc_table[3].ppid, 1);

    CALL(-EBUSY, sys_reclaim_vector(40));
    CALL(-EBUSY, sys_reclaim_iommu_root(5));
    CALL(-EINVAL, sys_reclaim_intremap(1));
    CALL(0, sys_reclaim_intremap(0));
    EQ(intremap_table[0].vector, 0);
    CALL(0, sys_reclaim_vector(40));
    CALL(-EACCES, sys_reclaim_vector(41));
    CALL(0, sys_reclaim_port(0x3f8));
    CALL(0, sys_reclaim_port(0x8001));
    CALL(-EACCES, sys_reclaim_port(0x3f9));
    CALL(-EBUSY, sys_reclaim_page(10));
    CALL(-EBUSY, sys_reclaim_iommu_frame(7));
    iotlbinv = false;
    CALL(0, sys_reclaim_iommu_root(5));
    EXPECT(iotlbinv);
    CALL(0, sys_reclaim_iommu_frame(7));
    CALL(-EINVAL, sys_reclaim_iommu_frame(7));
    CALL(-EACCES, sys_reclaim_page(0));
    CALL(-EINVAL, sys_reclaim_page(16));
    for (i = 0; i < NPAGE; i++) {
        if (page_desc_table[i].type != PAGE_TYPE_FREE && page_desc_table[i].pid == 2)
            CALL(0, sys_reclaim_page(i));
    }
    /* Only its open files are left. */
    CALL(-ETXTBSY, sys_reap(2));
    CALL(0, sys_close(2, 0));
    CALL(0, sys_close(2, 5));
    CALL(0, sys_close(2, 6));
    CALL(0, sys_reap(2));
    EQ(proc_table[2].state, PROC_UNUSED);
    EQ(proc_table[2].ppid, 0);
    EQ(proc_table[1].nr_children, 2);
    CALL(0, clone_proc(2, 10, 11, 12));

    /* A killed current is only marked, and becomes a zombie when it switches away. */
    CALL(0, sys_set_runnable(3));
    CALL(0, sys_kill(1));
    EQ(proc_table[1].state, PROC_RUNNING);
    EQ(proc_table[1].killed, 1);
    CALL(0, switch_proc(3));
    EQ(proc_table[1].state, PROC_ZOMBIE);
    CALL(-EINVAL, sys_reparent(2));
}

int main(void)
{
    boot();
    processes_and_vm();
    files();
    ipc();
    devices_and_interrupts();
    teardown();
    printf("ok %d\n", checks);
    return 0;
}
