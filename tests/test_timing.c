/* The timing machinery, never its figures: PCG32 against its published
 * reference output, the timer's bookkeeping, the sample-time patterns, and
 * the samplers' key search against a plain scan. */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <string.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "codecs/study/track_sampler.h"
#include "core/pcg32.h"
#include "harness/measure/bench_timer.h"
#include "harness/measure/timing.h"

/* pcg32-demo from the PCG reference distribution, seeded with
 * pcg32_srandom(42, 54), prints these six first outputs. */
static void test_pcg32_reference_output(void **state)
{
    (void)state;
    static const uint32_t expected[6] = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e};
    pcg32 rng;
    pcg32_seed(&rng, 42, 54);
    for (int i = 0; i < 6; i++)
        assert_int_equal(pcg32_next(&rng), expected[i]);
}

static void count_calls(void *payload, size_t reps)
{
    *(size_t *)payload += reps;
}

static void test_timer_bookkeeping(void **state)
{
    (void)state;
    size_t calls = 0;
    timer_config c;
    timer_config_default(&c);
    c.budget_ms = 1;
    timer_result r;
    assert_int_equal(timer_measure(count_calls, &calls, &c, &r), 0);
    assert_int_equal(r.runs, 9);
    assert_true(r.reps_per_run >= 1);
    assert_true(calls >= r.reps_per_run * 10); /* nine timed runs and a warm-up, after calibration */
    assert_true(r.min_ns <= r.median_ns && r.median_ns <= r.max_ns);
    for (int i = 0; i < r.runs; i++)
        assert_true(r.ns[i] >= r.min_ns && r.ns[i] <= r.max_ns);
}

/* The note beside a figure names contention however max/min looks (a hand-made result). */
static void test_contended_note(void **state)
{
    (void)state;
    timer_result r = {0};
    r.runs = 1;
    r.min_ns = r.median_ns = r.max_ns = 100;
    r.waited_share = 0.31;
    r.steal_share = NAN;
    r.others_busy_cpus = 0;
    char note[160];
    assert_true(timer_contended(&r));
    timer_noise_note(&r, 1, note, sizeof note);
    assert_string_equal(note, "contended: waited 31 %, stolen 0 %, other work 0.00 CPUs");
    r.waited_share = 0.001;
    r.others_busy_cpus = 0.95;
    assert_true(timer_contended(&r));
    r.others_busy_cpus = NAN; /* unknown is not contended */
    assert_false(timer_contended(&r));
    timer_noise_note(&r, -1, note, sizeof note);
    assert_string_equal(note, "not pinned");
}

/* bench --rounds: two timings of the same work summarised together.  The expected values are worked
 * by hand from the runs below, not read off the code's output. */
static void test_timer_merge(void **state)
{
    (void)state;
    timer_result a = {0}, b = {0};
    a.runs = 3, a.reps_per_run = 10;
    a.ns[0] = 300, a.ns[1] = 100, a.ns[2] = 200;
    a.timed_ns = 6000; /* (300 + 100 + 200) x 10 */
    a.waited_share = 0.0, a.steal_share = NAN, a.others_busy_cpus = 0.5;
    b.runs = 2, b.reps_per_run = 4;
    b.ns[0] = 500, b.ns[1] = 1000;
    b.timed_ns = 6000; /* (500 + 1000) x 4: equal weight */
    b.waited_share = 0.1, b.steal_share = 0.2, b.others_busy_cpus = NAN;
    assert_int_equal(timer_merge(&a, &b), 0);
    assert_int_equal(a.runs, 5);
    /* 100 200 300 500 1000 */
    assert_true(a.median_ns == 300 && a.min_ns == 100 && a.max_ns == 1000);
    assert_true(a.ns[3] == 500 && a.ns[4] == 1000); /* in run order, the later round after */
    assert_int_equal((int)a.reps_per_run, 4);
    assert_true(fabs(a.waited_share - 0.05) < 1e-12); /* (0 x 6000 + 0.1 x 6000) / 12000 */
    assert_true(a.steal_share == 0.2);                /* unknown in one: the other's */
    assert_true(a.others_busy_cpus == 0.5);
    assert_true(a.timed_ns == 12000);
    /* a third timing weighs its time against both before it, whatever their reps_per_run now says */
    timer_result c = {0};
    c.runs = 1, c.reps_per_run = 1, c.ns[0] = 12000, c.timed_ns = 12000;
    c.waited_share = 0.3, c.steal_share = 0.2, c.others_busy_cpus = 0.5;
    timer_result three = a;
    assert_int_equal(timer_merge(&three, &c), 0);
    assert_true(fabs(three.waited_share - 0.175) < 1e-12); /* (0.05 x 12000 + 0.3 x 12000) / 24000 */
    /* an even count: the mean of the middle two */
    b.runs = 1, b.ns[0] = 0.5;
    assert_int_equal(timer_merge(&a, &b), 0);
    assert_true(a.median_ns == 250 && a.min_ns == 0.5);
    /* too many runs: refused, nothing changed */
    timer_result big = {0};
    big.runs = TIMER_MAX_RUNS - 5, big.reps_per_run = 1;
    assert_int_equal(timer_merge(&big, &a), -1);
    assert_int_equal(big.runs, TIMER_MAX_RUNS - 5);
}

