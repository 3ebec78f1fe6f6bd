/* Per-thread heap counts (alloc_track.h).  Two mechanisms, one per kind of build:
 *
 *  - a normal build replaces glibc's allocation functions with these, which count and call glibc's
 *    own (__libc_malloc and friends, exported for this purpose: the glibc manual's "Replacing
 *    malloc").  Being in the executable, they take every call of the process, libc's and
 *    libstdc++'s included.  Every function that returns heap memory is replaced, so that every
 *    block free() subtracts was added (reallocarray would otherwise reach glibc's realloc
 *    without passing here).
 *  - under AddressSanitizer the sanitizer owns malloc: its allocator hooks count instead.
 *
 * The counts are thread-local (_Thread_local in the executable: initial-exec TLS, which needs no
 * allocation to reach, so malloc may use it), so that a measurement on one thread is not
 * disturbed by another's work. */
#include "harness/measure/alloc_track.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

static _Thread_local long long t_live, t_peak;
static _Thread_local unsigned long long t_calls;

static inline void count_alloc(long long bytes)
{
    t_live += bytes;
    if (t_live > t_peak)
        t_peak = t_live;
    t_calls++;
}

void alloc_track_read(alloc_counts *out)
{
    out->live = t_live;
    out->peak = t_peak;
    out->calls = t_calls;
}

void alloc_track_reset_peak(void)
{
    t_peak = t_live;
}

#if defined(__SANITIZE_ADDRESS__)
#define ALLOC_TRACK_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ALLOC_TRACK_SANITIZER 1
#endif
#endif

#ifdef ALLOC_TRACK_SANITIZER

/* the sanitizer runtime's interface (sanitizer/allocator_interface.h, which gcc does not install) */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *));
size_t __sanitizer_get_allocated_size(const volatile void *p);

static void on_malloc(const volatile void *p, size_t size)
{
    (void)p;
    count_alloc((long long)size);
}

static void on_free(const volatile void *p)
{
    /* called before the block is freed: its size is still known */
    if (p)
        t_live -= (long long)__sanitizer_get_allocated_size(p);
}

__attribute__((constructor)) static void install_hooks(void)
{
    __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
}

bool alloc_track_active(void)
{
    return true;
}

const char *alloc_track_mechanism(void)
{
    return "AddressSanitizer's allocator hooks (requested bytes)";
}

#elif defined(__GLIBC__)

#define ALLOC_TRACK_WINDOW 1
#include <malloc.h>
#include <stdlib.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t alignment, size_t size);
void *__libc_valloc(size_t size);
void *__libc_pvalloc(size_t size);
void __libc_free(void *p);

/* Inside a window (alloc_track_window) a block is counted at the size glibc gives its request from
 * a fresh split of the heap, not at malloc_usable_size: glibc hands out a whole free chunk when
 * splitting it would leave less than its 32-byte minimum, so the same request reads 16 bytes more or
 * less with the heap's history, and a block of 128 KiB or more is mapped or not with a threshold that
 * moves as the process frees (measured: ACL's sampler of the jump at 8,040 and 8,056 bytes in two runs
 * of one build).  A mapped or over-aligned block is counted at that heap figure too, not at what glibc
 * gives it.  What a window counts is kept per block, in a table of this thread's (open addressing,
 * grown as needed, in memory from glibc's own entry points so that it is not counted), so that free
 * takes off what was put on; alloc_track_window_forget empties it. */
typedef struct window_block {
    void *p; /* NULL: an empty slot */
    long long bytes;
} window_block;
static _Thread_local bool t_window, t_window_inexact;
static _Thread_local window_block *t_blocks;
static _Thread_local size_t t_blocks_cap, t_blocks_count; /* cap 0 or a power of two, at most half full */

/* glibc's request2size less its 8-byte header: the request plus 8, rounded up to 16, 32 at least */
static long long fresh_usable(size_t size)
{
    const size_t chunk = size + 8 + 15 < 32 ? 32 : (size + 8 + 15) & ~(size_t)15;
    return (long long)chunk - 8;
}

static size_t home_slot(const void *p, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p >> 4; /* blocks are 16-byte aligned */
    h *= 0x9E3779B97F4A7C15u;
    return (size_t)(h ^ (h >> 32)) & (cap - 1);
}

static window_block *window_find(const void *p)
{
    if (t_blocks_count == 0)
        return NULL;
    for (size_t i = home_slot(p, t_blocks_cap);; i = (i + 1) & (t_blocks_cap - 1)) {
        if (t_blocks[i].p == p)
            return &t_blocks[i];
        if (!t_blocks[i].p)
            return NULL;
    }
}

static void window_place(window_block *table, size_t cap, window_block b)
{
    size_t i = home_slot(b.p, cap);
    while (table[i].p && table[i].p != b.p)
        i = (i + 1) & (cap - 1);
    table[i] = b;
}

