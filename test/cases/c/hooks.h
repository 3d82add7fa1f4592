/* The built-ins, declared as in the kernel's hooks.h. */
#ifndef CASES_HOOKS_H
#define CASES_HOOKS_H
#include "types.h"
void __osv_assert(bool e);
#define assert(e) __osv_assert(e)
void panic(char *msg);
void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, void *src, size_t n);
void copy_words(uint64_t *dst, uint64_t *src, size_t n);
void hvm_invalidate_tlb(long pid);
void iommu_flush(void);
uint64_t iommu_entry(uint64_t addr, uint64_t perm, size_t level);
#endif
