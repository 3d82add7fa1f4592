/*
 * The kernel's global state: enumerations, table layouts and the global
 * tables themselves. Names, field order and C types are interface facts
 * (docs/hv6-model.md §2.11): the verifier finds the globals by name and relates
 * their fields to the abstract state.
 */
#ifndef HV6_STATE_H
#define HV6_STATE_H

#include "types.h"
#include "param.h"

/*
 * Each enumeration has an all-ones member so that it is 64 bits wide; struct
 * fields of these types are `: 64` bit-fields, i.e. plain 64-bit fields.
 */
enum page_type {
    PAGE_TYPE_FREE = 0,
    PAGE_TYPE_RESERVED = 1,
    PAGE_TYPE_PROC_DATA = 2,
    PAGE_TYPE_FRAME = 3,
    PAGE_TYPE_X86_PML4 = 4,
    PAGE_TYPE_X86_PDPT = 5,
    PAGE_TYPE_X86_PD = 6,
    PAGE_TYPE_X86_PT = 7,
    PAGE_TYPE_IOMMU_PML4 = 8,
    PAGE_TYPE_IOMMU_PDPT = 9,
    PAGE_TYPE_IOMMU_PD = 10,
    PAGE_TYPE_IOMMU_PT = 11,
    PAGE_TYPE_IOMMU_FRAME = 12,
    PAGE_TYPE_FORCE_WIDTH = 0xffffffffffffffffUL
};

enum proc_state {
    PROC_UNUSED = 0,
    PROC_EMBRYO = 1,
    PROC_RUNNABLE = 2,
    PROC_RUNNING = 3,
    PROC_SLEEPING = 4,
    PROC_ZOMBIE = 5,
    PROC_STATE_FORCE_WIDTH = 0xffffffffffffffffUL
};

enum file_type {
    FD_NONE = 0,
    FD_PIPE = 1,
    FD_INODE = 2,
    FD_SOCKET = 3,
    FD_FORCE_WIDTH = 0xffffffffffffffffUL
};

enum intremap_state {
    IR_FREE = 0,
    IR_ACTIVE = 1,
    IR_FORCE_WIDTH = 0xffffffffffffffffUL
};

/* A node of the circular ready queue, linked through proc_table. */
struct proc_link {
    pid_t prev;
    pid_t next;
};

/* A node of the circular page free list (head: page 0). */
struct page_link {
    pn_t prev;
    pn_t next;
};

struct proc {
    enum proc_state state : 64;
    pid_t ppid;
    pn_t page_table_root;    /* X86_PML4 page */
    pn_t stack;              /* PROC_DATA page */
    pn_t hvm;                /* PROC_DATA page: the saved virtual-machine state */
    pn_t io_bitmap_a;        /* ports 0x0000 .. 0x7fff, valid if use_io_bitmap */
    pn_t io_bitmap_b;        /* ports 0x8000 .. 0xffff */
    fn_t ofile[NOFILE];      /* 0 or a valid fn */
    /* How many objects of each kind the process owns. */
    size_t nr_children;
    size_t nr_fds;
    size_t nr_pages;
    size_t nr_dmapages;
    size_t nr_devs;
    size_t nr_ports;
    size_t nr_vectors;
    size_t nr_intremaps;
    int launched;            /* the hvm state has been entered (not modelled) */
    int killed;
    int use_io_bitmap;
    /* IPC: who sent, what, and where a sleeping receiver wants it. */
    pid_t ipc_from;
    uint64_t ipc_val;
    pn_t ipc_page;
    size_t ipc_size;
    int ipc_fd;
    unsigned long intr[4];   /* 256-bit set of pending interrupt vectors */
    uint64_t name[2];        /* for debugging (not modelled) */
    struct proc_link ready;  /* ready queue (not modelled) */
};

struct page_desc {
    enum page_type type : 64;
    pid_t pid;               /* owner; a valid pid iff type != FREE */
    struct page_link link;   /* free list (not modelled) */
};

struct file {
    enum file_type type : 64;
    size_t refcnt;           /* number of (pid, fd) slots that hold this fn */
    uint64_t value;
    uint64_t omode;
    size_t offset;
};

/* PCI function metadata, exported read-only to user space. */
struct pci_func {
    devid_t devid;
    uint16_t vendor;
    uint16_t product;
    uint8_t class;
    uint8_t subclass;
    uint8_t interface;
    uint8_t revision;
    uint64_t reg_base[6];
    uint64_t reg_size[6];
};

/* A page of the PCI hole: which device's registers it holds. */
struct pci_page {
    devid_t devid;
    bool valid;
};

struct intremap {
    enum intremap_state state : 64;
    devid_t devid;
    uint8_t vector;
};

/* The sizes the kernel-table mappings depend on (docs/hv6-model.md §1.6). */
_Static_assert(sizeof(struct proc) == 368, "struct proc layout");
_Static_assert(sizeof(struct page_desc) == 32, "struct page_desc layout");
_Static_assert(sizeof(struct file) == 40, "struct file layout");
_Static_assert(sizeof(struct pci_func) == 112, "struct pci_func layout");
_Static_assert(NPCIPAGE == 393216, "PCI hole size");
_Static_assert(PTE_PERM_MASK == 0x8000000000000E1FUL, "user permission bits");

extern struct proc proc_table[NPROC];
extern pid_t current;
extern struct page_desc page_desc_table[NPAGE];
extern uint64_t pages[NPAGE][PAGE_SIZE / 8];
extern struct file file_table[NFILE];
extern struct pci_func devices[NPCIDEV];
extern uint8_t dmapages[NDMAPAGE][PAGE_SIZE];
extern struct page_desc dmapage_desc_table[NDMAPAGE];
extern struct pci_page pcipages[NPCIPAGE];
extern pid_t pci_table[NDEVID];       /* owner of each device; 0 = free */
extern pid_t vector_table[NVECTOR];   /* owner of each vector; 0 = free, -1 = kernel */
extern pid_t io_table[NPORT];         /* owner of each port; 0 = free, -1 = kernel */
extern struct intremap intremap_table[NINTREMAP];

#endif
