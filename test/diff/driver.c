/*
 * The native side of the differential test (docs/differential.md): runs
 * kernel handlers compiled by gcc on concrete states read from stdin and
 * reports what each run did. Linked with the kernel's .c files, hooks.c and
 * a generated table.c (the kernel's globals and a handler dispatch).
 *
 * Protocol (text, one command per line, numbers as noted):
 *   S g off size hexvalue   set `size` bytes (1, 2, 4 or 8) at byte `off` of
 *                           global number g (decimal g, off, size)
 *   X h hexarg...           run handler h (decimal) on its arguments
 * Every cell not set since the last X is zero when X runs. Output:
 *   G g name hexaddr size   once at start, for every global; then READY
 *   R status hexret         per X: ok | assert | panic | trap-ill | trap-fpe |
 *                           trap-segv | trap-bus (a trap is a native fault:
 *                           out of bounds, bad shift, division by zero, ...)
 *   F n hexpid...           the hvm_invalidate_tlb calls, in order
 *   I 0|1                   iommu_flush was called
 *   C g off hexbytes        a run of changed bytes of global g, in memory order
 *   E                       end of the case
 *
 * How changes are found without scanning the 40 MiB of globals: while a
 * handler runs, the pages that hold the kernel's globals are read-only; the
 * first write to a page faults, the SIGSEGV handler records the page and
 * makes it writable, and the write is retried. Afterwards only the recorded
 * pages are compared with a shadow copy of the case's initial state and
 * restored; then the cells the case set are zeroed again.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096UL
#define DIFF_MAX_TLB 64

struct diff_global {
    const char *name;
    void *addr;
    unsigned long size;
};

/* table.c (generated) */
extern const struct diff_global diff_globals[];
extern const int diff_nglobals;
extern const int diff_nhandlers;
extern const int diff_nargs[];
int diff_call(int h, const uint64_t *args);

/* hooks.c */
struct diff_hooks {
    long ntlb;
    int64_t tlb[DIFF_MAX_TLB];
    long iotlb;
};
extern struct diff_hooks *diff_hooks;

/* Everything the fault handlers touch, in memory of its own (never write-protected). */
struct run_state {
    sigjmp_buf jb;
    uintptr_t lo, hi;           /* the write-protected range, page aligned */
    unsigned char *shadow;      /* the case's initial bytes of [lo, hi) */
    unsigned char *dirty;       /* per page of [lo, hi): written during this run */
    uintptr_t *dirty_list;
    long ndirty;
    int armed;
};

static struct run_state *st;

void diff_fail(int kind) __attribute__((noreturn));
void diff_fail(int kind)
{
    siglongjmp(st->jb, kind);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    uintptr_t a = (uintptr_t)si->si_addr;
    if (!st->armed) {
        /* A fault of the driver itself: let it happen for real. */
        signal(sig, SIG_DFL);
        return;
    }
    if (sig == SIGSEGV && a >= st->lo && a < st->hi) {
        uintptr_t page = a & ~(PAGE - 1);
        long i = (long)((page - st->lo) / PAGE);
        if (!st->dirty[i]) {
            st->dirty[i] = 1;
            st->dirty_list[st->ndirty++] = page;
            if (mprotect((void *)page, PAGE, PROT_READ | PROT_WRITE) == 0)
                return;
        }
    }
    siglongjmp(st->jb, sig == SIGILL ? 4 : sig == SIGFPE ? 5 : sig == SIGBUS ? 7 : 6);
}

static void *map_zero(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    return p;
}

/* ------------------------------------------------------------- input and output */

static char *in;
static size_t in_len, in_pos;

static void read_all(void)
{
    size_t cap = 1 << 20;
    in = malloc(cap);
    for (;;) {
        if (in_len == cap) {
            cap *= 2;
            in = realloc(in, cap);
        }
        ssize_t n = read(0, in + in_len, cap - in_len);
        if (n < 0) {
            perror("read");
            exit(2);
        }
        if (n == 0)
            break;
        in_len += (size_t)n;
    }
}

static void skip_spaces(void)
{
    while (in_pos < in_len && (in[in_pos] == ' ' || in[in_pos] == '\t' || in[in_pos] == '\r'))
        in_pos++;
}

