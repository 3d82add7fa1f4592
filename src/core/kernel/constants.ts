/**
 * Constants, sorts and enumerations of the hv6 interface (docs/hv6-model.md §1).
 * These are the values the `dt` namespace of the spec dialect exposes and the
 * values the kernel's C headers define; a test checks the two agree.
 */

export const NPAGE = 8192;
export const NDMAPAGE = 512;
export const NPROC = 64;
export const NOFILE = 16;
export const NFILE = 128;
export const NPCIDEV = 64;
export const NINTREMAP = 8;
export const PAGE_SIZE = 4096;
export const PAGE_SHIFT = 12;
export const PCI_START = 0xa0000000n;
export const PCI_END = 0x100000000n;
export const NPCIPAGE = Number((PCI_END - PCI_START) / BigInt(PAGE_SIZE)); // 393216
export const INITPID = 1n;
export const MAX_INT64 = (1n << 64n) - 1n;

/** Region sizes in pages, as the kernel lays its tables out. */
export const NPAGES = {
  NPAGES_PAGES: NPAGE,
  NPAGES_PROC_TABLE: 6,
  NPAGES_FILE_TABLE: 2,
  NPAGES_PAGE_DESC_TABLE: 64,
  NPAGES_DEVICES: 2,
} as const;

/** Page-table entry bits; all 64-bit. */
export const PTE = {
  PTE_P: 0x1n,
  PTE_W: 0x2n,
  PTE_U: 0x4n,
  PTE_PWT: 0x8n,
  PTE_PCD: 0x10n,
  PTE_A: 0x20n,
  PTE_D: 0x40n,
  PTE_PS: 0x80n,
  PTE_G: 0x100n,
  PTE_AVL: 0xe00n,
  PTE_NX: 0x8000000000000000n,
  PTE_PERM_MASK: 0x8000000000000e1fn,
  DMAR_PTE_R: 0x1n,
  DMAR_PTE_W: 0x2n,
  DMAR_PTE_SNP: 0x800n,
  DMAR_PTE_TM: 0x4000000000000000n,
  PTE_PFN_SHIFT: 12n,
  DMAR_PTE_ADDR_SHIFT: 12n,
} as const;

/** Shadow page-table entry kinds (ghost), 64-bit. */
export const PGTYPE = {
  PGTYPE_PAGE: 0n,
  PGTYPE_PROC: 1n,
  PGTYPE_PAGE_DESC: 2n,
  PGTYPE_FILE_TABLE: 3n,
  PGTYPE_DEVICES: 4n,
  PGTYPE_PCIPAGE: 5n,
  PGTYPE_IOMMU_FRAME: 6n,
  PGTYPE_NONE: 7n,
} as const;

const FORCE_WIDTH = MAX_INT64;

/** The enumerations, by `dt` class name; every member is a 64-bit value. */
export const ENUMS = {
  page_type: {
    PAGE_TYPE_FREE: 0n,
    PAGE_TYPE_RESERVED: 1n,
    PAGE_TYPE_PROC_DATA: 2n,
    PAGE_TYPE_FRAME: 3n,
    PAGE_TYPE_X86_PML4: 4n,
    PAGE_TYPE_X86_PDPT: 5n,
    PAGE_TYPE_X86_PD: 6n,
    PAGE_TYPE_X86_PT: 7n,
    PAGE_TYPE_IOMMU_PML4: 8n,
    PAGE_TYPE_IOMMU_PDPT: 9n,
    PAGE_TYPE_IOMMU_PD: 10n,
    PAGE_TYPE_IOMMU_PT: 11n,
    PAGE_TYPE_IOMMU_FRAME: 12n,
    PAGE_TYPE_FORCE_WIDTH: FORCE_WIDTH,
  },
  proc_state: {
    PROC_UNUSED: 0n,
    PROC_EMBRYO: 1n,
    PROC_RUNNABLE: 2n,
    PROC_RUNNING: 3n,
    PROC_SLEEPING: 4n,
    PROC_ZOMBIE: 5n,
    PROC_STATE_FORCE_WIDTH: FORCE_WIDTH,
  },
  file_type: {
    FD_NONE: 0n,
    FD_PIPE: 1n,
    FD_INODE: 2n,
    FD_SOCKET: 3n,
    FD_FORCE_WIDTH: FORCE_WIDTH,
  },
  intremap_state: {
    IR_FREE: 0n,
    IR_ACTIVE: 1n,
    IR_FORCE_WIDTH: FORCE_WIDTH,
  },
} as const;

/** All enum members by name, flattened (the C headers define them unqualified). */
export const ENUM_MEMBERS: Record<string, bigint> = Object.assign({}, ...Object.values(ENUMS));

/** Negated return values (errno) used by the handlers. */
export const ERRNO = {
  ESRCH: 3,
  EBADF: 9,
  EAGAIN: 11,
  ENOMEM: 12,
  EACCES: 13,
  EBUSY: 16,
  EEXIST: 17,
  EINVAL: 22,
  ETXTBSY: 26,
  ENOSYS: 38,
} as const;

/** The `dt` sorts: name -> width (0 = Bool). */
export const SORTS: Record<string, number> = {
  bool_t: 0,
  size_t: 64,
  uint64_t: 64,
  ssize_t: 64,
  int64_t: 64,
  uint32_t: 32,
  int32_t: 32,
  int: 32,
  uint16_t: 16,
  int16_t: 16,
  uint8_t: 8,
  int8_t: 8,
  pn_t: 64,
  dmapn_t: 64,
  fn_t: 64,
  fd_t: 32,
  pte_t: 64,
  dmar_pte_t: 64,
  pid_t: 64,
  off_t: 64,
  devid_t: 16,
  uintptr_t: 64,
  physaddr_t: 64,
  page_type_t: 64,
  proc_state_t: 64,
  file_type_t: 64,
  intremap_state_t: 64,
};
