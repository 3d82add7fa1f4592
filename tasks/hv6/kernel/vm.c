/*
 * Virtual memory: x86 page tables are pages of 512 entries that processes
 * build themselves, one level at a time (PML4 -> PDPT -> PD -> PT -> FRAME).
 * An entry is (pfn << 12) | perm. The kernel checks that each entry points
 * to a page of the right type owned by the table's owner, and maps its own
 * tables only read-only.
 */
#include "kernel.h"

/*
 * Write entry `index` of pid's table page `from` (of type from_type) to map
 * frame `pfn` with `perm`. pid must be current or its embryo, the slot must
 * be empty, and perm may only use the user-settable bits and must be present.
 */
int map_page(pid_t pid, pn_t from, size_t index, uint64_t pfn, pte_t perm,
             enum page_type from_type)
{
    uint64_t *table;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_current_or_embryo(pid))
        return -EACCES;
    if (!is_page_type(from, from_type))
        return -EINVAL;
    if (!is_page_pid(from, pid))
        return -EACCES;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if ((perm & ~PTE_PERM_MASK) != 0)
        return -EINVAL;
    if ((perm & PTE_P) == 0)
        return -EINVAL;
    table = get_page(from);
    if ((table[index] & PTE_P) != 0)
        return -EINVAL;
    table[index] = (pfn << PTE_PFN_SHIFT) | perm;
    hvm_invalidate_tlb(pid);
    return 0;
}

/* Map the process's own PML4 into one of its slots, read-only. */
int sys_map_pml4(pid_t pid, size_t index, pte_t perm)
{
    pn_t root;

    if (!is_pid_valid(pid))
        return -ESRCH;
    if ((perm & PTE_W) != 0)
        return -EACCES;
    /* Every process's root is a valid pn, even an unused one's (invariant). */
    root = get_proc(pid)->page_table_root;
    return map_page(pid, root, index, pn_to_pfn(root), perm, PAGE_TYPE_X86_PML4);
}

/*
 * Map page n of a kernel table that starts at `table`, `npages` long,
 * read-only into pid's PT page `from`.
 */
static int map_kernel_table(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm,
                            uintptr_t table, size_t npages)
{
    if (n >= npages)
        return -EINVAL;
    if ((perm & PTE_W) != 0)
        return -EACCES;
    return map_page(pid, from, index, table / PAGE_SIZE + n, perm, PAGE_TYPE_X86_PT);
}

int sys_map_page_desc(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm)
{
    return map_kernel_table(pid, from, index, n, perm, (uintptr_t)&page_desc_table[0],
                            bytes_to_pages(NPAGE * sizeof(struct page_desc)));
}

int sys_map_proc(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm)
{
    return map_kernel_table(pid, from, index, n, perm, (uintptr_t)&proc_table[0],
                            bytes_to_pages(NPROC * sizeof(struct proc)));
}

int sys_map_dev(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm)
{
    return map_kernel_table(pid, from, index, n, perm, (uintptr_t)&devices[0],
                            bytes_to_pages(NPCIDEV * sizeof(struct pci_func)));
}

int sys_map_file(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm)
{
    return map_kernel_table(pid, from, index, n, perm, (uintptr_t)&file_table[0],
                            bytes_to_pages(NFILE * sizeof(struct file)));
}

/*
 * Take the FREE page `to` for pid as a zeroed page of type to_type and link
 * it from entry `index` of pid's table `from`.
 */
int alloc_page_table_page(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm,
                          enum page_type from_type, enum page_type to_type)
{
    int r;

    if (!is_page_type(to, PAGE_TYPE_FREE))
        return -EINVAL;
    r = map_page(pid, from, index, pn_to_pfn(to), perm, from_type);
    if (r != 0)
        return r;
    alloc_page(pid, to_type, to);
    return 0;
}

int sys_alloc_pdpt(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm)
{
    return alloc_page_table_page(pid, from, index, to, perm,
                                 PAGE_TYPE_X86_PML4, PAGE_TYPE_X86_PDPT);
}

int sys_alloc_pd(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm)
{
    return alloc_page_table_page(pid, from, index, to, perm,
                                 PAGE_TYPE_X86_PDPT, PAGE_TYPE_X86_PD);
}

int sys_alloc_pt(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm)
{
    return alloc_page_table_page(pid, from, index, to, perm,
                                 PAGE_TYPE_X86_PD, PAGE_TYPE_X86_PT);
}