static int at_eol(void)
{
    skip_spaces();
    return in_pos >= in_len || in[in_pos] == '\n';
}

static uint64_t number(int base)
{
    uint64_t v = 0;
    int digits = 0;
    skip_spaces();
    for (; in_pos < in_len; in_pos++, digits++) {
        char c = in[in_pos];
        int d = c >= '0' && c <= '9' ? c - '0' : base == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            break;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    if (!digits) {
        fprintf(stderr, "driver: expected a number at byte %zu\n", in_pos);
        exit(2);
    }
    return v;
}

static char *out;
static size_t out_len, out_cap;

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(out + out_len, out_cap - out_len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < out_cap - out_len) {
            out_len += (size_t)n;
            return;
        }
        out_cap = out_cap * 2 + (size_t)(n > 0 ? n : 0);
        out = realloc(out, out_cap);
    }
}

static void flush_out(void)
{
    size_t done = 0;
    while (done < out_len) {
        ssize_t n = write(1, out + done, out_len - done);
        if (n <= 0) {
            perror("write");
            exit(2);
        }
        done += (size_t)n;
    }
    out_len = 0;
}

/* ------------------------------------------------------------- cases */

struct cell {
    unsigned char *addr;
    int size;
};

static struct cell *cells;
static long ncells, cells_cap;

static void set_cell(void)
{
    uint64_t g = number(10), off = number(10), size = number(10), v = number(16);
    if (g >= (uint64_t)diff_nglobals || (size != 1 && size != 2 && size != 4 && size != 8) ||
        off + size > diff_globals[g].size) {
        fprintf(stderr, "driver: bad cell S %lu %lu %lu\n", (unsigned long)g, (unsigned long)off, (unsigned long)size);
        exit(2);
    }
    unsigned char *p = (unsigned char *)diff_globals[g].addr + off;
    memcpy(p, &v, size); /* little endian: the low `size` bytes */
    memcpy(st->shadow + ((uintptr_t)p - st->lo), &v, size);
    if (ncells == cells_cap) {
        cells_cap = cells_cap ? cells_cap * 2 : 1024;
        cells = realloc(cells, (size_t)cells_cap * sizeof *cells);
    }
    cells[ncells].addr = p;
    cells[ncells].size = (int)size;
    ncells++;
}

static const char *const STATUS[] = {"ok", "assert", "panic", "?", "trap-ill", "trap-fpe", "trap-segv", "trap-bus"};

/* Reports the changed bytes of the dirty pages, then restores them from the shadow. */
static void report_changes(void)
{
    for (long k = 0; k < st->ndirty; k++) {
        uintptr_t page = st->dirty_list[k];
        for (int g = 0; g < diff_nglobals; g++) {
            uintptr_t a = (uintptr_t)diff_globals[g].addr, b = a + diff_globals[g].size;
            uintptr_t from = a > page ? a : page, to = b < page + PAGE ? b : page + PAGE;
            for (uintptr_t i = from; i < to;) {
                unsigned char *real = (unsigned char *)i, *old = st->shadow + (i - st->lo);
                if (*real == *old) {
                    i++;
                    continue;
                }
                uintptr_t j = i;
                emit("C %d %lu ", g, (unsigned long)(i - a));
                while (j < to && *(unsigned char *)j != st->shadow[j - st->lo]) {
                    emit("%02x", *(unsigned char *)j);
                    j++;
                }
                emit("\n");
                i = j;
            }
            if (from < to)
                memcpy((void *)from, st->shadow + (from - st->lo), to - from);
        }
        st->dirty[(page - st->lo) / PAGE] = 0;
    }
    st->ndirty = 0;
}

/* Where the data segment's file-backed pages end: past it, the globals live in
 * anonymous memory, which reads as zero once released. */
extern char _edata[];

/*
 * Every global is zero again after a case (restored from the shadow, then the
 * cells cleared), so the pages that lie wholly inside a global are given back
 * to the kernel. Otherwise each page a case ever touched stays mapped, and
 * protecting the 40 MiB range twice per case walks all of them: that walk was
 * about two thirds of the driver's time.
 */
