/* What a sampler holds, measured by the allocator (harness/measure/runtime.h), on codecs that
 * exist only in this test and allocate known amounts in the ways a codec could hide them: a
 * buffer kept from create; a large temporary freed inside create (a peak, not held); a scratch
 * buffer kept from create and freed by the first pose (held until then); nothing in create and
 * the buffer made by the first pose (a lazy sampler); a buffer grown by realloc; memory taken and
 * given back by every pose (allocations per pose).  Then every row of the registry against its
 * declaration (CODEC_DECODES_AHEAD, which `list` prints) on the study's clips, and the crowd's
 * bookkeeping (never its timings). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codecs/codec.h"
#include "codecs/study/raw_codec.h"
#include "harness/commands/commands.h"
#include "harness/measure/alloc_track.h"
#include "harness/measure/measure.h"
#include "harness/measure/runtime.h"
#include "harness/measure/timing.h"

#define HELD 100000    /* what the test samplers keep */
#define SCRATCH 1000000 /* what some of them take besides */

/* where a temporary's address goes, so that the compiler cannot drop its malloc and free */
unsigned char *volatile test_runtime_escape;
/* what glibc gave test-keep's block (malloc_usable_size), whatever the harness counted */
size_t test_runtime_held_usable;

typedef enum how { KEEP, TEMPORARY, FREE_AT_FIRST_POSE, LAZY, GROWN, PER_POSE } how;

struct codec_sampler {
    how how;
    unsigned char *held, *scratch;
};

static codec_sampler *tc_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                                  size_t err_size)
{
    (void)bytes, (void)size, (void)rig, (void)err, (void)err_size;
    codec_sampler *s = calloc(1, sizeof *s);
    s->how = *(const how *)c->config;
    switch (s->how) {
    case KEEP:
        s->held = malloc(HELD);
        test_runtime_held_usable = s->held ? malloc_usable_size(s->held) : 0;
        break;
    case TEMPORARY: {
        unsigned char *t = malloc(SCRATCH);
        test_runtime_escape = t;
        memset(t, 1, SCRATCH);
        s->held = malloc(HELD);
        s->held[0] = t[SCRATCH - 1];
        free(t);
        break;
    }
    case FREE_AT_FIRST_POSE:
        s->held = malloc(HELD);
        s->scratch = malloc(SCRATCH);
        break;
    case LAZY:
        break;
    case GROWN:
        for (size_t n = 1000; n <= HELD; n += 9900)
            s->held = realloc(s->held, n);
        break;
    case PER_POSE:
        s->held = malloc(HELD);
        break;
    }
    if (s->held)
        memset(s->held, 0, 1000);
    return s;
}

static void tc_sample(codec_sampler *s, double t, double *pose)
{
    (void)t;
    if (s->how == FREE_AT_FIRST_POSE) {
        free(s->scratch);
        s->scratch = NULL;
    }
    if (s->how == LAZY && !s->held)
        s->held = calloc(1, HELD);
    if (s->how == PER_POSE) {
        unsigned char *volatile tmp = malloc(1024);
        tmp[0] = 1;
        free(tmp);
    }
    pose[0] = s->held ? s->held[0] : 0;
}

static void tc_free(codec_sampler *s)
{
    if (s) {
        free(s->held);
        free(s->scratch);
    }
    free(s);
}

static const codec_ops TEST_OPS = {NULL, NULL, tc_create, tc_sample, tc_free};
static const how HOWS[] = {KEEP, TEMPORARY, FREE_AT_FIRST_POSE, LAZY, GROWN, PER_POSE};
static const codec TEST_CODECS[] = {
    {"test-keep", "keeps 100000 bytes", 0, &HOWS[0], &TEST_OPS, 1, "", NULL, 0},
    {"test-temporary", "keeps 100000 bytes, takes 1 MB in create and frees it there", 0, &HOWS[1], &TEST_OPS, 1, "", NULL, 0},
    {"test-free-late", "keeps 100000 bytes and 1 MB until its first pose", 0, &HOWS[2], &TEST_OPS, 1, "", NULL, 0},
    {"test-lazy", "takes its 100000 bytes at its first pose", 0, &HOWS[3], &TEST_OPS, 1, "", NULL, 0},
    {"test-grown", "grows a buffer to 100000 bytes by realloc", 0, &HOWS[4], &TEST_OPS, 1, "", NULL, 0},
    {"test-per-pose", "keeps 100000 bytes; takes and frees 1 KiB per pose", 0, &HOWS[5], &TEST_OPS, 1, "", NULL, 0},
};

