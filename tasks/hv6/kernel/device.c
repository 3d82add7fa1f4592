/*
 * Devices and the IOMMU. A process that owns a PCI device (pci_table) can
 * map the device's register pages from the PCI hole, and builds the device's
 * IOMMU page table from its own pages (IOMMU_PML4 -> PDPT -> PD -> PT) with
 * DMA pages as the frames. IOMMU entries hold byte addresses, not frame
 * numbers.
 */
#include "kernel.h"

/* A page of the PCI hole that belongs to some device. */
static bool is_pcipn_valid(pn_t pcipn)
{
    return pcipn < NPCIPAGE && pcipages[pcipn].valid;
}

/* Map a register page of a device that current owns into current's PT page. */
int sys_map_pcipage(pn_t pt, size_t index, pn_t pcipn, pte_t perm)
{
    if (!is_pcipn_valid(pcipn))
        return -EINVAL;
    if (pci_table[pcipages[pcipn].devid] != current)
        return -EACCES;
    return map_page(current, pt, index, PCI_START / PAGE_SIZE + pcipn, perm,
                    PAGE_TYPE_X86_PT);
}

/* Claim the free device devid, with the FREE page pn as its IOMMU root. */
int sys_alloc_iommu_root(devid_t devid, pn_t pn)
{
    if (pci_table[devid] != 0)
        return -EBUSY;
    if (!is_page_type(pn, PAGE_TYPE_FREE))
        return -EINVAL;
    pci_table[devid] = current;
    alloc_page(current, PAGE_TYPE_IOMMU_PML4, pn);
    get_proc(current)->nr_devs++;
    iommu_set_dev_root(devid, (uintptr_t)get_page(pn));
    iommu_flush();
    return 0;
}

/*
 * Point the empty entry `index` of current's IOMMU table page `from` (of
 * type from_type) at physical address pa, with read/write bits perm.
 */
int map_iommu_page_table_page(pn_t from, size_t index, physaddr_t pa,
                              iommu_pte_t perm, enum page_type from_type)
{
    uint64_t *table;

    if (!is_page_type(from, from_type))
        return -EINVAL;
    if (!is_page_pid(from, current))
        return -EACCES;
    if (index >= NPTENTRIES)
        return -EINVAL;
    if ((perm & ~(DMAR_PTE_R | DMAR_PTE_W)) != 0)
        return -EINVAL;
    table = get_page(from);
    /* The whole entry must be 0, not just its present bits. */
    if (table[index] != 0)
        return -EINVAL;
    /* Levels count down to 0 at the PT. */
    table[index] = iommu_entry(pa, perm, PAGE_TYPE_IOMMU_FRAME - 1 - from_type);
    iommu_flush();
    return 0;
}

/*
 * Take the FREE page `to` for current as a zeroed IOMMU table page of type
 * to_type, linked from entry `index` of current's table `from`.
 */
int alloc_iommu_page_table_page(pn_t from, size_t index, pn_t to, iommu_pte_t perm,
                                enum page_type from_type, enum page_type to_type)
{
    int r;

    if (!is_page_type(to, PAGE_TYPE_FREE))
        return -EINVAL;
    r = map_iommu_page_table_page(from, index, (uintptr_t)get_page(to), perm, from_type);
    if (r != 0)
        return r;
    alloc_page(current, to_type, to);
    return 0;
}

int sys_alloc_iommu_pdpt(pn_t from, size_t index, pn_t to, iommu_pte_t perm)
{
    int r;

    r = alloc_iommu_page_table_page(from, index, to, perm,
                                    PAGE_TYPE_IOMMU_PML4, PAGE_TYPE_IOMMU_PDPT);
    /* QEMU walks 3-level tables: let the hardware layer know about the first PDPT. */
    if (r == 0 && index == 0)
        iommu_hack_root((uintptr_t)get_page(from), (uintptr_t)get_page(to));
    return r;
}

int sys_alloc_iommu_pd(pn_t from, size_t index, pn_t to, iommu_pte_t perm)
{
    return alloc_iommu_page_table_page(from, index, to, perm,
                                       PAGE_TYPE_IOMMU_PDPT, PAGE_TYPE_IOMMU_PD);
}

int sys_alloc_iommu_pt(pn_t from, size_t index, pn_t to, iommu_pte_t perm)
{
    return alloc_iommu_page_table_page(from, index, to, perm,
                                       PAGE_TYPE_IOMMU_PD, PAGE_TYPE_IOMMU_PT);
}

/* Take the FREE DMA page `to` for current and map it in current's IOMMU PT page. */
int sys_alloc_iommu_frame(pn_t from, size_t index, dmapn_t to, iommu_pte_t perm)
{
    struct page_desc *desc;
    int r;

    if (!is_dmapn_valid(to))
        return -EINVAL;
    desc = &dmapage_desc_table[to];
    if (desc->type != PAGE_TYPE_FREE)
        return -EBUSY;
    r = map_iommu_page_table_page(from, index, (uintptr_t)dmapages[to], perm,
                                  PAGE_TYPE_IOMMU_PT);
    if (r != 0)
        return r;
    desc->type = PAGE_TYPE_IOMMU_FRAME;
    desc->pid = current;
    get_proc(current)->nr_dmapages++;
    return 0;
}

/* Map one of current's DMA pages into current's x86 PT page. */
int sys_map_iommu_frame(pn_t pt, size_t index, dmapn_t to, pte_t perm)
{
    if (!is_dmapage_type(to, PAGE_TYPE_IOMMU_FRAME))
        return -EINVAL;
    if (!is_dmapage_pid(to, current))
        return -EACCES;
    return map_page(current, pt, index, (uintptr_t)dmapages[0] / PAGE_SIZE + to, perm,
                    PAGE_TYPE_X86_PT);
}

/* Free a DMA page of a ZOMBIE that no longer owns devices. */
int sys_reclaim_iommu_frame(dmapn_t dmapn)
{
    struct page_desc *desc;
    pid_t owner;

    if (!is_dmapn_valid(dmapn))
        return -EINVAL;
    desc = &dmapage_desc_table[dmapn];
    if (desc->type == PAGE_TYPE_FREE)
        return -EINVAL;
    owner = desc->pid;
    if (!is_proc_state(owner, PROC_ZOMBIE))
        return -EACCES;
    if (get_proc(owner)->nr_devs != 0)
        return -EBUSY;
    desc->type = PAGE_TYPE_FREE;
    desc->pid = 0;
    get_proc(owner)->nr_dmapages--;
    return 0;
}

/*
 * Release a device of a ZOMBIE once its interrupt remappings are gone. Its
 * IOMMU table pages stay owned by the zombie until sys_reclaim_page.
 */
int sys_reclaim_iommu_root(devid_t devid)
{
    pid_t owner = pci_table[devid];
    struct proc *p;

    if (!is_proc_state(owner, PROC_ZOMBIE))
        return -EACCES;
    p = get_proc(owner);
    if (p->nr_intremaps != 0)
        return -EBUSY;
    p->nr_devs--;
    pci_table[devid] = 0;
    iommu_reset_dev_root(devid);
    iommu_flush();
    return 0;
}
