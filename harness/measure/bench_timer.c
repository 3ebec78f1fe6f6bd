#include "harness/measure/bench_timer.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* Reads the start of a /proc file into buf (NUL-terminated) with plain system calls: no stdio, so
 * no allocation while a sampler's allocations may be counted.  Returns the bytes read or -1. */
static ssize_t read_proc(const char *path, char *buf, size_t size)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t got = 0;
    while (got + 1 < size) {
        const ssize_t n = read(fd, buf + got, size - 1 - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    buf[got] = '\0';
    return (ssize_t)got;
}

/* What the kernel counts of this thread and of the machine's CPUs at one moment; NAN where unknown. */
typedef struct cpu_counters {
    double wall_ns;
    double process_cpu_ns;          /* this process, every thread: ns on a CPU (a crowd's workers are not "other work") */
    double run_delay_ns;            /* this thread: ns it was runnable and did not run (schedstat) */
    double busy_s;                  /* every CPU: time not idle, not waiting for I/O, not stolen (/proc/stat) */
    double steal_s;                 /* the pinned CPU: time its hypervisor gave to another machine */
} cpu_counters;

/* The figures of /proc/stat's line `name` ("cpu " for the sum, "cpu1 " for one): busy and steal
 * seconds; false when unknown. */
static bool stat_line(const char *buf, const char *name, double *busy_s, double *steal_s)
{
    const long hz = sysconf(_SC_CLK_TCK);
    const char *line = strstr(buf, name);
    unsigned long long v[8]; /* user nice system idle iowait irq softirq steal, in ticks */
    if (hz <= 0 || !line ||
        sscanf(line + strlen(name), "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
               &v[5], &v[6], &v[7]) != 8)
        return false;
    *busy_s = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / (double)hz;
    *steal_s = (double)v[7] / (double)hz;
    return true;
}

static void cpu_counters_read(int pinned_cpu, cpu_counters *c)
{
    char buf[16384];
    unsigned long long on_cpu, delay;
    struct timespec t;
    c->process_cpu_ns = c->run_delay_ns = c->busy_s = c->steal_s = NAN;
    if (read_proc("/proc/thread-self/schedstat", buf, sizeof buf) > 0 &&
        sscanf(buf, "%llu %llu", &on_cpu, &delay) == 2)
        c->run_delay_ns = (double)delay;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) == 0)
        c->process_cpu_ns = t.tv_sec * 1e9 + t.tv_nsec;
    if (read_proc("/proc/stat", buf, sizeof buf) > 0) {
        double busy, steal;
        if (stat_line(buf, "cpu ", &busy, &steal))
            c->busy_s = busy;
        char name[24];
        snprintf(name, sizeof name, "\ncpu%d ", pinned_cpu);
        if (pinned_cpu >= 0 && stat_line(buf, name, &busy, &steal))
            c->steal_s = steal;
    }
    c->wall_ns = timer_now_ns();
}

/* The shares of timer_result between two readings (NAN propagates: unknown stays unknown). */
static void cpu_counters_shares(const cpu_counters *a, const cpu_counters *b, timer_result *out)
{
    const double wall = b->wall_ns - a->wall_ns;
    if (!(wall > 0))
        return;
    out->waited_share = (b->run_delay_ns - a->run_delay_ns) / wall;
    out->steal_share = (b->steal_s - a->steal_s) * 1e9 / wall;
    const double others = ((b->busy_s - a->busy_s) * 1e9 - (b->process_cpu_ns - a->process_cpu_ns)) / wall;
    out->others_busy_cpus = others > 0 ? others : isnan(others) ? NAN : 0; /* ticks against ns: can dip below 0 */
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median, min and max of out->ns[0 .. runs); `sorted` is scratch of TIMER_MAX_RUNS. */
static void summarise(timer_result *out, double *sorted)
{
    const int runs = out->runs;
    memcpy(sorted, out->ns, (size_t)runs * sizeof *sorted);
    qsort(sorted, (size_t)runs, sizeof *sorted, by_value);
    out->min_ns = sorted[0];
    out->max_ns = sorted[runs - 1];
    out->median_ns = runs % 2 ? sorted[runs / 2] : (sorted[runs / 2 - 1] + sorted[runs / 2]) / 2;
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
    out->waited_share = out->steal_share = out->others_busy_cpus = NAN;
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
    cpu_counters before, after;
    cpu_counters_read(c->pin_cpu, &before);
    for (int r = 0; r < runs; r++) {
        const double took_ns = run_once(f, reps);
        out->timed_ns += took_ns;
        out->ns[r] = took_ns / (double)reps;
    }
    cpu_counters_read(c->pin_cpu, &after);
    cpu_counters_shares(&before, &after, out);
    out->runs = runs;
    out->reps_per_run = reps;
    summarise(out, sorted);
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

/* The mean of two timings' shares, each weighted by its timed_ns; the other's when one is unknown. */
static double weighted(double a, double wa, double b, double wb)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return wa + wb > 0 ? (a * wa + b * wb) / (wa + wb) : a;
}

int timer_merge(timer_result *into, const timer_result *more)
{
    if (into->runs + more->runs > TIMER_MAX_RUNS)
        return -1;
    const double wa = into->timed_ns, wb = more->timed_ns;
    into->waited_share = weighted(into->waited_share, wa, more->waited_share, wb);
    into->steal_share = weighted(into->steal_share, wa, more->steal_share, wb);
    into->others_busy_cpus = weighted(into->others_busy_cpus, wa, more->others_busy_cpus, wb);
    memcpy(into->ns + into->runs, more->ns, (size_t)more->runs * sizeof *more->ns);
    into->runs += more->runs;
    into->timed_ns += more->timed_ns;
    if (more->reps_per_run < into->reps_per_run) /* each round calibrates again: the smaller count */
        into->reps_per_run = more->reps_per_run;
    double sorted[TIMER_MAX_RUNS];
    summarise(into, sorted);
    return 0;
}

double timer_spread(const timer_result *r)
{
    return r->min_ns > 0 ? r->max_ns / r->min_ns : INFINITY;
}

bool timer_contended(const timer_result *r)
{
    return r->waited_share > TIMER_CONTENDED_SHARE || r->steal_share > TIMER_CONTENDED_SHARE ||
           r->others_busy_cpus > TIMER_CONTENDED_OTHERS; /* NAN: false */
}

void timer_noise_note(const timer_result *r, int pinned_cpu, char *out, size_t n)
{
    const double spread = timer_spread(r);
    const bool noisy = !(spread <= TIMER_NOISY_SPREAD);
    size_t k = 0;
    out[0] = '\0';
    if (noisy)
        k += (size_t)snprintf(out, n, "noisy: max/min %.2f", spread);
    if (timer_contended(r) && k < n)
        k += (size_t)snprintf(out + k, n - k, "%scontended: waited %.0f %%, stolen %.0f %%, other work %.2f CPUs",
                              k ? "; " : "", 100 * (isnan(r->waited_share) ? 0 : r->waited_share),
                              100 * (isnan(r->steal_share) ? 0 : r->steal_share),
                              isnan(r->others_busy_cpus) ? 0 : r->others_busy_cpus);
    if (pinned_cpu < 0 && k < n)
        snprintf(out + k, n - k, "%snot pinned", k ? "; " : "");
}