static anim_rig *rig;

static int setup(void **state)
{
    (void)state;
    rig = rig_create(2);
    return rig ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rig_free(rig);
    return 0;
}

static sampler_memory measure(const codec *c)
{
    double times[64];
    for (int i = 0; i < 64; i++)
        times[i] = i * 0.5;
    const uint8_t bytes[16] = {0};
    sampler_memory m;
    char err[128];
    assert_int_equal(runtime_sampler_memory(c, bytes, sizeof bytes, rig, 40, times, 64, &m, err, sizeof err), 0);
    assert_true(m.measured);
    return m;
}

/* What the allocator rounds a block up to: a few words on glibc, a page for a block it maps
 * (glibc maps blocks of 128 KiB and more by default), none under ASan. */
#define SLACK 64
#define MAPPED_SLACK 4160

static void test_held_is_what_is_kept(void **state)
{
    (void)state;
    const long long base = (long long)sizeof(codec_sampler);
    const sampler_memory keep = measure(&TEST_CODECS[0]);
    assert_in_range(keep.held_bytes, HELD + base, HELD + base + SLACK);
    assert_in_range(keep.create_peak_bytes, HELD + base, HELD + base + SLACK);
    assert_int_equal(keep.create_allocations, 2);
    assert_int_equal(keep.sample_allocations, 0);
}

static void test_a_temporary_is_a_peak_not_held(void **state)
{
    (void)state;
    const long long base = (long long)sizeof(codec_sampler);
    const sampler_memory m = measure(&TEST_CODECS[1]);
    assert_in_range(m.held_bytes, HELD + base, HELD + base + SLACK);
    assert_in_range(m.create_peak_bytes, SCRATCH + HELD + base, SCRATCH + HELD + base + MAPPED_SLACK + SLACK);
    assert_int_equal(m.create_allocations, 3);
}

static void test_memory_freed_late_is_held(void **state)
{
    (void)state;
    const long long base = (long long)sizeof(codec_sampler);
    /* held from create until the first pose: it counts */
    const sampler_memory late = measure(&TEST_CODECS[2]);
    assert_in_range(late.held_bytes, SCRATCH + HELD + base, SCRATCH + HELD + base + MAPPED_SLACK + SLACK);
    /* nothing in create, everything at the first pose: a look after create alone would miss it */
    const sampler_memory lazy = measure(&TEST_CODECS[3]);
    assert_in_range(lazy.held_bytes, HELD + base, HELD + base + 2 * SLACK);
    assert_int_equal(lazy.sample_allocations, 1);
    /* grown by realloc: what is left */
    const sampler_memory grown = measure(&TEST_CODECS[4]);
    assert_in_range(grown.held_bytes, HELD + base, HELD + base + 2 * SLACK); /* 1000, 10900, ..., 100000 */
    /* a pose that allocates is counted, and what it gives back is not held */
    const sampler_memory per = measure(&TEST_CODECS[5]);
    assert_in_range(per.held_bytes, HELD + base, HELD + base + SLACK);
    assert_int_equal(per.sample_allocations, 64);
    assert_true(per.sample_peak_bytes >= HELD + base + 1024);
}

static bool counts_glibc_blocks(void)
{
    return strncmp(alloc_track_mechanism(), "glibc", 5) == 0;
}

/* glibc's malloc.c: a chunk is the request plus its 8-byte size word, rounded up to 16 bytes, at least
 * 32; malloc_usable_size of a chunk of the heap is its size less that word. */
static long long glibc_fresh_usable(size_t n)
{
    const size_t chunk = n + 8 < 32 ? 32 : (n + 8 + 15) / 16 * 16;
    return (long long)chunk - 8;
}

/* Leaves a free chunk 16 bytes larger than a fresh block of n would take, which glibc hands out whole
 * to the next request of n (splitting it would leave less than its 32-byte minimum); returns the
 * guard that keeps it from joining the top of the heap, to be freed after: the first of up to 64
 * blocks that glibc places right after it (the others, from free chunks elsewhere, are given back). */