static void release_pages(void)
{
    uintptr_t anon = ((uintptr_t)_edata + PAGE - 1) & ~(PAGE - 1);
    for (int g = 0; g < diff_nglobals; g++) {
        uintptr_t a = ((uintptr_t)diff_globals[g].addr + PAGE - 1) & ~(PAGE - 1);
        uintptr_t b = ((uintptr_t)diff_globals[g].addr + diff_globals[g].size) & ~(PAGE - 1);
        if (a < anon)
            a = anon;
        if (b > a && madvise((void *)a, b - a, MADV_DONTNEED) != 0) {
            perror("madvise");
            exit(2);
        }
    }
}

static void run_case(void)
{
    uint64_t args[8] = {0};
    int h = (int)number(10);
    if (h < 0 || h >= diff_nhandlers) {
        fprintf(stderr, "driver: bad handler %d\n", h);
        exit(2);
    }
    for (int i = 0; i < diff_nargs[h]; i++)
        args[i] = number(16);

    memset(diff_hooks, 0, sizeof *diff_hooks);
    volatile int ret = 0;
    int status = sigsetjmp(st->jb, 1);
    if (status == 0) {
        st->armed = 1;
        if (mprotect((void *)st->lo, st->hi - st->lo, PROT_READ) != 0) {
            perror("mprotect");
            exit(2);
        }
        ret = diff_call(h, args);
    }
    if (mprotect((void *)st->lo, st->hi - st->lo, PROT_READ | PROT_WRITE) != 0) {
        perror("mprotect");
        exit(2);
    }
    st->armed = 0;

    emit("R %s %x\n", STATUS[status], (unsigned)ret);
    emit("F %ld", diff_hooks->ntlb);
    for (long i = 0; i < diff_hooks->ntlb && i < DIFF_MAX_TLB; i++)
        emit(" %lx", (unsigned long)diff_hooks->tlb[i]);
    emit("\nI %ld\n", diff_hooks->iotlb);
    report_changes();
    for (long i = 0; i < ncells; i++) {
        memset(cells[i].addr, 0, (size_t)cells[i].size);
        memset(st->shadow + ((uintptr_t)cells[i].addr - st->lo), 0, (size_t)cells[i].size);
    }
    ncells = 0;
    release_pages();
    emit("E\n");
    flush_out();
}

int main(void)
{
    st = map_zero(sizeof *st);
    diff_hooks = map_zero(sizeof *diff_hooks);

    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int g = 0; g < diff_nglobals; g++) {
        uintptr_t a = (uintptr_t)diff_globals[g].addr;
        if (a < lo)
            lo = a;
        if (a + diff_globals[g].size > hi)
            hi = a + diff_globals[g].size;
    }
    st->lo = lo & ~(PAGE - 1);
    st->hi = (hi + PAGE - 1) & ~(PAGE - 1);
    long npages = (long)((st->hi - st->lo) / PAGE);
    /* The kernel's globals start zero (.bss), and so does the shadow. */
    st->shadow = map_zero(st->hi - st->lo);
    st->dirty = map_zero((size_t)npages);
    st->dirty_list = map_zero((size_t)npages * sizeof(uintptr_t));

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);

    out_cap = 1 << 16;
    out = malloc(out_cap);
    for (int g = 0; g < diff_nglobals; g++)
        emit("G %d %s %lx %lu\n", g, diff_globals[g].name, (unsigned long)diff_globals[g].addr, diff_globals[g].size);
    emit("READY\n");
    flush_out();

    read_all();
    while (in_pos < in_len) {
        skip_spaces();
        if (in_pos >= in_len)
            break;
        char c = in[in_pos++];
        if (c == '\n')
            continue;
        if (c == 'S')
            set_cell();
        else if (c == 'X')
            run_case();
        else {
            fprintf(stderr, "driver: unknown command '%c' at byte %zu\n", c, in_pos - 1);
            return 2;
        }
        if (!at_eol()) {
            fprintf(stderr, "driver: junk at byte %zu\n", in_pos);
            return 2;
        }
    }
    return 0;
}