int sys_alloc_frame(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm)
{
    return alloc_page_table_page(pid, from, index, to, perm,
                                 PAGE_TYPE_X86_PT, PAGE_TYPE_FRAME);
}

/* Copy a whole frame of current into a frame of pid (current or its embryo). */
int sys_copy_frame(pn_t from, pid_t pid, pn_t to)
{
    if (!is_page_type(from, PAGE_TYPE_FRAME))
        return -EINVAL;
    if (!is_page_pid(from, current))
        return -EACCES;
    if (!is_pid_valid(pid))
        return -ESRCH;
    if (!is_page_type(to, PAGE_TYPE_FRAME))
        return -EINVAL;
    if (!is_page_pid(to, pid))
        return -EACCES;
    if (!is_current_or_embryo(pid))
        return -EACCES;
    memcpy(get_page(to), get_page(from), PAGE_SIZE);
    return 0;
}

/* Change the permission of entry `index` of current's PT page, which maps `frame`. */
int sys_protect_frame(pn_t pt, size_t index, pn_t frame, pte_t perm)
{
    uint64_t *table;
    uint64_t pfn;

    if (!is_page_type(pt, PAGE_TYPE_X86_PT))
        return -EINVAL;
    if (!is_page_pid(pt, current))
        return -EACCES;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if (!is_page_type(frame, PAGE_TYPE_FRAME))
        return -EINVAL;
    if (!is_page_pid(frame, current))
        return -EACCES;
    table = get_page(pt);
    if ((table[index] & PTE_P) == 0)
        return -EINVAL;
    pfn = PTE_ADDR(table[index]) >> PTE_PFN_SHIFT;
    if (pfn != pn_to_pfn(frame))
        return -EINVAL;
    if ((perm & ~PTE_PERM_MASK) != 0)
        return -EINVAL;
    if ((perm & PTE_P) == 0)
        return -EINVAL;
    table[index] = (pfn << PTE_PFN_SHIFT) | perm;
    hvm_invalidate_tlb(current);
    return 0;
}

/*
 * Unlink and free current's page `to` (of type to_type), which entry
 * `index` of current's table `from` (of type from_type) maps.
 */
int free_page_table_page(pn_t from, size_t index, pn_t to,
                         enum page_type from_type, enum page_type to_type)
{
    uint64_t *table;

    if (!is_page_type(from, from_type))
        return -EINVAL;
    if (!is_page_pid(from, current))
        return -EACCES;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if (!is_page_type(to, to_type))
        return -EINVAL;
    if (!is_page_pid(to, current))
        return -EACCES;
    table = get_page(from);
    if ((table[index] & PTE_P) == 0)
        return -EINVAL;
    /* The entry must point at `to`: compare whole 64-bit frame numbers. */
    if (pn_to_pfn(to) != PTE_ADDR(table[index]) >> PTE_PFN_SHIFT)
        return -EINVAL;
    free_page(to);
    table[index] = 0;
    hvm_invalidate_tlb(current);
    return 0;
}

int sys_free_pdpt(pn_t from, size_t index, pn_t to)
{
    return free_page_table_page(from, index, to, PAGE_TYPE_X86_PML4, PAGE_TYPE_X86_PDPT);
}

int sys_free_pd(pn_t from, size_t index, pn_t to)
{
    return free_page_table_page(from, index, to, PAGE_TYPE_X86_PDPT, PAGE_TYPE_X86_PD);
}

int sys_free_pt(pn_t from, size_t index, pn_t to)
{
    return free_page_table_page(from, index, to, PAGE_TYPE_X86_PD, PAGE_TYPE_X86_PT);
}

int sys_free_frame(pn_t from, size_t index, pn_t to)
{
    return free_page_table_page(from, index, to, PAGE_TYPE_X86_PT, PAGE_TYPE_FRAME);
}

/* Free any page of a ZOMBIE that no longer owns devices (whose DMA could reach it). */
int sys_reclaim_page(pn_t pn)
{
    struct page_desc *desc;

    if (!is_pn_valid(pn))
        return -EINVAL;
    desc = get_page_desc(pn);
    if (desc->type == PAGE_TYPE_FREE)
        return -EINVAL;
    if (!is_proc_state(desc->pid, PROC_ZOMBIE))
        return -EACCES;
    if (get_proc(desc->pid)->nr_devs != 0)
        return -EBUSY;
    free_page(pn);
    return 0;
}