static void *leave_a_chunk_16_bytes_too_large(size_t n)
{
    unsigned char *a = malloc(n + 16), *tried[64], *guard = NULL;
    int count = 0;
    while (count < 64 && !guard) {
        unsigned char *g = malloc(4000);
        if (g == a + malloc_usable_size(a) + 8) /* the next chunk: a's usable bytes and g's size word */
            guard = g;
        else
            tried[count++] = g;
    }
    for (int i = 0; i < count; i++)
        free(tried[i]);
    test_runtime_escape = a;
    free(a);
    return guard;
}

/* Allocates n bytes in a window; returns what the counts took on, the block in *out. */
static long long counted_in_a_window(size_t n, unsigned char **out)
{
    alloc_counts a, b;
    alloc_track_read(&a);
    alloc_track_window(true);
    *out = malloc(n);
    alloc_track_window(false);
    alloc_track_read(&b);
    test_runtime_escape = *out;
    return b.live - a.live;
}

/* The same request reads the same bytes whatever chunk glibc gives it (inside a window), and
 * malloc_usable_size (outside one); the window's bytes come off again at free. */
static void test_a_window_counts_a_fresh_block(void **state)
{
    (void)state;
    const size_t n = 2000;
    alloc_counts a, b, c;
    unsigned char *p;
    alloc_track_read(&a);
    if (!counts_glibc_blocks()) { /* the sanitizer's hooks count requested bytes, in a window or not */
        assert_int_equal(counted_in_a_window(n, &p), (long long)n);
        free(p);
        alloc_track_read(&c);
        assert_int_equal(c.live, a.live);
        return;
    }
    void *guard = leave_a_chunk_16_bytes_too_large(n);
    alloc_track_read(&a);
    const long long counted = counted_in_a_window(n, &p);
    /* the precondition: glibc gave the whole chunk (else this test shows nothing) */
    assert_int_equal((long long)malloc_usable_size(p), glibc_fresh_usable(n) + 16);
    assert_int_equal(counted, glibc_fresh_usable(n));
    assert_true(alloc_track_window_exact());
    free(p);
    alloc_track_read(&c);
    assert_int_equal(c.live, a.live);
    /* outside a window: what glibc gave */
    free(guard);
    guard = leave_a_chunk_16_bytes_too_large(n);
    alloc_track_read(&a);
    p = malloc(n);
    alloc_track_read(&b);
    test_runtime_escape = p;
    assert_int_equal(b.live - a.live, (long long)malloc_usable_size(p));
    assert_int_equal((long long)malloc_usable_size(p), glibc_fresh_usable(n) + 16);
    free(p);
    alloc_track_read(&c);
    assert_int_equal(c.live, a.live);
    free(guard);
}

/* In a window every call that takes or gives back memory pairs exactly, and any number of blocks is
 * counted (the table grows): the fresh figure of each request on glibc, the request under the sanitizer. */
static void test_a_window_pairs_every_call(void **state)
{
    (void)state;
    const bool glibc = counts_glibc_blocks();
#define COUNTED(n) (glibc ? glibc_fresh_usable(n) : (long long)(n))
    enum { MANY = 5000 };
    static unsigned char *many[MANY];
    unsigned char *before = malloc(300); /* counted outside the window, freed inside it */
    const long long before_bytes = glibc ? (long long)malloc_usable_size(before) : 300;
    alloc_counts a, now;
    alloc_track_read(&a);
    alloc_track_window(true);
    long long expected = 0;
    unsigned char *r = realloc(NULL, 100);
    expected += COUNTED(100);
    alloc_track_read(&now);
    assert_int_equal(now.live - a.live, expected);
    r = realloc(r, 5000);
    expected += COUNTED(5000) - COUNTED(100);
    unsigned char *c = calloc(10, 30);
    expected += COUNTED(300);
    void *m = NULL;
    assert_int_equal(posix_memalign(&m, 64, 1000), 0);
    expected += COUNTED(1000);
    unsigned char *al = aligned_alloc(64, 128);
    expected += COUNTED(128);
    test_runtime_escape = c; /* else the compiler may drop a block whose bytes are never used */
    test_runtime_escape = al;
    for (int i = 0; i < MANY; i++) {
        many[i] = malloc(16 + (size_t)(i % 64));
        expected += COUNTED(16 + (size_t)(i % 64));
    }
    free(before);
    expected -= before_bytes;
    alloc_track_read(&now);
    assert_int_equal(now.live - a.live, expected);
    assert_true(alloc_track_window_exact());
    if (glibc)
        assert_int_equal(alloc_track_window_blocks(), 4 + MANY);
    alloc_track_window(false);
    /* off: the blocks it counted come off at the same figure */
    r = realloc(r, 70); /* now as glibc gave it */
    expected += (glibc ? (long long)malloc_usable_size(r) : 70) - COUNTED(5000);
    for (int i = 0; i < MANY; i += 2) {
        free(many[i]);
        expected -= COUNTED(16 + (size_t)(i % 64));
    }
    alloc_track_read(&now);
    assert_int_equal(now.live - a.live, expected);
    for (int i = 1; i < MANY; i += 2)
        free(many[i]);
    free(c);
    free(m);
    free(al);
    free(r);
    alloc_track_read(&now);
    assert_int_equal(now.live, a.live - before_bytes);
    assert_int_equal(alloc_track_window_blocks(), 0);
    alloc_track_window_forget();
#undef COUNTED
}

