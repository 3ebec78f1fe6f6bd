/* The heap a thread holds, counted by the process's allocator itself, so that what a sampler
 * holds is measured, never declared: a codec that forgets to say what it allocates cannot hide it.
 *
 * Every malloc, calloc, realloc, reallocarray, aligned_alloc, posix_memalign, memalign, valloc,
 * pvalloc and free of the process (C++'s operator new included: libstdc++ calls malloc) passes
 * through alloc_track.c, which counts per thread, before handing the call to glibc:
 *   live   bytes this thread allocated minus bytes it freed (malloc_usable_size: the allocator's
 *          rounding is in the figure, 8 to 15 bytes a block on glibc; inside a window, below, the
 *          usable bytes of a fresh block of the request, which do not move with the heap's history)
 *   peak   the largest live since alloc_track_reset_peak
 *   calls  allocation calls (free not counted)
 * Under AddressSanitizer (make test-asan, the fuzz targets) glibc's allocator is not the one in
 * use: the counts come from the sanitizer's allocator hooks instead, in requested bytes.
 *
 * Only the heap is counted: a codec that maps memory itself (mmap) or keeps it in static storage
 * is not seen (none of ours does). */
#ifndef ANIMBENCH_ALLOC_TRACK_H
#define ANIMBENCH_ALLOC_TRACK_H

#include <stdbool.h>
#include <stddef.h>

typedef struct alloc_counts {
    long long live, peak;
    unsigned long long calls;
} alloc_counts;

/* This thread's counts. */
void alloc_track_read(alloc_counts *out);
/* Starts a new peak from the current live bytes. */
void alloc_track_reset_peak(void);
/* A window: while it is on, each block this thread allocates is counted at the usable size glibc gives
 * a fresh block of its request from the heap (its request plus 8 bytes, rounded up to 16, at least 32,
 * less the 8; a mapped or over-aligned block too), whatever chunk it was given, until it is freed;
 * runtime.c opens one around a sampler's measurement, so that what a sampler holds is the same in
 * every run of a build.  Turning it off stops counting new blocks that way; the blocks it counted keep
 * their figure until freed or until alloc_track_window_forget, which empties the thread's table of
 * them (alloc_track_window_blocks: how many it holds).  Not exact only if the table could not grow
 * (out of memory): alloc_track_window_exact, since the window was turned on.  Nothing changes under
 * the sanitizer, whose hooks count requested bytes. */
void alloc_track_window(bool on);
bool alloc_track_window_exact(void);
void alloc_track_window_forget(void);
size_t alloc_track_window_blocks(void);
/* Whether this build counts allocations, and how ("glibc malloc, interposed" or "AddressSanitizer's
 * allocator hooks"). */
bool alloc_track_active(void);
const char *alloc_track_mechanism(void);

#endif
