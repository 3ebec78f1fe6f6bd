/* What a game pays to play a stream: the memory a sampler holds, measured by the allocator
 * (alloc_track.h), never declared; the time to its first pose; and a crowd of characters, each
 * with its own sampler over its own copy of a stream, whose streams and samplers together exceed
 * the last-level cache several times, one pose each in turn (cold caches; after one untimed pass, so
 * the crowd is timed playing, not starting), on one core and on
 * every core.  Timings are benchmarks: never asserted in tests. */
#ifndef ANIMBENCH_RUNTIME_H
#define ANIMBENCH_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "harness/measure/bench_timer.h"

/* A sampler "decodes ahead" when it holds more than its stream plus a small context: 32 KiB (a
 * core's L1 data cache, the most a context can take and still be called small) plus two decoded
 * poses (2 x 80 bytes per joint: the one it writes and one it may keep). */
#define RUNTIME_CONTEXT_BYTES 32768
long long runtime_small_context_bytes(int bones);

typedef struct sampler_memory {
    size_t stream_bytes;       /* the stream's own bytes, which the caller owns */
    long long held_bytes;      /* heap the sampler holds: the most live after create, after the
                                * first pose and after a pass of the playback pattern */
    long long create_peak_bytes;      /* the peak during create, above what was live before it */
    unsigned long long create_allocations;
    unsigned long long sample_allocations; /* allocation calls during the first pose and the pass */
    long long sample_peak_bytes;      /* the peak during sampling, above what was live before create */
    int sample_calls;                 /* poses sampled for the figures above */
    double joint_samples;             /* frames x bones */
    long long context_bytes;          /* runtime_small_context_bytes of the rig */
    bool decodes_ahead;               /* held_bytes > stream_bytes + context_bytes */
    bool measured;                    /* false when this build cannot count (alloc_track_active) */
} sampler_memory;

/* Creates a sampler from the bytes, samples its first pose at t0 and a pass of `count` times, and
 * says what it held; the sampler is freed.  0, or -1 with a message (the sampler refused the bytes). */
int runtime_sampler_memory(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, int frames,
                           const double *times, int count, sampler_memory *out, char *err, size_t err_size);

/* The figures above as results JSON (docs/results.md, "memory"). */
struct cJSON;
struct cJSON *runtime_memory_json(const sampler_memory *m);

/* Time to first pose: create from the bytes plus the first sample at times[i], cycling through the
 * times (the free is not timed).  0, or -1 with a message. */
int runtime_time_first_pose(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                            const double *times, int count, const timer_config *tc, timer_result *out, char *err,
                            size_t err_size);

/* The largest cache of CPU 0 (sysfs), its level and size; 0 bytes when it cannot be read. */
void runtime_last_level_cache(int *level, long long *bytes);

/* One stream of a crowd's clip set (the caller keeps it for the crowd's lifetime). */
typedef struct crowd_stream {
    const uint8_t *bytes;
    size_t size;
    const anim_rig *rig;
    int frames;
    double fps;
    long long held_bytes; /* its sampler's, to size the crowd */
} crowd_stream;

typedef struct crowd_result {
    int characters, streams, threads;
    long long footprint_bytes; /* streams' copies, samplers' held memory and each character's pose */
    int llc_level;
    long long llc_bytes;
    timer_result per_pose;       /* one core, characters in turn: ns per pose */
    timer_result per_pose_cores; /* every core, the characters split among them: wall ns per pose */
    double poses_per_second;     /* every core, from the median */
} crowd_result;

/* The crowd of runtime.h's header over `streams` (character i plays stream i mod count, from a
 * start drawn from PCG32, at 60 poses per second of game time), with enough characters that the
 * footprint is at least `llc_multiple` times the last-level cache (at least 16 characters, at
 * most what fits in max_bytes).  `threads` 0: one per online CPU.  0, or -1 with a message. */
int runtime_crowd(const codec *c, const crowd_stream *streams, int count, double llc_multiple, long long max_bytes,
                  int threads, const timer_config *tc, crowd_result *out, char *err, size_t err_size);

#endif
