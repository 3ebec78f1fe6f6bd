#ifndef ANIMBENCH_OUTPUT_LOCK_H
#define ANIMBENCH_OUTPUT_LOCK_H

/* An exclusive lock on OUTPUT.lock (flock) held until the descriptor is
 * closed or the process ends: a second writer of the same output (a sweep,
 * a shard, a merge) stops with a message naming the holder instead of
 * overwriting its points.  The lock dies with its process, so a killed
 * writer never leaves the output locked.  Returns the descriptor, or -1
 * after "animbench CMD: why". */
int output_lock(const char *cmd, const char *output);

#endif