/* What a sampler holds does not move with the heap's history: test-keep's 100,000 bytes count as a
 * fresh block of 100,000 even where glibc gives them a chunk 16 bytes larger. */
static void test_held_does_not_depend_on_the_heap(void **state)
{
    (void)state;
    const long long base = (long long)sizeof(codec_sampler);
    const bool glibc = counts_glibc_blocks();
    const long long expected = glibc ? glibc_fresh_usable(sizeof(codec_sampler)) + glibc_fresh_usable(HELD) : HELD + base;
    bool whole_chunk_seen = false;
    for (int attempt = 0; attempt < 4; attempt++) {
        void *guard = NULL;
        if (attempt % 2) {
            /* the small blocks runtime_sampler_memory and test-keep take before their 100,000 bytes (a
             * pose, the sampler) found elsewhere than in that chunk: the pose's size in the thread's cache,
             * the sampler's in a fast bin (glibc's calloc skips the cache, which holds 7 a size) */
            unsigned char *pose = malloc(2 * POSE_STRIDE * sizeof(double)), *small[8];
            for (int i = 0; i < 8; i++)
                small[i] = malloc(sizeof(codec_sampler));
            guard = leave_a_chunk_16_bytes_too_large(HELD);
            free(pose);
            for (int i = 0; i < 8; i++)
                free(small[i]);
        }
        const sampler_memory m = measure(&TEST_CODECS[0]);
        assert_int_equal(m.held_bytes, expected);
        assert_int_equal(m.create_peak_bytes, expected);
        whole_chunk_seen |= glibc && (long long)test_runtime_held_usable == glibc_fresh_usable(HELD) + 16;
        free(guard);
    }
    if (glibc) /* the precondition: at least one attempt had glibc give the larger chunk */
        assert_true(whole_chunk_seen);
}

/* The threshold: stream plus 32 KiB plus two poses of doubles. */
static void test_decodes_ahead_threshold(void **state)
{
    (void)state;
    assert_int_equal(runtime_small_context_bytes(30), 32768 + 2 * 80 * 30);
    const sampler_memory m = measure(&TEST_CODECS[0]);
    assert_int_equal(m.context_bytes, runtime_small_context_bytes(2));
    assert_true(m.decodes_ahead == (m.held_bytes > (long long)m.stream_bytes + m.context_bytes));
    assert_true(m.decodes_ahead); /* 100 kB held against 16 bytes of stream and a 33 kB context */
}

static measured_clip *load(const char *name)
{
    char err[256];
    clip_source *s = clip_source_load(name, &CLIP_DEFAULTS, err, sizeof err);
    measured_clip *m = s ? measured_clip_create(s, NULL, err, sizeof err) : NULL;
    if (!m)
        fail_msg("%s: %s", name, err);
    return m;
}

/* Every row's declaration (`list`) against what its sampler holds on the study's clips at the
 * row's defaults: a row that decodes ahead and does not say so fails here. */
