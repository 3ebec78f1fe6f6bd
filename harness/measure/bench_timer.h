/* A timer that knows nothing about animation: a function, a payload, a
 * count (zstd's benchfn is the model).  fn(payload, reps) does reps units of
 * work; the timer warms up, calibrates reps so that one run lasts about the
 * budget, then times `runs` runs and reports ns per unit for each.
 *
 * Figures from here are never asserted in tests: they move with the machine. */
#ifndef ANIMBENCH_BENCH_TIMER_H
#define ANIMBENCH_BENCH_TIMER_H

#include <stdbool.h>
#include <stddef.h>

#define TIMER_MAX_RUNS 101

typedef void (*bench_fn)(void *payload, size_t reps);
/* A unit of work that times itself: returns the ns of the reps that count (time to first pose
 * counts create and the first sample, not the sampler's free). */
typedef double (*bench_fn_self)(void *payload, size_t reps);

typedef struct timer_config {
    int runs;         /* 9, as the study */
    double budget_ms; /* one run's target length, default 20 */
    int pin_cpu;      /* -1: no pinning */
} timer_config;

typedef struct timer_result {
    int runs;
    size_t reps_per_run;
    double ns[TIMER_MAX_RUNS]; /* per unit, in run order */
    double median_ns, min_ns, max_ns;
    /* Over the timed runs' wall time (not calibration or warm-up): the share the thread was
     * runnable but waiting for its CPU, another thread having it (the kernel's run delay,
     * /proc/thread-self/schedstat, ns resolution); the share the pinned CPU's hypervisor gave to
     * another machine (steal); and the work of everything else on the machine, in CPUs (every
     * CPU's busy time less this process's, a crowd's worker threads included: a busy sibling CPU shares caches, memory and often a
     * core with the timed one, and slowed a whole-clip decode 1.6x here).  The last two from
     * /proc/stat, in ticks of 1/USER_HZ: coarse for runs of a few tens of ms.  NAN when unknown
     * (no such file; steal: not pinned).  Contention that lasts the whole measurement slows every
     * run alike, so max/min does not show it. */
    double waited_share, steal_share, others_busy_cpus;
    double timed_ns; /* the timed runs' own time, the weight of the shares when timings are merged */
} timer_result;

void timer_config_default(timer_config *c);
/* Returns 0, or -1 when pinning was asked for and failed. */
int timer_measure(bench_fn fn, void *payload, const timer_config *c, timer_result *out);
/* The same for a function that times itself (bench_fn_self). */
int timer_measure_self(bench_fn_self fn, void *payload, const timer_config *c, timer_result *out);
/* Appends `more`'s runs to `into` (the same work timed again later, as bench --rounds does) and
 * summarises them together: median, min and max over every run; the contention shares the mean over
 * the timings weighted by their timed_ns (one unknown share: the other's), so one contended round
 * among several counts for its share of the time, as its runs do for the median; reps_per_run the
 * smaller (each round calibrates again), timed_ns the sum.  Returns 0, or -1 when the runs together would
 * exceed TIMER_MAX_RUNS (into unchanged). */
int timer_merge(timer_result *into, const timer_result *more);
/* Runs whose slowest is more than this times the fastest are reported noisy. */
#define TIMER_NOISY_SPREAD 1.3
/* Timed runs that waited or were stolen from for more than this share of their wall time are
 * reported contended ... */
#define TIMER_CONTENDED_SHARE 0.02
/* ... or beside which other work kept more than this many CPUs busy. */
#define TIMER_CONTENDED_OTHERS 0.1
bool timer_contended(const timer_result *r);
/* max / min over the runs. */
double timer_spread(const timer_result *r);
/* What to say next to a figure: "" when the runs agree, were not contended and the thread was
 * pinned; otherwise any of "noisy: max/min 1.45", "contended: waited 31 %, stolen 0 %, other work 0.95 CPUs" and
 * "not pinned". */
void timer_noise_note(const timer_result *r, int pinned_cpu, char *out, size_t n);
/* Pins the calling thread to one CPU; returns 0 or -1. */
int timer_pin_cpu(int cpu);
/* True when this build was compiled with optimisation. */
bool timer_build_optimised(void);
double timer_now_ns(void);

#endif
