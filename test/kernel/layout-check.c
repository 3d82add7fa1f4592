/*
 * Compile-time checks of the kernel's layout and constants against the hv6
 * interface (docs/hv6-model.md §1 and §2.11). gcc compiles this file in
 * test/kernel/gcc.test.ts; a wrong size or value fails the build.
 */
#include "kernel.h"

#define CHECK(e) _Static_assert(e, #e)

/* Struct sizes the NPAGES_* region sizes depend on. */
CHECK(sizeof(struct proc) == 368);
CHECK(sizeof(struct page_desc) == 32);
CHECK(sizeof(struct file) == 40);
CHECK(sizeof(struct pci_func) == 112);
CHECK(sizeof(struct intremap) == 16);
CHECK(sizeof(struct pci_page) == 4);

/* The NPAGES_* numbers, computed the way the map handlers compute them. */
CHECK(bytes_to_pages(NPROC * sizeof(struct proc)) == 6);
CHECK(bytes_to_pages(NFILE * sizeof(struct file)) == 2);
CHECK(bytes_to_pages(NPAGE * sizeof(struct page_desc)) == 64);
CHECK(bytes_to_pages(NPCIDEV * sizeof(struct pci_func)) == 2);

/* Field offsets of struct proc (x86-64 System V layout). */
CHECK(__builtin_offsetof(struct proc, ppid) == 8);
CHECK(__builtin_offsetof(struct proc, ofile) == 56);
CHECK(__builtin_offsetof(struct proc, nr_children) == 184);
CHECK(__builtin_offsetof(struct proc, launched) == 248);
CHECK(__builtin_offsetof(struct proc, ipc_from) == 264);
CHECK(__builtin_offsetof(struct proc, ipc_fd) == 296);
CHECK(__builtin_offsetof(struct proc, intr) == 304);
CHECK(__builtin_offsetof(struct proc, name) == 336);
CHECK(__builtin_offsetof(struct proc, ready) == 352);

/* Global table shapes. */
CHECK(sizeof(pages) == NPAGE * PAGE_SIZE);
CHECK(sizeof(pages[0]) == PAGE_SIZE);
CHECK(sizeof(dmapages) == NDMAPAGE * PAGE_SIZE);
CHECK(sizeof(proc_table) / sizeof(proc_table[0]) == NPROC);
CHECK(sizeof(pcipages) / sizeof(pcipages[0]) == 393216);
CHECK(sizeof(pci_table) / sizeof(pci_table[0]) == 65536);
CHECK(sizeof(io_table) / sizeof(io_table[0]) == 65536);
CHECK(sizeof(vector_table) / sizeof(vector_table[0]) == 256);
CHECK(sizeof(intremap_table) / sizeof(intremap_table[0]) == NINTREMAP);
CHECK(sizeof(current) == 8);

/* Constants. */
CHECK(NPROC == 64 && NPAGE == 8192 && NDMAPAGE == 512 && NOFILE == 16);
CHECK(NFILE == 128 && NPCIDEV == 64 && NINTREMAP == 8);
CHECK(PAGE_SIZE == 4096 && NPTENTRIES == 512);
CHECK(NPCIPAGE == 393216);
CHECK(PCI_START == 0xa0000000UL && PCI_END == 0x100000000UL);
CHECK(INITPID == 1);
CHECK(PTE_PERM_MASK == 0x8000000000000E1FUL);
CHECK(PTE_P == 1 && PTE_W == 2 && PTE_U == 4 && PTE_PWT == 8 && PTE_PCD == 0x10);
CHECK(PTE_A == 0x20 && PTE_D == 0x40 && PTE_PS == 0x80 && PTE_G == 0x100);
CHECK(PTE_AVL == 0xE00 && PTE_NX == 0x8000000000000000UL && PTE_PFN_SHIFT == 12);
CHECK(DMAR_PTE_R == 1 && DMAR_PTE_W == 2 && DMAR_PTE_SNP == 0x800);
CHECK(DMAR_PTE_TM == 0x4000000000000000UL);
CHECK(PTE_ADDR(0xFFFFFFFFFFFFFFFFUL) == 0x000FFFFFFFFFF000UL);
CHECK(ESRCH == 3 && EBADF == 9 && EAGAIN == 11 && ENOMEM == 12 && EACCES == 13);
CHECK(EBUSY == 16 && EEXIST == 17 && EINVAL == 22 && ETXTBSY == 26 && ENOSYS == 38);

/* Type widths and signedness. */
CHECK(sizeof(pid_t) == 8 && (pid_t)-1 < 0);
CHECK(sizeof(off_t) == 8 && (off_t)-1 < 0);
CHECK(sizeof(pn_t) == 8 && (pn_t)-1 > 0);
CHECK(sizeof(fn_t) == 8 && sizeof(pte_t) == 8 && sizeof(iommu_pte_t) == 8);
CHECK(sizeof(devid_t) == 2 && (devid_t)-1 > 0);
CHECK(sizeof(size_t) == 8 && sizeof(uintptr_t) == 8 && sizeof(bool) == 1);

/* Enumerations: values, and 64-bit width through the FORCE_WIDTH member. */
CHECK(PAGE_TYPE_FREE == 0 && PAGE_TYPE_RESERVED == 1 && PAGE_TYPE_PROC_DATA == 2);
CHECK(PAGE_TYPE_FRAME == 3 && PAGE_TYPE_X86_PML4 == 4 && PAGE_TYPE_X86_PDPT == 5);
CHECK(PAGE_TYPE_X86_PD == 6 && PAGE_TYPE_X86_PT == 7 && PAGE_TYPE_IOMMU_PML4 == 8);
CHECK(PAGE_TYPE_IOMMU_PDPT == 9 && PAGE_TYPE_IOMMU_PD == 10 && PAGE_TYPE_IOMMU_PT == 11);
CHECK(PAGE_TYPE_IOMMU_FRAME == 12);
CHECK(PAGE_TYPE_FORCE_WIDTH == 0xffffffffffffffffUL && sizeof(enum page_type) == 8);
CHECK(PROC_UNUSED == 0 && PROC_EMBRYO == 1 && PROC_RUNNABLE == 2 && PROC_RUNNING == 3);
CHECK(PROC_SLEEPING == 4 && PROC_ZOMBIE == 5);
CHECK(PROC_STATE_FORCE_WIDTH == 0xffffffffffffffffUL && sizeof(enum proc_state) == 8);
CHECK(FD_NONE == 0 && FD_PIPE == 1 && FD_INODE == 2 && FD_SOCKET == 3);
CHECK(FD_FORCE_WIDTH == 0xffffffffffffffffUL && sizeof(enum file_type) == 8);
CHECK(IR_FREE == 0 && IR_ACTIVE == 1);
CHECK(IR_FORCE_WIDTH == 0xffffffffffffffffUL && sizeof(enum intremap_state) == 8);