static void test_every_row_declares_what_it_holds(void **state)
{
    (void)state;
    static const char *const CLIPS[] = {"walk", "jump", "mocap"};
    for (int k = 0; k < 3; k++) {
        measured_clip *mc = load(CLIPS[k]);
        const anim_clip *clip = mc->source->clip;
        double times[STUDY_TIME_COUNT];
        pattern_times(PATTERN_PLAYBACK, clip->frame_count, clip->fps, times, STUDY_TIME_COUNT);
        for (int i = 0; i < codec_count(); i++) {
            const codec *c = codec_at(i);
            if (c->flags & CODEC_UNAVAILABLE || !c->ops->encode)
                continue;
            codec_params p;
            codec_params_init(c, &p);
            byte_buffer stream;
            bytes_init(&stream);
            point_result r;
            char err[512];
            if (measure_point_stream(mc, c, &p, false, &r, &stream, err, sizeof err) != 0)
                fail_msg("%s on %s: %s", c->name, CLIPS[k], err);
            point_result_free(&r);
            sampler_memory m;
            if (runtime_sampler_memory(c, stream.data, stream.size, clip->rig, clip->frame_count, times,
                                       STUDY_TIME_COUNT, &m, err, sizeof err) != 0)
                fail_msg("%s on %s: %s", c->name, CLIPS[k], err);
            bytes_free(&stream);
            if (m.decodes_ahead != !!(c->flags & CODEC_DECODES_AHEAD))
                fail_msg("%s on %s holds %lld bytes for a stream of %zu (a small context: %lld): it %s, and its row "
                         "says %s", c->name, CLIPS[k], m.held_bytes, m.stream_bytes, m.context_bytes,
                         m.decodes_ahead ? "decodes ahead" : "does not decode ahead",
                         c->flags & CODEC_DECODES_AHEAD ? "it does" : "nothing (add CODEC_DECODES_AHEAD)");
            /* no row allocates while it samples */
            if (m.sample_allocations != 0)
                fail_msg("%s on %s: %llu allocations in %d poses", c->name, CLIPS[k], m.sample_allocations,
                         m.sample_calls);
        }
        measured_clip_free(mc);
    }
}

/* The crowd: enough characters that the footprint passes the multiple of the cache asked (or the
 * memory cap), each stream at least once; its figures are timings and are not looked at. */
static void test_crowd_bookkeeping(void **state)
{
    (void)state;
    const codec *c = &TEST_CODECS[0];
    const uint8_t bytes[16] = {0};
    const crowd_stream streams[2] = {{bytes, sizeof bytes, rig, 40, 30, 100100}, {bytes, sizeof bytes, rig, 80, 60, 100100}};
    timer_config tc;
    timer_config_default(&tc);
    tc.runs = 1;
    tc.budget_ms = 0.2;
    crowd_result r;
    char err[128];
    assert_int_equal(runtime_crowd(c, streams, 2, 0.5, 64LL << 20, 2, &tc, &r, err, sizeof err), 0);
    assert_true(r.characters >= 16 && r.streams == 2 && r.threads == 2);
    const long long per = 16 + 100100 + 2 * 80;
    assert_int_equal(r.footprint_bytes, per * r.characters);
    const long long llc = r.llc_bytes > 0 ? r.llc_bytes : 32LL << 20;
    assert_true(r.footprint_bytes >= llc / 2 || r.footprint_bytes + per > (64LL << 20) || r.characters == 16);
    assert_true(r.footprint_bytes <= (64LL << 20) || r.characters == 16);
    assert_true(r.per_pose.runs == 1 && r.per_pose_cores.runs == 1 && r.poses_per_second > 0);
}

/* A codec of the test build only (raw's bytes, its rotations renormalised as they are read) goes
 * through bench at equal error, the runtime report, its figure and `table`, with no edit anywhere. */
static void normalise(double *pose, int bones)
{
    for (int b = 0; b < bones; b++) {
        double *q = pose + b * POSE_STRIDE + 3;
        const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (int i = 0; i < 4; i++)
            q[i] /= len;
    }
}

static int test_bones;

static codec_sampler *rt_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *r, char *err,
                                size_t err_size)
{
    test_bones = r->bone_count;
    return RAW_CODEC_OPS.sampler_create(c, bytes, size, r, err, err_size);
}

static void rt_sample(codec_sampler *s, double t, double *pose)
{
    RAW_CODEC_OPS.sample(s, t, pose);
    normalise(pose, test_bones);
}

static anim_clip *rt_decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *r, char *err,
                            size_t err_size)
{
    anim_clip *clip = RAW_CODEC_OPS.decode(c, bytes, size, r, err, err_size);
    double *pose = clip ? malloc((size_t)r->bone_count * POSE_STRIDE * sizeof *pose) : NULL;
    for (int f = 0; pose && f < clip->frame_count; f++) {
        clip_get_pose(clip, f, pose);
        normalise(pose, r->bone_count);
        clip_set_pose(clip, f, pose);
    }
    free(pose);
    return clip;
}

