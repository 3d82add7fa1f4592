/*
 * Kernel constants: table sizes, addresses, errno values and page-table
 * entry bits. The values are interface facts (docs/hv6-model.md §1).
 */
#ifndef HV6_PARAM_H
#define HV6_PARAM_H

#define NPROC 64         /* process table; pid 0 is never used */
#define NPAGE 8192       /* RAM pages */
#define NDMAPAGE 512     /* DMA pages */
#define NOFILE 16        /* file descriptors per process */
#define NFILE 128        /* file table; fn 0 means "no file" */
#define NPCIDEV 64       /* PCI function metadata slots */
#define NINTREMAP 8      /* interrupt-remapping entries */
#define NVECTOR 256      /* interrupt vectors */
#define NPORT 65536      /* I/O ports */
#define NDEVID 65536     /* PCI device ids (devid_t is 16 bits) */

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define NPTENTRIES 512   /* 64-bit entries (words) per page */

#define PCI_START 0xa0000000UL
#define PCI_END 0x100000000UL
#define NPCIPAGE ((PCI_END - PCI_START) / PAGE_SIZE)

#define NULLPID 0
#define INITPID 1

/* Round a byte count up to whole pages. */
#define bytes_to_pages(n) (((n) + PAGE_SIZE - 1) / PAGE_SIZE)

/* errno values; handlers return them negated. */
#define ESRCH 3
#define EBADF 9
#define EAGAIN 11
#define ENOMEM 12
#define EACCES 13
#define EBUSY 16
#define EEXIST 17
#define EINVAL 22
#define ETXTBSY 26
#define ENOSYS 38

/* x86 page-table entry bits. */
#define PTE_P 0x1UL
#define PTE_W 0x2UL
#define PTE_U 0x4UL
#define PTE_PWT 0x8UL
#define PTE_PCD 0x10UL
#define PTE_A 0x20UL
#define PTE_D 0x40UL
#define PTE_PS 0x80UL
#define PTE_G 0x100UL
#define PTE_AVL 0xE00UL
#define PTE_NX 0x8000000000000000UL
/* The bits a user may put in a mapping's permission. */
#define PTE_PERM_MASK (PTE_P | PTE_W | PTE_U | PTE_PWT | PTE_PCD | PTE_AVL | PTE_NX)
#define PTE_PFN_SHIFT 12
/* The physical-address field of an entry, bits 51..12. */
#define PTE_ADDR(pte) ((pte) & 0x000FFFFFFFFFF000UL)

/* IOMMU (DMA remapping) entry bits. */
#define DMAR_PTE_R 0x1UL
#define DMAR_PTE_W 0x2UL
#define DMAR_PTE_SNP 0x800UL
#define DMAR_PTE_TM 0x4000000000000000UL
#define DMAR_PTE_ADDR_SHIFT 12

#endif
