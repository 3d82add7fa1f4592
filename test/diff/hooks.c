/*
 * Hook bodies for the differential driver (docs/differential.md). Compiled
 * with the kernel's own headers and flags. The modelled hooks record what
 * the verifier's model records (docs/c-subset.md, "Built-ins and hooks"): a
 * failed assert or a panic ends the case through diff_fail (driver.c) instead
 * of ending the process, hvm_invalidate_tlb and iommu_flush set flags, and
 * iommu_entry is addr | perm. The hook state lives outside the kernel's
 * globals (driver.c maps it), so it never shows up as a kernel write.
 */
#include "kernel.h"

#define DIFF_MAX_TLB 64

struct diff_hooks {
    long ntlb;                  /* calls of hvm_invalidate_tlb (may exceed DIFF_MAX_TLB) */
    pid_t tlb[DIFF_MAX_TLB];    /* their pids, in call order */
    long iotlb;                 /* iommu_flush was called */
};

/* Set once by driver.c before the first case; only read afterwards. */
struct diff_hooks *diff_hooks;

/* Ends the current case (1 = assert, 2 = panic); defined in driver.c. */
void diff_fail(int kind) __attribute__((noreturn));

void __osv_assert(bool e)
{
    if (!e)
        diff_fail(1);
}

void panic(char *msg)
{
    (void)msg;
    diff_fail(2);
}

void hvm_invalidate_tlb(pid_t pid)
{
    if (diff_hooks->ntlb < DIFF_MAX_TLB)
        diff_hooks->tlb[diff_hooks->ntlb] = pid;
    diff_hooks->ntlb++;
}

void iommu_flush(void)
{
    diff_hooks->iotlb = 1;
}

uint64_t iommu_entry(uint64_t addr, uint64_t perm, size_t level)
{
    (void)level;
    return addr | perm;
}

/* Hooks without a modelled effect. */
void hvm_set_cr3(uint64_t *hvm, physaddr_t pml4) { (void)hvm; (void)pml4; }
void hvm_copy(uint64_t *dst_hvm, uint64_t *src_hvm, pid_t pid) { (void)dst_hvm; (void)src_hvm; (void)pid; }
void hvm_flush(uint64_t *hvm) { (void)hvm; }
void hvm_set_io_bitmap(uint64_t *hvm, uint64_t *bitmap) { (void)hvm; (void)bitmap; }
void iommu_set_dev_root(devid_t devid, physaddr_t root) { (void)devid; (void)root; }
void iommu_reset_dev_root(devid_t devid) { (void)devid; }
void iommu_set_intremap(size_t index, devid_t devid, uint8_t vector) { (void)index; (void)devid; (void)vector; }
void iommu_reset_intremap(size_t index) { (void)index; }
void iommu_hack_root(physaddr_t root, physaddr_t pdpt) { (void)root; (void)pdpt; }
