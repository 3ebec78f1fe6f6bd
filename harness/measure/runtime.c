#include "harness/measure/runtime.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/pcg32.h"
#include "harness/measure/alloc_track.h"

long long runtime_small_context_bytes(int bones)
{
    return RUNTIME_CONTEXT_BYTES + 2LL * POSE_STRIDE * (long long)sizeof(double) * bones;
}

int runtime_sampler_memory(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, int frames,
                           const double *times, int count, sampler_memory *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    out->stream_bytes = size;
    out->joint_samples = (double)frames * rig->bone_count;
    out->context_bytes = runtime_small_context_bytes(rig->bone_count);
    out->measured = alloc_track_active();
    double *pose = malloc((size_t)rig->bone_count * POSE_STRIDE * sizeof *pose);
    if (!pose) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    alloc_counts before, created, first, played;
    alloc_track_read(&before);
    alloc_track_reset_peak();
    alloc_track_window(true); /* the sampler's blocks at their requests' sizes: the same in every run */
    codec_sampler *s = c->ops->sampler_create(c, bytes, size, rig, err, err_size);
    alloc_track_read(&created);
    if (!s) {
        alloc_track_window_forget();
        free(pose);
        return -1;
    }
    alloc_track_reset_peak();
    c->ops->sample(s, times[0], pose);
    alloc_track_read(&first);
    for (int i = 1; i < count; i++)
        c->ops->sample(s, times[i], pose);
    alloc_track_read(&played);
    alloc_track_window(false);
    const bool exact = alloc_track_window_exact();
    long long held = created.live;
    held = first.live > held ? first.live : held;
    held = played.live > held ? played.live : held;
    out->held_bytes = held - before.live;
    out->create_peak_bytes = created.peak - before.live;
    out->create_allocations = created.calls - before.calls;
    out->sample_allocations = played.calls - created.calls;
    out->sample_peak_bytes = played.peak - before.live;
    out->sample_calls = count;
    out->decodes_ahead = out->held_bytes > (long long)size + out->context_bytes;
    c->ops->sampler_free(s);
    free(pose);
    alloc_track_window_forget(); /* a block the sampler did not free is counted as glibc gave it from here */
    if (!exact) {
        snprintf(err, err_size, "out of memory for the harness's table of %s's sampler's blocks "
                 "(harness/measure/alloc_track.c)", c->name);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ first pose */

typedef struct first_pose_bench {
    const codec *c;
    const uint8_t *bytes;
    size_t size;
    const anim_rig *rig;
    const double *times;
    int count, next, failures;
    double *pose;
    double sink;
} first_pose_bench;

static double first_pose_run(void *payload, size_t reps)
{
    first_pose_bench *b = payload;
    char err[8];
    double spent = 0;
    for (size_t r = 0; r < reps; r++) {
        const double t0 = timer_now_ns();
        codec_sampler *s = b->c->ops->sampler_create(b->c, b->bytes, b->size, b->rig, err, sizeof err);
        if (s)
            b->c->ops->sample(s, b->times[b->next], b->pose);
        spent += timer_now_ns() - t0;
        b->failures += s == NULL;
        if (s) {
            b->sink += b->pose[0];
            b->c->ops->sampler_free(s);
        }
        b->next = b->next + 1 < b->count ? b->next + 1 : 0;
    }
    return spent;
}

int runtime_time_first_pose(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                            const double *times, int count, const timer_config *tc, timer_result *out, char *err,
                            size_t err_size)
{
    double *pose = malloc((size_t)rig->bone_count * POSE_STRIDE * sizeof *pose);
    if (!pose) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    first_pose_bench b = {c, bytes, size, rig, times, count, 0, 0, pose, 0};
    int rc = timer_measure_self(first_pose_run, &b, tc, out);
    if (rc != 0)
        snprintf(err, err_size, "cannot pin to CPU %d", tc->pin_cpu);
    else if (b.failures) {
        snprintf(err, err_size, "%s: its sampler refused its own stream while timing the first pose", c->name);
        rc = -1;
    }
    free(pose);
    return rc;
}

/* ------------------------------------------------------------ the crowd */

void runtime_last_level_cache(int *level, long long *bytes)
{
    *level = 0;
    *bytes = 0;
    for (int i = 0; i < 16; i++) {
        char path[128], text[64];
        int lv = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        const int got = fscanf(f, "%d", &lv);
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        f = fopen(path, "r");
        if (!f || got != 1)
            continue;
        long long kib = 0;
        char unit = 'K';
        if (fgets(text, sizeof text, f) && sscanf(text, "%lld%c", &kib, &unit) >= 1 && lv >= *level) {
            const long long b = unit == 'M' ? kib << 20 : unit == 'G' ? kib << 30 : unit == 'K' ? kib << 10 : kib;
            if (lv > *level || b > *bytes) {
                *level = lv;
                *bytes = b;
            }
        }
        fclose(f);
    }
}

typedef struct character {
    codec_sampler *s;
    uint8_t *bytes; /* its own copy of the stream */
    double *pose;   /* where its pose goes */
    double t, step, span;
} character;

typedef struct crowd {
    const codec *c;
    character *chars;
    int *order; /* the characters in a shuffled order: no prefetcher walks from one to the next */
    int count;
    int next;
    double sink;
} crowd;

static inline void crowd_pose(const codec *c, character *ch, double *sink)
{
    c->ops->sample(ch->s, ch->t, ch->pose);
    *sink += ch->pose[0];
    ch->t += ch->step;
    if (ch->t >= ch->span)
        ch->t -= ch->span;
}

static void crowd_run(void *payload, size_t reps)
{
    crowd *w = payload;
    int i = w->next;
    double sink = 0;
    for (size_t r = 0; r < reps; r++) {
        crowd_pose(w->c, &w->chars[w->order[i]], &sink);
        i = i + 1 < w->count ? i + 1 : 0;
    }
    w->next = i;
    w->sink += sink;
}

/* Every core: worker k takes the k-th contiguous share of the shuffled characters. */
typedef struct cores {
    crowd *all;
    int threads;
    pthread_t *ids;
    pthread_barrier_t start, done;
    size_t reps[256];
    int first[256], share[256], next[256];
    int stop;
    int pin_base, cpus; /* CPU of worker 0 (the caller's), -1: not pinned; CPUs online */
    double sink[256];
} cores;

static void share_run(cores *k, int t)
{
    crowd *w = k->all;
    int i = k->next[t];
    double sink = 0;
    for (size_t r = 0; r < k->reps[t]; r++) {
        crowd_pose(w->c, &w->chars[w->order[k->first[t] + i]], &sink);
        i = i + 1 < k->share[t] ? i + 1 : 0;
    }
    k->next[t] = i;
    k->sink[t] += sink;
}

typedef struct worker_arg {
    cores *k;
    int index;
} worker_arg;

static void *worker(void *arg)
{
    worker_arg *a = arg;
    if (a->k->pin_base >= 0) /* worker k on the k-th CPU after the caller's */
        timer_pin_cpu((a->k->pin_base + a->index) % a->k->cpus);
    for (;;) {
        pthread_barrier_wait(&a->k->start);
        if (a->k->stop)
            break;
        share_run(a->k, a->index);
        pthread_barrier_wait(&a->k->done);
    }
    return NULL;
}

static void cores_run(void *payload, size_t reps)
{
    cores *k = payload;
    for (int t = 0; t < k->threads; t++)
        k->reps[t] = reps / (size_t)k->threads + ((size_t)t < reps % (size_t)k->threads);
    pthread_barrier_wait(&k->start);
    share_run(k, 0); /* the calling thread (the timer's, pinned where asked) is worker 0 */
    pthread_barrier_wait(&k->done);
}

static int time_every_core(crowd *w, int threads, int cpus, const timer_config *tc, timer_result *out)
{
    cores *k = calloc(1, sizeof *k);
    worker_arg *args = calloc((size_t)threads, sizeof *args);
    if (!k || !args) {
        free(k);
        free(args);
        return -1;
    }
    k->all = w;
    k->threads = threads;
    k->pin_base = tc->pin_cpu;
    k->cpus = cpus > 0 ? cpus : 1;
    for (int t = 0, at = 0; t < threads; t++) {
        k->share[t] = w->count / threads + (t < w->count % threads);
        k->first[t] = at;
        at += k->share[t];
    }
    k->ids = calloc((size_t)threads, sizeof *k->ids);
    pthread_barrier_init(&k->start, NULL, (unsigned)threads);
    pthread_barrier_init(&k->done, NULL, (unsigned)threads);
    int started = 1;
    for (int t = 1; t < threads && k->ids; t++) {
        args[t] = (worker_arg){k, t};
        if (pthread_create(&k->ids[t], NULL, worker, &args[t]) != 0)
            break;
        started++;
    }
    int rc = -1;
    if (started == threads)
        rc = timer_measure(cores_run, k, tc, out);
    /* release the workers: one more start with stop set (a short pool is stopped the same way) */
    k->stop = 1;
    if (started == threads) {
        pthread_barrier_wait(&k->start);
        for (int t = 1; t < threads; t++)
            pthread_join(k->ids[t], NULL);
    } else {
        /* not every worker started: the barrier cannot be met; they are detached and left waiting */
        for (int t = 1; t < started; t++)
            pthread_detach(k->ids[t]);
    }
    for (int t = 0; t < threads; t++)
        w->sink += k->sink[t];
    if (started == threads) {
        pthread_barrier_destroy(&k->start);
        pthread_barrier_destroy(&k->done);
        free(k->ids);
        free(k);
        free(args);
    }
    return rc;
}

int runtime_crowd(const codec *c, const crowd_stream *streams, int count, double llc_multiple, long long max_bytes,
                  int threads, const timer_config *tc, crowd_result *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    runtime_last_level_cache(&out->llc_level, &out->llc_bytes);
    const long long llc = out->llc_bytes > 0 ? out->llc_bytes : 32LL << 20;
    double per = 0;
    for (int i = 0; i < count; i++)
        per += (double)streams[i].size + (double)streams[i].held_bytes +
               (double)streams[i].rig->bone_count * POSE_STRIDE * sizeof(double);
    per /= count;
    long long want = (long long)ceil(llc_multiple * (double)llc / per);
    const long long fit = (long long)((double)max_bytes / per);
    want = want > fit ? fit : want;
    want = want < 16 ? 16 : want > 65536 ? 65536 : want;
    const int n = (int)want;
    crowd w = {c, calloc((size_t)n, sizeof(character)), malloc((size_t)n * sizeof(int)), n, 0, 0};
    int rc = w.chars && w.order ? 0 : -1;
    if (rc != 0)
        snprintf(err, err_size, "out of memory for a crowd of %d", n);
    pcg32 rng;
    pcg32_seed(&rng, 2026, 60);
    int made = 0;
    for (; rc == 0 && made < n; made++) {
        const crowd_stream *st = &streams[made % count];
        character *ch = &w.chars[made];
        ch->bytes = malloc(st->size ? st->size : 1);
        ch->pose = malloc((size_t)st->rig->bone_count * POSE_STRIDE * sizeof(double));
        if (!ch->bytes || !ch->pose) {
            snprintf(err, err_size, "out of memory for a crowd of %d (at %d)", n, made);
            rc = -1;
            break;
        }
        memcpy(ch->bytes, st->bytes, st->size);
        ch->s = c->ops->sampler_create(c, ch->bytes, st->size, st->rig, err, err_size);
        if (!ch->s) {
            rc = -1;
            break;
        }
        ch->span = st->frames - 1;
        ch->step = st->fps / 60.0;
        ch->t = pcg32_unit(&rng) * ch->span;
        out->footprint_bytes += (long long)st->size + st->held_bytes +
                                (long long)st->rig->bone_count * POSE_STRIDE * (long long)sizeof(double);
        w.order[made] = made;
    }
    if (rc == 0) {
        for (int i = n - 1; i > 0; i--) { /* Fisher-Yates, from PCG32 */
            const int j = (int)(pcg32_next(&rng) % (uint32_t)(i + 1));
            const int x = w.order[i];
            w.order[i] = w.order[j];
            w.order[j] = x;
        }
        out->characters = n;
        out->streams = count;
        /* every character plays its first pose before anything is timed: the crowd is timed playing,
         * not starting (a sampler's first pose is a seek; time to first pose is its own figure) */
        crowd_run(&w, (size_t)n);
        if (timer_measure(crowd_run, &w, tc, &out->per_pose) != 0) {
            snprintf(err, err_size, "cannot pin to CPU %d", tc->pin_cpu);
            rc = -1;
        }
    }
    if (rc == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        int t = threads > 0 ? threads : cpus > 0 ? (int)cpus : 1;
        t = t > 256 ? 256 : t > n ? n : t;
        out->threads = t;
        if (time_every_core(&w, t, cpus > 0 ? (int)cpus : 1, tc, &out->per_pose_cores) != 0) {
            snprintf(err, err_size, "could not start %d threads for the crowd", t);
            rc = -1;
        } else {
            out->poses_per_second = 1e9 / out->per_pose_cores.median_ns;
        }
    }
    for (int i = 0; w.chars && i < n; i++) {
        if (w.chars[i].s)
            c->ops->sampler_free(w.chars[i].s);
        free(w.chars[i].bytes);
        free(w.chars[i].pose);
    }
    free(w.chars);
    free(w.order);
    return rc;
}

cJSON *runtime_memory_json(const sampler_memory *m)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddBoolToObject(j, "measured", m->measured);
    cJSON_AddStringToObject(j, "mechanism", alloc_track_mechanism());
    cJSON_AddNumberToObject(j, "stream_bytes", (double)m->stream_bytes);
    cJSON_AddNumberToObject(j, "held_bytes", (double)m->held_bytes);
    cJSON_AddNumberToObject(j, "stream_bytes_per_joint_sample", (double)m->stream_bytes / m->joint_samples);
    cJSON_AddNumberToObject(j, "held_bytes_per_joint_sample", (double)m->held_bytes / m->joint_samples);
    cJSON_AddNumberToObject(j, "create_peak_bytes", (double)m->create_peak_bytes);
    cJSON_AddNumberToObject(j, "create_allocations", (double)m->create_allocations);
    cJSON_AddNumberToObject(j, "sample_allocations", (double)m->sample_allocations);
    cJSON_AddNumberToObject(j, "sample_peak_bytes", (double)m->sample_peak_bytes);
    cJSON_AddNumberToObject(j, "poses_sampled", m->sample_calls);
    cJSON_AddNumberToObject(j, "small_context_bytes", (double)m->context_bytes);
    cJSON_AddBoolToObject(j, "decodes_ahead", m->decodes_ahead);
    return j;
}

