#include "harness/measure/bench_timer.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double timer_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

void timer_config_default(timer_config *c)
{
    c->runs = 9;
    c->budget_ms = 20;
    c->pin_cpu = -1;
}

bool timer_build_optimised(void)
{
#ifdef __OPTIMIZE__
    return true;
#else
    return false;
#endif
}

int timer_pin_cpu(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One call of either kind of function: the ns it took, by the clock or by its own account. */
typedef struct timed_fn {
    bench_fn plain;
    bench_fn_self self;
    void *payload;
} timed_fn;

static double run_once(const timed_fn *f, size_t reps)
{
    if (f->self)
        return f->self(f->payload, reps);
    const double t0 = timer_now_ns();
    f->plain(f->payload, reps);
    return timer_now_ns() - t0;
}

static int measure(const timed_fn *f, const timer_config *c, timer_result *out)
{
    memset(out, 0, sizeof *out);
    if (c->pin_cpu >= 0 && timer_pin_cpu(c->pin_cpu) != 0)
        return -1;
    const double budget_ns = c->budget_ms * 1e6;
    /* Calibrate: double the count until a run is long enough to time, then
     * scale it to the budget.  The calibration runs also warm caches. */
    size_t reps = 1;
    double took = 0;
    for (;;) {
        took = run_once(f, reps);
        if (took >= budget_ns / 8 || reps >= ((size_t)1 << 40))
            break;
        reps *= 2;
    }
    reps = (size_t)(reps * (budget_ns / (took > 1 ? took : 1)));
    if (reps < 1)
        reps = 1;
    run_once(f, reps); /* one full-length warm-up run */
    const int runs = c->runs < 1 ? 1 : c->runs > TIMER_MAX_RUNS ? TIMER_MAX_RUNS : c->runs;
    double sorted[TIMER_MAX_RUNS];
    for (int r = 0; r < runs; r++) {
        out->ns[r] = run_once(f, reps) / (double)reps;
        sorted[r] = out->ns[r];
    }
    qsort(sorted, (size_t)runs, sizeof *sorted, by_value);
    out->runs = runs;
    out->reps_per_run = reps;
    out->min_ns = sorted[0];
    out->max_ns = sorted[runs - 1];
    out->median_ns = runs % 2 ? sorted[runs / 2] : (sorted[runs / 2 - 1] + sorted[runs / 2]) / 2;
    return 0;
}

int timer_measure(bench_fn fn, void *payload, const timer_config *c, timer_result *out)
{
    const timed_fn f = {fn, NULL, payload};
    return measure(&f, c, out);
}

int timer_measure_self(bench_fn_self fn, void *payload, const timer_config *c, timer_result *out)
{
    const timed_fn f = {NULL, fn, payload};
    return measure(&f, c, out);
}

double timer_spread(const timer_result *r)
{
    return r->min_ns > 0 ? r->max_ns / r->min_ns : INFINITY;
}

void timer_noise_note(const timer_result *r, int pinned_cpu, char *out, size_t n)
{
    const double spread = timer_spread(r);
    const bool noisy = !(spread <= TIMER_NOISY_SPREAD);
    size_t k = 0;
    out[0] = '\0';
    if (noisy)
        k += (size_t)snprintf(out, n, "noisy: max/min %.2f", spread);
    if (pinned_cpu < 0 && k < n)
        snprintf(out + k, n - k, "%snot pinned", noisy ? "; " : "");
}
