/**
 * The kernel's vocabulary as the mutation operators read it: which helpers
 * test ownership, which calls release an object, how bounds, cleared values,
 * owner tables and permission bits are spelled in `tasks/hv6/kernel/`. This
 * is the only place the operators name hv6 identifiers; a kernel with other
 * names changes this file and nothing else.
 */

/** Ownership predicates: everything they test is a privilege check. */
export const OWNERSHIP_PREDICATES: ReadonlySet<string> = new Set(['is_current_or_embryo', 'is_page_pid', 'is_dmapage_pid', 'is_pcipn_pid']);

/** Release helpers whose call a leak drops. */
export const RELEASES: ReadonlySet<string> = new Set(['free_page', 'clear_fd', 'free_proc']);

/** Spellings of an upper bound: table sizes, the page size, a count parameter. */
export const UPPER_BOUND = /^(N[A-Z]+|PAGE_SIZE|npages|PORTS_PER_BITMAP)$/;

/** Spellings of the "empty" values a clearing store writes. */
export const CLEARED = /^(0|0UL|NULLPID|[A-Z_]*_(FREE|NONE|UNUSED))$/;

/** Owner tables: comparing an entry is an ownership test. */
export const OWNER_TABLES: ReadonlySet<string> = new Set(['pci_table', 'vector_table', 'io_table']);

/** Struct fields that name an owner (or a privilege): comparing one is an ownership test. */
export const OWNER_FIELDS: ReadonlySet<string> = new Set(['ppid', 'pid', 'use_io_bitmap']);

/** The field whose mere test is a privilege check. */
export const PRIVILEGE_FIELD = 'use_io_bitmap';

/** Permission bits: a condition that mentions one is a permission check. */
export const PERMISSION_BITS = /\b(PTE_W|PTE_PERM_MASK|DMAR_PTE_R|DMAR_PTE_W)\b/;

/** The errno of a failed permission or ownership check. */
export const PRIVILEGE_ERRNO = 'EACCES';

/** The global holding the calling process, and the type of process ids. */
export const CURRENT = 'current';
export const PID_TYPE = 'pid_t';
