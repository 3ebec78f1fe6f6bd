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

int timer_measure(bench_fn fn, void *payload, const timer_config *c, timer_result *out)
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
        const double t0 = timer_now_ns();
        fn(payload, reps);
        took = timer_now_ns() - t0;
        if (took >= budget_ns / 8 || reps >= ((size_t)1 << 40))
            break;
        reps *= 2;
    }
    reps = (size_t)(reps * (budget_ns / (took > 1 ? took : 1)));
    if (reps < 1)
        reps = 1;
    fn(payload, reps); /* one full-length warm-up run */
    const int runs = c->runs < 1 ? 1 : c->runs > TIMER_MAX_RUNS ? TIMER_MAX_RUNS : c->runs;
    double sorted[TIMER_MAX_RUNS];
    for (int r = 0; r < runs; r++) {
        const double t0 = timer_now_ns();
        fn(payload, reps);
        out->ns[r] = (timer_now_ns() - t0) / (double)reps;
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
