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

/* the hooks count requested bytes, which no history changes */
void alloc_track_window(bool on)
{
    (void)on;
}

bool alloc_track_window_exact(void)
{
    return true;
}

const char *alloc_track_mechanism(void)
{
    return "AddressSanitizer's allocator hooks (requested bytes)";
}

#elif defined(__GLIBC__)

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
 * a fresh split, not at malloc_usable_size: glibc hands out a whole free chunk when splitting it
 * would leave less than its 32-byte minimum, so the same request reads 16 bytes more or less with the
 * heap's history, and a block of 128 KiB or more is mapped or not with a threshold that moves as the
 * process frees (measured: ACL's sampler of the jump at 8,040 and 8,056 bytes in two runs of one
 * build).  What a window counts is kept per block, so that free takes off what was put on. */
#define WINDOW_BLOCKS 1024
typedef struct window_block {
    void *p;
    long long bytes;
} window_block;
static _Thread_local bool t_window;
static _Thread_local int t_window_count;
static _Thread_local bool t_window_full;
static _Thread_local window_block t_window_blocks[WINDOW_BLOCKS];

/* glibc's request2size less its 8-byte header: the request plus 8, rounded up to 16, 32 at least */
static long long fresh_usable(size_t size)
{
    const size_t chunk = size + 8 + 15 < 32 ? 32 : (size + 8 + 15) & ~(size_t)15;
    return (long long)chunk - 8;
}

/* Where p is among the window's blocks, -1 if it is not one. */
static int window_find(const void *p)
{
    for (int i = 0; i < t_window_count; i++)
        if (t_window_blocks[i].p == p)
            return i;
    return -1;
}

/* What a live block counts, which free takes off. */
static long long charged(void *p)
{
    const int i = t_window_count > 0 ? window_find(p) : -1;
    return i >= 0 ? t_window_blocks[i].bytes : (long long)malloc_usable_size(p);
}

/* Takes a block that is being freed off the counts: before glibc has it back. */
static void uncount(void *p)
{
    const int i = t_window_count > 0 ? window_find(p) : -1;
    if (i < 0) {
        t_live -= (long long)malloc_usable_size(p);
        return;
    }
    t_live -= t_window_blocks[i].bytes;
    t_window_blocks[i] = t_window_blocks[--t_window_count];
}

static inline void *counted(void *p, size_t size)
{
    if (!p)
        return p;
    if (t_window) {
        if (t_window_count < WINDOW_BLOCKS) {
            const long long bytes = fresh_usable(size);
            t_window_blocks[t_window_count++] = (window_block){p, bytes};
            count_alloc(bytes);
            return p;
        }
        t_window_full = true;
    }
    count_alloc((long long)malloc_usable_size(p));
    return p;
}

void alloc_track_window(bool on)
{
    t_window = on;
    if (on)
        t_window_full = false;
}

bool alloc_track_window_exact(void)
{
    return !t_window_full;
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
    const int slot = p && t_window_count > 0 ? window_find(p) : -1;
    void *q = __libc_realloc(p, size);
    if (q || (p && size == 0)) { /* moved, resized in place, or freed (glibc's realloc(p, 0)): p is gone */
        t_live -= old;
        if (slot >= 0)
            t_window_blocks[slot] = t_window_blocks[--t_window_count];
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

void alloc_track_window(bool on)
{
    (void)on;
}

bool alloc_track_window_exact(void)
{
    return true;
}

const char *alloc_track_mechanism(void)
{
    return "none (not glibc): held memory is not measured";
}

#endif
