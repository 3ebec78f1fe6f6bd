/* Results files: JSON (cJSON), one schema, documented in docs/results.md.
 * A context block says where the results came from; one entry per measured
 * point.  Files are written to a temporary name and renamed into place, so
 * a reader never sees half a file. */
#ifndef ANIMBENCH_RESULTS_H
#define ANIMBENCH_RESULTS_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "measure.h"

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

/* Writes text atomically, the same way; a folder as path is refused, and
 * PATH.tmp.PID files left by killed processes are removed first. */
int write_file_atomic(const char *path, const char *text, size_t size, char *err, size_t err_size);
/* Files and bytes written by write_file_atomic in this process (for tests
 * that writing stays linear). */
void results_write_stats(unsigned long long *files, unsigned long long *bytes);

#endif
