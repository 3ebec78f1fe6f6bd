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

#include <malloc.h>
#include <stdlib.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t alignment, size_t size);
void *__libc_valloc(size_t size);
void *__libc_pvalloc(size_t size);
void __libc_free(void *p);

static inline void *counted(void *p)
{
    if (p)
        count_alloc((long long)malloc_usable_size(p));
    return p;
}

void *malloc(size_t size)
{
    return counted(__libc_malloc(size));
}

void *calloc(size_t count, size_t size)
{
    return counted(__libc_calloc(count, size));
}

void free(void *p)
{
    if (p)
        t_live -= (long long)malloc_usable_size(p);
    __libc_free(p);
}

void *realloc(void *p, size_t size)
{
    const long long old = p ? (long long)malloc_usable_size(p) : 0;
    void *q = __libc_realloc(p, size);
    if (q) {
        t_live -= old;
        count_alloc((long long)malloc_usable_size(q));
    } else if (p && size == 0) {
        t_live -= old; /* glibc's realloc(p, 0) frees p */
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
    return counted(__libc_memalign(alignment, size));
}

void *aligned_alloc(size_t alignment, size_t size)
{
    return counted(__libc_memalign(alignment, size));
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0)
        return EINVAL;
    void *p = counted(__libc_memalign(alignment, size));
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t size)
{
    return counted(__libc_valloc(size));
}

void *pvalloc(size_t size)
{
    return counted(__libc_pvalloc(size));
}

bool alloc_track_active(void)
{
    return true;
}

const char *alloc_track_mechanism(void)
{
    return "glibc malloc, interposed (usable bytes)";
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
