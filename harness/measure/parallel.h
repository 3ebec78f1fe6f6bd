/* Runs independent jobs on every core.  Each job writes only its own
 * result, so figures do not depend on the thread count or on scheduling. */
#ifndef ANIMBENCH_PARALLEL_H
#define ANIMBENCH_PARALLEL_H

typedef void (*parallel_job)(void *ctx, int index);

/* Threads: ANIMBENCH_THREADS if set (1 runs everything on the caller's
 * thread), else the online CPU count. */
int parallel_thread_count(void);
void parallel_for(int count, parallel_job job, void *ctx);

#endif