/* Rounds of one codec must have written the same bytes; they are checked, not averaged. */
static void test_codec_timings_merge_checks_bytes(void **state)
{
    (void)state;
    codec_timings a = {0}, b = {0};
    a.timed = b.timed = TIME_WHOLE_CLIP;
    a.frames = b.frames = 10, a.bones = b.bones = 2;
    a.whole_clip.runs = b.whole_clip.runs = 1;
    a.whole_clip.reps_per_run = b.whole_clip.reps_per_run = 1;
    a.whole_clip.ns[0] = 400, b.whole_clip.ns[0] = 200;
    a.whole_clip.waited_share = b.whole_clip.waited_share = NAN;
    a.whole_clip.steal_share = b.whole_clip.steal_share = NAN;
    a.whole_clip.others_busy_cpus = b.whole_clip.others_busy_cpus = NAN;
    const uint8_t one[3] = {1, 2, 3}, other[3] = {1, 2, 4};
    assert_true(bytes_append(&a.stream, one, 3) && bytes_append(&b.stream, other, 3));
    char err[128];
    assert_int_equal(codec_timings_merge(&a, &b, err, sizeof err), -1);
    assert_non_null(strstr(err, "different bytes"));
    b.stream.size = 0;
    assert_true(bytes_append(&b.stream, one, 3));
    assert_int_equal(codec_timings_merge(&a, &b, err, sizeof err), 0);
    assert_true(a.whole_clip.median_ns == 300);
    assert_true(a.ns_per_joint_sample == 15); /* 300 / (10 x 2) */
    b.timed = TIME_ENCODE;
    assert_int_equal(codec_timings_merge(&a, &b, err, sizeof err), -1);
    bytes_free(&a.stream);
    bytes_free(&b.stream);
}

static atomic_int spinning;

static void *spin(void *arg)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    atomic_store(&spinning, 1);
    volatile unsigned long x = 0;
    while (atomic_load(&spinning) == 1)
        x++;
    (void)arg;
    return NULL;
}

static void burn(void *payload, size_t reps)
{
    volatile double *x = payload;
    for (size_t i = 0; i < reps; i++)
        *x = *x * 1.0000001 + 1e-9;
}

/* A thread spinning on the pinned CPU makes the timed thread wait about half the time: the
 * timer says so (the kernel's run delay), where the runs' spread would not. */
