/*
 * Page ownership. A page is FREE (owner 0) or owned by a valid pid with a
 * type; every owned page is counted in its owner's nr_pages. FREE pages
 * also sit on a circular free list through page_desc_table[].link whose
 * head is page 0, free or not (page 0 is never linked or unlinked). Nothing
 * in a system call walks that list; it only has to stay well formed (every
 * link < NPAGE).
 */
#include "kernel.h"

/* Take pn (not the head) off the free list. */
void page_freelist_del(pn_t pn)
{
    struct page_desc *desc = get_page_desc(pn);
    pn_t prev = desc->link.prev;
    pn_t next = desc->link.next;

    get_page_desc(prev)->link.next = next;
    get_page_desc(next)->link.prev = prev;
    desc->link.prev = 0;
    desc->link.next = 0;
}

/* Put pn (not the head) on the free list, right after the head. */
void page_freelist_add(pn_t pn)
{
    struct page_desc *head = get_page_desc(0);
    struct page_desc *desc = get_page_desc(pn);
    pn_t next = head->link.next;

    desc->link.prev = 0;
    desc->link.next = next;
    get_page_desc(next)->link.prev = pn;
    head->link.next = pn;
}

/* Give the FREE page pn to pid as a zeroed page of the given type. */
void alloc_page(pid_t pid, enum page_type type, pn_t pn)
{
    struct page_desc *desc = get_page_desc(pn);

    assert(desc->type == PAGE_TYPE_FREE);
    desc->pid = pid;
    desc->type = type;
    if (pn != 0)
        page_freelist_del(pn);
    memset(get_page(pn), 0, PAGE_SIZE);
    get_proc(pid)->nr_pages++;
}

/* Return the owned page pn to the free pool. Its contents are kept. */
void free_page(pn_t pn)
{
    struct page_desc *desc = get_page_desc(pn);
    pid_t owner = desc->pid;

    assert(desc->type != PAGE_TYPE_FREE);
    desc->pid = 0;
    desc->type = PAGE_TYPE_FREE;
    if (pn != 0)
        page_freelist_add(pn);
    /* A page that is not FREE has a valid owner (invariant). */
    get_proc(owner)->nr_pages--;
}
