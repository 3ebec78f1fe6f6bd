#include "harness/measure/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_THREADS 64

typedef struct pool {
    parallel_job job;
    void *ctx;
    int count;
    atomic_int next;
} pool;

int parallel_thread_count(void)
{
    const char *env = getenv("ANIMBENCH_THREADS");
    long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return n > MAX_THREADS ? MAX_THREADS : (int)n;
}

static void *worker(void *arg)
{
    pool *p = arg;
    for (int i; (i = atomic_fetch_add(&p->next, 1)) < p->count;)
        p->job(p->ctx, i);
    return NULL;
}

void parallel_for(int count, parallel_job job, void *ctx)
{
    pool p = {job, ctx, count, 0};
    int threads = parallel_thread_count();
    if (threads > count)
        threads = count;
    pthread_t ids[MAX_THREADS];
    int started = 0;
    for (int t = 1; t < threads; t++)
        if (pthread_create(&ids[started], NULL, worker, &p) == 0)
            started++;
    worker(&p); /* the caller works too; jobs left by failed threads run here */
    for (int t = 0; t < started; t++)
        pthread_join(ids[t], NULL);
}