static codec_ops rt_ops;
static const codec RUNTIME_TEST_CODEC = {"test-runtime-raw", "raw's bytes under a test build's name", 0, NULL,
                                         &rt_ops, 1, "raw_codec.c raw_codec.h", NULL, 0};

static int run_quietly(int (*command)(int, char **, int, char **), int argc, char **argv)
{
    fflush(stdout);
    FILE *saved = stdout;
    stdout = fopen("/dev/null", "w");
    const int rc = command(argc, argv, argc, argv);
    fclose(stdout);
    stdout = saved;
    return rc;
}

static void test_runtime_figure_and_table_follow_the_data(void **state)
{
    (void)state;
    if (!codec_find("test-runtime-raw")) {
        rt_ops = RAW_CODEC_OPS;
        rt_ops.decode = rt_decode;
        rt_ops.sampler_create = rt_create;
        rt_ops.sample = rt_sample;
        assert_int_equal(codec_register(&RUNTIME_TEST_CODEC), 0);
    }
    char dir[128], json[200], cmd[900];
    snprintf(dir, sizeof dir, "/tmp/animbench_test_runtime_%ld", (long)getpid());
    snprintf(cmd, sizeof cmd, "mkdir -p %s/figures", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(json, sizeof json, "%s/rt.json", dir);
    char *argv[] = {"--clips", "walk,jump", "--codecs", "test-runtime-raw,raw", "--target", "1", "--patterns",
                    "playback,seek,first-pose,crowd", "--runs", "1", "--budget-ms", "0.2", "--crowd-llc", "0.01",
                    "--json", json};
    assert_int_equal(run_quietly(cmd_bench, 16, argv), 0);
    snprintf(cmd, sizeof cmd, "scripts/runtime_report.sh %s/runtime study=%s >/dev/null 2>&1", dir, json);
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        assert_int_equal(system(cmd), 0);
        snprintf(cmd, sizeof cmd,
                 "grep -q '^study	1	test-runtime-raw	2	2' %s/runtime.tsv && grep -q '| `test-runtime-raw` | 2 of 2 |' "
                 "%s/runtime_summary.md && grep -q test-runtime-raw %s/figures/runtime_1mm.svg",
                 dir, dir, dir);
        if (system(cmd) != 0)
            fail_msg("the test codec is not in the runtime table, summary or figure (%s)", dir);
        snprintf(cmd, sizeof cmd, "scripts/figures.sh %s >/dev/null 2>&1 && grep -q test-runtime-raw %s/figures/rt_decode_cost.svg",
                 json, dir);
        if (system(cmd) != 0)
            fail_msg("the test codec is not in the decode cost figure (%s)", dir);
    } else {
        print_message("  gnuplot not here: the figure check is skipped\n");
    }
    char table[200];
    snprintf(table, sizeof table, "%s/table.md", dir);
    char *targv[] = {json, "--columns", "codec,clip,held_bytes,decodes_ahead,playback_ns,crowd_ns", "--out", table};
    FILE *saved = stdout;
    stdout = fopen("/dev/null", "w");
    const int rc = cmd_table(5, targv);
    fclose(stdout);
    stdout = saved;
    assert_int_equal(rc, 0);
    snprintf(cmd, sizeof cmd, "grep -Eq '[|] test-runtime-raw [|] walk [|] [0-9]+ [|] no [|]' %s", table);
    if (system(cmd) != 0)
        fail_msg("the test codec's held memory is not in `table` (%s)", table);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_is_what_is_kept),
        cmocka_unit_test(test_a_temporary_is_a_peak_not_held),
        cmocka_unit_test(test_memory_freed_late_is_held),
        cmocka_unit_test(test_a_window_counts_a_fresh_block),
        cmocka_unit_test(test_a_window_pairs_every_call),
        cmocka_unit_test(test_held_does_not_depend_on_the_heap),
        cmocka_unit_test(test_decodes_ahead_threshold),
        cmocka_unit_test(test_every_row_declares_what_it_holds),
        cmocka_unit_test(test_crowd_bookkeeping),
        cmocka_unit_test(test_runtime_figure_and_table_follow_the_data),
    };
    return cmocka_run_group_tests_name("runtime", tests, setup, teardown);
}
