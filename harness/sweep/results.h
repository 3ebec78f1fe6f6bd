/* Results files: JSON (cJSON), one schema, documented in docs/results.md.
 * A context block says where the results came from; one entry per measured
 * point.  Files are written to a temporary name and renamed into place, so
 * a reader never sees half a file. */
#ifndef ANIMBENCH_RESULTS_H
#define ANIMBENCH_RESULTS_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "harness/measure/measure.h"

#define RESULTS_SCHEMA_VERSION 1

cJSON *results_context(int argc, char **argv);
cJSON *results_clip(const clip_source *s);
/* The point's identity: code version, clip (name and sample hash), codec and
 * the parameters it uses.  A sweep skips a point whose key is on disk. */
void results_point_key(const measured_clip *clip, const codec *c, const codec_params *p, char *out, size_t n);
cJSON *results_point(const measured_clip *clip, const point_result *r);

/* A new results document {schema_version, context, points: []}. */
cJSON *results_document(int argc, char **argv);

/* Writes atomically: PATH.tmp.PID, flushed and synced, renamed to PATH. */
int results_write(const char *path, const cJSON *doc, char *err, size_t err_size);
/* Reads any JSON file; errors name the file, line and column. */
cJSON *results_read_json(const char *path, int *missing, char *err, size_t err_size);
/* Reads a results file.  *missing is set when it does not exist. */
cJSON *results_read(const char *path, int *missing, char *err, size_t err_size);

/* Where a result for `path` goes, checked before any work: the path itself,
 * or the file a symbolic link names (the link stays a link, and two sweeps
 * reaching one file by two names lock the same file).  Refuses an empty
 * path, a missing folder, a dangling link, and an existing output that is
 * not a regular file (a folder, a device, a pipe).  0, or -1 with why. */
int results_output_path(const char *path, char *resolved, size_t n, char *err, size_t err_size);
/* 0 when `path` may be replaced by a one-off result (run, match, bench
 * --json): it does not exist, or holds no points a sweep measured; -1 with
 * a message naming the sweep otherwise. */
int results_check_replaceable(const char *path, char *err, size_t err_size);

/* For a command about to write `path` (NULL: nothing to check): the checks
 * of results_output_path and, when one_off, of results_check_replaceable,
 * before any work.  Prints "animbench CMD: why" and returns -1 on failure. */
int results_check_output(const char *cmd, const char *path, int one_off);

/* Writes text atomically, the same way; a folder as path is refused, and
 * PATH.tmp.PID files left by killed processes are removed first. */
int write_file_atomic(const char *path, const char *text, size_t size, char *err, size_t err_size);
/* Files and bytes written by write_file_atomic in this process (for tests
 * that writing stays linear). */
void results_write_stats(unsigned long long *files, unsigned long long *bytes);

#endif
