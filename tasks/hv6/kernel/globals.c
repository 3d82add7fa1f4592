/*
 * The global tables. No initializers: the boot code fills them, and the
 * verifier starts from any state that satisfies the invariants.
 */
#include "state.h"

struct proc proc_table[NPROC] __attribute__((aligned(4096)));
pid_t current;
struct page_desc page_desc_table[NPAGE] __attribute__((aligned(4096)));
uint64_t pages[NPAGE][PAGE_SIZE / 8] __attribute__((aligned(4096)));
struct file file_table[NFILE] __attribute__((aligned(4096)));
struct pci_func devices[NPCIDEV] __attribute__((aligned(4096)));
uint8_t dmapages[NDMAPAGE][PAGE_SIZE] __attribute__((aligned(2097152)));
struct page_desc dmapage_desc_table[NDMAPAGE];
struct pci_page pcipages[NPCIPAGE];
pid_t pci_table[NDEVID];
pid_t vector_table[NVECTOR];
pid_t io_table[NPORT];
struct intremap intremap_table[NINTREMAP];