static bool window_insert(void *p, long long bytes)
{
    if ((t_blocks_count + 1) * 2 > t_blocks_cap) {
        const size_t cap = t_blocks_cap ? t_blocks_cap * 2 : 256;
        window_block *table = __libc_calloc(cap, sizeof *table);
        if (!table)
            return false;
        for (size_t i = 0; i < t_blocks_cap; i++)
            if (t_blocks[i].p)
                window_place(table, cap, t_blocks[i]);
        __libc_free(t_blocks);
        t_blocks = table;
        t_blocks_cap = cap;
    }
    window_block *old = window_find(p); /* a block freed on another thread left its address here */
    if (old)
        old->bytes = bytes;
    else {
        window_place(t_blocks, t_blocks_cap, (window_block){p, bytes});
        t_blocks_count++;
    }
    return true;
}

/* Empties slot e, moving back the entries after it that linear probing would no longer find. */
static void window_remove(window_block *e)
{
    const size_t mask = t_blocks_cap - 1;
    size_t hole = (size_t)(e - t_blocks);
    for (size_t j = (hole + 1) & mask; t_blocks[j].p; j = (j + 1) & mask) {
        const size_t home = home_slot(t_blocks[j].p, t_blocks_cap);
        const bool reachable = hole <= j ? hole < home && home <= j : hole < home || home <= j;
        if (!reachable) { /* its probe from home passes the hole: it moves into it */
            t_blocks[hole] = t_blocks[j];
            hole = j;
        }
    }
    t_blocks[hole].p = NULL;
    t_blocks_count--;
}

/* What a live block counts, which free takes off. */
static long long charged(void *p)
{
    const window_block *e = window_find(p);
    return e ? e->bytes : (long long)malloc_usable_size(p);
}

/* Takes a block that is being freed off the counts: before glibc has it back. */
static void uncount(void *p)
{
    window_block *e = window_find(p);
    if (!e) {
        t_live -= (long long)malloc_usable_size(p);
        return;
    }
    t_live -= e->bytes;
    window_remove(e);
}

static inline void *counted(void *p, size_t size)
{
    if (!p)
        return p;
    if (t_window) {
        const long long bytes = fresh_usable(size);
        if (window_insert(p, bytes)) {
            count_alloc(bytes);
            return p;
        }
        t_window_inexact = true; /* no memory for the table: this block as glibc gave it */
    }
    count_alloc((long long)malloc_usable_size(p));
    return p;
}

void alloc_track_window(bool on)
{
    t_window = on;
    if (on)
        t_window_inexact = false;
}

bool alloc_track_window_exact(void)
{
    return !t_window_inexact;
}

void alloc_track_window_forget(void)
{
    t_window = false;
    __libc_free(t_blocks);
    t_blocks = NULL;
    t_blocks_cap = t_blocks_count = 0;
}

size_t alloc_track_window_blocks(void)
{
    return t_blocks_count;
}

void *malloc(size_t size)
{
    return counted(__libc_malloc(size), size);
}

void *calloc(size_t count, size_t size)
{
    return counted(__libc_calloc(count, size), count * size); /* glibc refuses a product that overflows */
}

void free(void *p)
{
    if (p)
        uncount(p);
    __libc_free(p);
}

void *realloc(void *p, size_t size)
{
    const long long old = p ? charged(p) : 0; /* read while p is live */
    void *q = __libc_realloc(p, size);
    if (q || (p && size == 0)) { /* moved, resized in place, or freed (glibc's realloc(p, 0)): p is gone */
        t_live -= old;
        window_block *e = p ? window_find(p) : NULL; /* its address, not its memory */
        if (e)
            window_remove(e);
        counted(q, size);
    }
    return q;
}

void *reallocarray(void *p, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, count * size);
}

void *memalign(size_t alignment, size_t size)
{
    return counted(__libc_memalign(alignment, size), size);
}

void *aligned_alloc(size_t alignment, size_t size)
{
    return counted(__libc_memalign(alignment, size), size);
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0)
        return EINVAL;
    void *p = counted(__libc_memalign(alignment, size), size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t size)
{
    return counted(__libc_valloc(size), size);
}

void *pvalloc(size_t size)
{
    return counted(__libc_pvalloc(size), size);
}

bool alloc_track_active(void)
{
    return true;
}

const char *alloc_track_mechanism(void)
{
    return "glibc malloc, interposed (usable bytes; inside a sampler's measurement, the usable bytes of a fresh block of each request)";
}

#else

bool alloc_track_active(void)
{
    return false;
}

const char *alloc_track_mechanism(void)
{
    return "none (not glibc): held memory is not measured";
}

#endif

#ifndef ALLOC_TRACK_WINDOW
/* No history to take out: the sanitizer's hooks count requested bytes, and a build without glibc
 * counts nothing. */
void alloc_track_window(bool on)
{
    (void)on;
}

bool alloc_track_window_exact(void)
{
    return true;
}

void alloc_track_window_forget(void)
{
}

size_t alloc_track_window_blocks(void)
{
    return 0;
}
#endif
