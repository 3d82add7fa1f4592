/*
 * Kernel-wide declarations: validity predicates, accessors, the shared
 * helpers and the 50 verified handlers. Every function here is defined in
 * exactly one .c file (the verifier links all of them into one program).
 */
#ifndef HV6_KERNEL_H
#define HV6_KERNEL_H

#include "types.h"
#include "param.h"
#include "hooks.h"
#include "state.h"

/* Validity of identifiers (lib.c). */
bool is_pid_valid(pid_t pid);
bool is_pn_valid(pn_t pn);
bool is_dmapn_valid(dmapn_t dmapn);
bool is_fn_valid(fn_t fn);
bool is_fd_valid(int fd);
bool is_intremap_valid(size_t index);

/* Side-effect-free state predicates (lib.c); each includes the range check. */
bool is_page_type(pn_t pn, enum page_type type);
bool is_page_pid(pn_t pn, pid_t pid);
bool is_proc_state(pid_t pid, enum proc_state state);
bool is_current_or_embryo(pid_t pid);
bool is_file_type(fn_t fn, enum file_type type);
bool is_dmapage_type(dmapn_t dmapn, enum page_type type);
bool is_dmapage_pid(dmapn_t dmapn, pid_t pid);
bool is_intremap_state(size_t index, enum intremap_state state);

/* Accessors; each asserts that its index is valid (lib.c). */
struct proc *get_proc(pid_t pid);
struct page_desc *get_page_desc(pn_t pn);
uint64_t *get_page(pn_t pn);
struct file *get_file(fn_t fn);
fn_t get_fd(pid_t pid, int fd);
uint64_t pn_to_pfn(pn_t pn);

/* Pages (page.c, vm.c). */
void page_freelist_del(pn_t pn);
void page_freelist_add(pn_t pn);
void alloc_page(pid_t pid, enum page_type type, pn_t pn);
void free_page(pn_t pn);
int map_page(pid_t pid, pn_t from, size_t index, uint64_t pfn, pte_t perm,
             enum page_type from_type);
int alloc_page_table_page(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm,
                          enum page_type from_type, enum page_type to_type);
int free_page_table_page(pn_t from, size_t index, pn_t to,
                         enum page_type from_type, enum page_type to_type);

/* Processes (proc.c). */
void proc_ready_add(pid_t pid);
void proc_ready_del(pid_t pid);
void proc_zero(struct proc *p);
void flush_current(void);
int alloc_proc(pid_t pid, pn_t pml4, pn_t stack, pn_t hvm);
void free_proc(pid_t pid);

/* IPC (ipc.c). */
int send_recv(pid_t pid, uint64_t val, pn_t inpn, size_t size, int infd,
              pn_t outpn, int outfd);

/* File descriptors (fd.c). */
void set_fd(pid_t pid, int fd, fn_t fn);
void clear_fd(pid_t pid, int fd);

/* IOMMU (device.c). */
int map_iommu_page_table_page(pn_t from, size_t index, physaddr_t pa,
                              iommu_pte_t perm, enum page_type from_type);
int alloc_iommu_page_table_page(pn_t from, size_t index, pn_t to, iommu_pte_t perm,
                                enum page_type from_type, enum page_type to_type);

/* The verified handlers (docs/hv6-model.md §7.1), in the verifier's order. */
int sys_map_pml4(pid_t pid, size_t index, pte_t perm);
int sys_map_page_desc(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm);
int sys_map_proc(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm);
int sys_map_dev(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm);
int sys_map_file(pid_t pid, pn_t from, size_t index, size_t n, pte_t perm);
int sys_alloc_pdpt(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm);
int sys_alloc_pd(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm);
int sys_alloc_pt(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm);
int sys_alloc_frame(pid_t pid, pn_t from, size_t index, pn_t to, pte_t perm);
int sys_copy_frame(pn_t from, pid_t pid, pn_t to);
int sys_protect_frame(pn_t pt, size_t index, pn_t frame, pte_t perm);
int sys_free_pdpt(pn_t from, size_t index, pn_t to);
int sys_free_pd(pn_t from, size_t index, pn_t to);
int sys_free_pt(pn_t from, size_t index, pn_t to);
int sys_free_frame(pn_t from, size_t index, pn_t to);
int sys_reclaim_page(pn_t pn);
int clone_proc(pid_t pid, pn_t pml4, pn_t stack, pn_t hvm);
int sys_set_proc_name(uint64_t name0, uint64_t name1);
int sys_set_runnable(pid_t pid);
int switch_proc(pid_t pid);
int sys_kill(pid_t pid);
int sys_reap(pid_t pid);
int sys_reparent(pid_t pid);
int send_proc(pid_t pid, uint64_t val, pn_t pn, size_t size, int fd);
int recv_proc(pid_t pid, pn_t pn, int fd);
int reply_wait_proc(pid_t pid, uint64_t val, pn_t inpn, size_t size, int infd, pn_t outpn);
int call_proc(pid_t pid, uint64_t val, pn_t inpn, size_t size, pn_t outpn, int outfd);
int sys_create(int fd, fn_t fn, uint64_t type, uint64_t value, uint64_t omode);
int sys_close(pid_t pid, int fd);
int sys_dup(int oldfd, pid_t pid, int newfd);
int sys_dup2(int oldfd, pid_t pid, int newfd);
int sys_lseek(int fd, off_t offset);
int sys_map_pcipage(pn_t pt, size_t index, pn_t pcipn, pte_t perm);
int sys_alloc_iommu_root(devid_t devid, pn_t pn);
int sys_alloc_iommu_pdpt(pn_t from, size_t index, pn_t to, iommu_pte_t perm);
int sys_alloc_iommu_pd(pn_t from, size_t index, pn_t to, iommu_pte_t perm);
int sys_alloc_iommu_pt(pn_t from, size_t index, pn_t to, iommu_pte_t perm);
int sys_alloc_iommu_frame(pn_t from, size_t index, dmapn_t to, iommu_pte_t perm);
int sys_map_iommu_frame(pn_t pt, size_t index, dmapn_t to, pte_t perm);
int sys_reclaim_iommu_frame(dmapn_t dmapn);
int sys_reclaim_iommu_root(devid_t devid);
int sys_alloc_vector(uint8_t vector);
int sys_reclaim_vector(uint8_t vector);
int sys_alloc_intremap(size_t index, devid_t devid, uint8_t vector);
int sys_reclaim_intremap(size_t index);
int sys_ack_intr(uint8_t vector);
int sys_alloc_io_bitmap(pn_t pn1, pn_t pn2, pn_t pn3);
int sys_alloc_port(uint16_t port);
int sys_reclaim_port(uint16_t port);
int extintr(uint8_t vector);

#endif