static void test_contention_measured(void **state)
{
    (void)state;
    cpu_set_t all;
    assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
    timer_config c;
    timer_config_default(&c);
    c.pin_cpu = 0;
    c.runs = 5;
    double x = 1;
    timer_result quiet;
    assert_int_equal(timer_measure(burn, (void *)&x, &c, &quiet), 0);
    if (isnan(quiet.waited_share)) { /* no /proc/thread-self/schedstat here: nothing to check */
        sched_setaffinity(0, sizeof all, &all);
        skip();
    }
    pthread_t t;
    atomic_store(&spinning, 0);
    assert_int_equal(pthread_create(&t, NULL, spin, NULL), 0);
    while (atomic_load(&spinning) == 0)
        sched_yield();
    timer_result shared;
    const int rc = timer_measure(burn, (void *)&x, &c, &shared);
    atomic_store(&spinning, 2);
    pthread_join(t, NULL);
    sched_setaffinity(0, sizeof all, &all);
    assert_int_equal(rc, 0);
    assert_true(shared.waited_share > 0.2);
    assert_true(timer_contended(&shared));
    assert_true(quiet.waited_share >= 0); /* not compared with `shared`: other tests may share the machine */
}

static void test_time_patterns(void **state)
{
    (void)state;
    double t[STUDY_TIME_COUNT], again[STUDY_TIME_COUNT];
    pattern_times(PATTERN_STUDY, 180, 60, t, STUDY_TIME_COUNT);
    assert_true(t[0] == 0);
    assert_true(t[1] == 0.7);
    assert_true(t[300] == fmod(300 * 0.7, 180 - 1.001));
    pattern_times(PATTERN_SEQUENTIAL, 180, 60, t, STUDY_TIME_COUNT);
    assert_true(t[179] == 179 && t[180] == 0);
    pattern_times(PATTERN_SEEK, 180, 60, t, STUDY_TIME_COUNT);
    pattern_times(PATTERN_SEEK, 180, 60, again, STUDY_TIME_COUNT);
    for (int i = 0; i < STUDY_TIME_COUNT; i++) {
        assert_true(t[i] >= 0 && t[i] <= 179);
        assert_true(t[i] == again[i]);
    }
    /* playback at 60 poses a second of game time: a 30 Hz clip advances half a frame a pose, a
     * 120 Hz one two frames, wrapping at the last frame; the start is drawn, the same each time */
    pattern_times(PATTERN_PLAYBACK, 90, 30, t, STUDY_TIME_COUNT);
    pattern_times(PATTERN_PLAYBACK, 90, 30, again, STUDY_TIME_COUNT);
    int wraps = 0;
    for (int i = 0; i < STUDY_TIME_COUNT; i++) {
        assert_true(t[i] >= 0 && t[i] < 89);
        assert_true(t[i] == again[i]);
        if (i > 0) {
            const double d = t[i] - t[i - 1];
            wraps += d < 0;
            assert_true(fabs(d - 0.5) < 1e-9 || fabs(d - 0.5 + 89) < 1e-9);
        }
    }
    assert_int_equal(wraps, (int)floor((t[0] + 0.5 * (STUDY_TIME_COUNT - 1)) / 89));
    pattern_times(PATTERN_PLAYBACK, 90, 120, t, STUDY_TIME_COUNT);
    assert_true(fabs(fmod(t[1] - t[0] + 89, 89) - 2) < 1e-9);
}

/* The branch-free search returns the largest lo < n - 1 with f[lo] <= t. */
static void test_find_pair_matches_scan(void **state)
{
    (void)state;
    const key_frame f[] = {0, 1, 4, 5, 9, 20, 21, 22, 40, 77, 78, 100};
    for (int n = 2; n <= 12; n++)
        for (double t = 0; t <= f[n - 1]; t += 0.25) {
            int expect = 0;
            for (int i = 0; i < n - 1; i++)
                if (f[i] <= t)
                    expect = i;
            assert_int_equal(track_find_pair(f, n, t), expect);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcg32_reference_output),
        cmocka_unit_test(test_timer_bookkeeping),
        cmocka_unit_test(test_contended_note),
        cmocka_unit_test(test_timer_merge),
        cmocka_unit_test(test_codec_timings_merge_checks_bytes),
        cmocka_unit_test(test_contention_measured),
        cmocka_unit_test(test_time_patterns),
        cmocka_unit_test(test_find_pair_matches_scan),
    };
    return cmocka_run_group_tests_name("timing", tests, NULL, NULL);
}
