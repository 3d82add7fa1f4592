/*
 * Built-ins and hardware hooks. Only declarations: the verifier gives each
 * a model (docs/c-subset.md, "Built-ins and hooks"), and a test harness
 * supplies bodies when the kernel is compiled for real.
 */
#ifndef HV6_HOOKS_H
#define HV6_HOOKS_H

#include "types.h"

/* A safety condition: the verifier proves `e` holds on every path. */
void __osv_assert(bool e);
#define assert(e) __osv_assert(e)
/* Unreachable: the verifier proves no path gets here. */
void panic(char *msg);

/* Whole-array operations: `n` must be the size of the array in bytes. */
void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, void *src, size_t n);
/* IPC copy with word semantics: dst[i] = src[i] for every word i < n. */
void copy_words(uint64_t *dst, uint64_t *src, size_t n);

/* TLB shootdown for pid's address space (sets the verifier flag #tlbinv(pid)). */
void hvm_invalidate_tlb(pid_t pid);
/* IOTLB flush (sets the verifier flag #iotlbinv). */
void iommu_flush(void);
/* An IOMMU entry for physical address `addr` at `level`; modelled as addr | perm. */
uint64_t iommu_entry(uint64_t addr, uint64_t perm, size_t level);

/* Hooks with no modelled effect. */
void hvm_set_cr3(uint64_t *hvm, physaddr_t pml4);
void hvm_copy(uint64_t *dst_hvm, uint64_t *src_hvm, pid_t pid);
void hvm_flush(uint64_t *hvm);
void hvm_set_io_bitmap(uint64_t *hvm, uint64_t *bitmap);
void iommu_set_dev_root(devid_t devid, physaddr_t root);
void iommu_reset_dev_root(devid_t devid);
void iommu_set_intremap(size_t index, devid_t devid, uint8_t vector);
void iommu_reset_intremap(size_t index);
void iommu_hack_root(physaddr_t root, physaddr_t pdpt);

#endif
