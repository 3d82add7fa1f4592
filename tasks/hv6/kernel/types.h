/*
 * Fixed-width integer types for the hv6 kernel (LP64, x86-64).
 * The kernel includes no system headers; everything it needs is here.
 */
#ifndef HV6_TYPES_H
#define HV6_TYPES_H

typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long int64_t;
typedef unsigned long uint64_t;

typedef unsigned long size_t;
typedef long ssize_t;
typedef unsigned long uintptr_t;
typedef long intptr_t;

typedef _Bool bool;
#define true 1
#define false 0

/* Kernel object identifiers. pid_t and off_t are signed, like upstream. */
typedef int64_t pid_t;       /* process id; valid pids are 1 .. NPROC-1 */
typedef uint64_t pn_t;       /* RAM page number */
typedef uint64_t dmapn_t;    /* DMA page number */
typedef uint64_t fn_t;       /* file-table index; valid fns are 1 .. NFILE-1 */
typedef uint64_t pte_t;      /* x86 page-table entry */
typedef uint64_t iommu_pte_t; /* IOMMU page-table entry */
typedef uint16_t devid_t;    /* PCI bus/device/function */
typedef int64_t off_t;
typedef uintptr_t physaddr_t;

#endif
