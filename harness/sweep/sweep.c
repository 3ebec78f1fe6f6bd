/* `animbench sweep FILE`: runs a sweep definition (docs/sweeps.md).
 *
 * A sweep is a declared product of clips, codecs and parameter lists.  Every
 * point is stored with its parameters and the definition that asked for it.
 *
 * The output is never silently lost: points of the output that another
 * definition measured are kept; only this definition's own points that it no
 * longer names (or that an older code version measured) are replaced.  While
 * it runs, a sweep holds an exclusive lock on OUTPUT.lock, appends each
 * measured point to OUTPUT.journal (one JSON line, synced per batch) and, at
 * the end, writes OUTPUT once, atomically, and removes the journal.  Writing
 * is linear in the points measured; a sweep killed at any moment leaves the
 * previous whole OUTPUT plus a journal that the next run takes its points
 * from.  Tables for plotting are exported from the stored results afterwards. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/limits.h"
#include "core/text_file.h"
#include "harness/sweep/export.h"
#include "harness/sweep/output_lock.h"
#include "harness/sweep/owners.h"
#include "harness/measure/parallel.h"
#include "harness/sweep/match_json.h"
#include "harness/sweep/results.h"
#include "harness/sweep/sweep.h"
#include "harness/sweep/sweep_internal.h"

typedef struct batch {
    const sweep *s;
    sweep_point **points;
} batch;

static void measure_job(void *ctx, int index)
{
    const batch *b = ctx;
    sweep_point *p = b->points[index];
    const sweep *s = b->s;
    point_result r;
    const measured_clip *mc = s->clips[p->clip];
    if (p->is_match) {
        match_result m;
        if (match_search(mc, p->codec, &p->params, p->metric, p->target_mm, &m, p->error, sizeof p->error) != 0)
            return;
        p->result = match_point_json(mc, p->codec, &p->params, p->metric, p->target_mm, &m, p->error, sizeof p->error);
        match_result_free(&m);
        if (p->result) /* keyed on the question, not on the setting that answered it */
            cJSON_ReplaceItemInObjectCaseSensitive(p->result, "key", cJSON_CreateString(p->key));
    } else if (measure_point(mc, p->codec, &p->params, p->histogram, &r, p->error, sizeof p->error) == 0) {
        p->result = results_point(mc, &r);
        point_result_free(&r);
    }
    if (p->result) {
        cJSON *owners = cJSON_AddArrayToObject(p->result, "sweeps");
        cJSON_AddItemToArray(owners, owner_json(s->name, s->definition));
    }
}

/* ------------------------------------------------------------- running */

static int point_by_key_then_index(const void *a, const void *b)
{
    const sweep_point *x = *(sweep_point *const *)a, *y = *(sweep_point *const *)b;
    const int c = strcmp(x->key, y->key);
    return c ? c : (x > y) - (x < y);
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void point_label(const sweep *s, const sweep_point *p, char *out, size_t n)
{
    char params[512];
    codec_params_format(p->codec, &p->params, params, sizeof params);
    snprintf(out, n, "%.400s %s%s", s->clip_names[p->clip], p->codec->name, params);
}

static bool decodes(const cJSON *point)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(point, "decoded"), "ok"));
}

void sweep_shard_path(const char *output, int index, int count, char *out, size_t n)
{
    const size_t len = strlen(output);
    const bool json = len > 5 && strcmp(output + len - 5, ".json") == 0;
    snprintf(out, n, "%.*s.shard-%d-of-%d%s", (int)(json ? len - 5 : len), output, index, count, json ? ".json" : "");
}

int sweep_run(const char *path, const sweep_options *opt, int full_argc, char **full_argv, sweep_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    sweep s = {0};
    s.path = path;
    sweep_normalise_path(path, s.definition, sizeof s.definition);
    int missing, lock = -1;
    char err[600];
    cJSON *def = results_read_json(path, &missing, err, sizeof err);
    if (!def) {
        fprintf(stderr, "animbench sweep: %s\n", missing ? "no such sweep definition" : err);
        if (missing)
            fprintf(stderr, "  (looked for %s)\n", path);
        return 2;
    }
    int rc = sweep_parse_definition(&s, def);
    cJSON_Delete(def);
    s.shard_index = opt->shard_index;
    s.shard_count = opt->shard_count;
    if (rc == 0 && s.shard_count) {
        size_t len;
        int error_number;
        char *text = read_whole_file(path, LIMIT_JSON_FILE_BYTES, &len, &error_number, err, sizeof err);
        if (!text) {
            fprintf(stderr, "animbench sweep: %s\n", err);
            rc = -1;
        } else {
            snprintf(s.definition_hash, sizeof s.definition_hash, "%016llx",
                     (unsigned long long)bytes_fnv1a64(text, len));
            free(text);
        }
        snprintf(s.merged_output, sizeof s.merged_output, "%s", s.output);
        sweep_shard_path(s.merged_output, s.shard_index, s.shard_count, s.output, sizeof s.output);
    }
    if (rc == 0 && results_output_path(s.output, s.target, sizeof s.target, err, sizeof err) != 0) {
        fprintf(stderr, "animbench sweep: %s: \"output\": %s\n", path, err);
        rc = -1;
    }
    if (rc != 0) {
        rc = 2;
        goto done;
    }
    if (opt->print_output) {
        printf("%s\n", s.output);
        goto done;
    }
    if (sweep_load_clips(&s) != 0) {
        rc = 2;
        goto done;
    }
    if ((lock = output_lock("sweep", s.target)) < 0) {
        rc = 1;
        goto done;
    }
    sweep_journal jr = {{0}, NULL};
    snprintf(jr.path, sizeof jr.path, "%s.journal", s.target);
    struct stat journal_stat;
    const bool journal_existed = stat(jr.path, &journal_stat) == 0;
    store st;
    if (sweep_store_load(&s, jr.path, &st) != 0) {
        sweep_store_free(&st);
        rc = 1;
        goto done;
    }
    if (st.from_journal)
        fprintf(stderr, "[sweep %s] %d points recovered from %s, left by a run that did not finish\n", s.name,
                st.from_journal, jr.path);
    sweep_point **queue = malloc(((size_t)s.point_count + 1) * sizeof *queue);
    if (!queue) {
        fprintf(stderr, "animbench sweep: out of memory\n");
        sweep_store_free(&st);
        rc = 1;
        goto done;
    }
    int todo = 0, skipped = 0, distinct = 0;
    /* duplicates by key, found in one pass over the points sorted by key */
    for (int i = 0; i < s.point_count; i++) {
        sweep_point *p = &s.points[i];
        results_point_key(s.clips[p->clip], p->codec, &p->params, p->key, sizeof p->key);
        if (p->is_match) {
            const size_t len = strlen(p->key);
            snprintf(p->key + len, sizeof p->key - len, "|match %s<=%.17g", MATCH_METRIC_NAMES[p->metric],
                     p->target_mm);
        }
    }
    {
        sweep_point **order = malloc(((size_t)s.point_count + 1) * sizeof *order);
        if (!order) {
            fprintf(stderr, "animbench sweep: out of memory\n");
            free(queue);
            sweep_store_free(&st);
            rc = 1;
            goto done;
        }
        for (int i = 0; i < s.point_count; i++)
            order[i] = &s.points[i];
        qsort(order, (size_t)s.point_count, sizeof *order, point_by_key_then_index);
        for (int i = 1; i < s.point_count; i++)
            if (strcmp(order[i]->key, order[i - 1]->key) == 0) {
                sweep_point *first = order[i - 1]->duplicate ? order[i - 1]->stored_first : order[i - 1];
                order[i]->duplicate = true; /* named by two runs: measured once */
                order[i]->stored_first = first;
                first->histogram |= order[i]->histogram;
            }
        /* A shard takes every n-th distinct point in key order (keys lead
         * with the clip, then the codec, so each shard gets a mix of both). */
        for (int i = 0, rank = 0; s.shard_count && i < s.point_count; i++)
            if (!order[i]->duplicate)
                order[i]->other_shard = rank++ % s.shard_count != s.shard_index - 1;
        free(order);
        for (int i = 0, ordinal = 0; i < s.point_count; i++)
            if (!s.points[i].duplicate)
                s.points[i].ordinal = ordinal++;
    }
    for (int i = 0; i < s.point_count; i++) {
        sweep_point *p = &s.points[i];
        if (p->duplicate || p->other_shard)
            continue;
        distinct++;
        const stored_point *sp = sweep_store_find(&st, p->key);
        if (sp && !opt->force) {
            p->stored = sp->point;
            skipped++;
        } else {
            queue[todo++] = p;
        }
    }
    fprintf(stderr, "[sweep %s] %d points: %d stored for this code version, %d to measure -> %s\n", s.name, distinct,
            skipped, todo, s.output);
    stats->points = distinct;
    stats->on_disk = skipped;
    stats->recovered = st.from_journal;
    const double start = now_seconds();
    double last_report = start;
    const int batch_size = parallel_thread_count() * 2;
    int failures = 0;
    int attempted = 0;
    for (int done_count = 0; done_count < todo;) {
        const int n = todo - done_count < batch_size ? todo - done_count : batch_size;
        attempted += n;
        batch b = {&s, queue + done_count};
        parallel_for(n, measure_job, &b);
        for (int i = 0; i < n; i++) {
            sweep_point *p = queue[done_count + i];
            char label[1024];
            point_label(&s, p, label, sizeof label);
            if (!p->result) {
                fprintf(stderr, "animbench sweep: %s: %s\n", label, p->error);
                failures++;
                continue;
            }
            stats->measured++;
            if (!decodes(p->result)) {
                const cJSON *why = cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(p->result, "decoded"), "error");
                fprintf(stderr, "animbench sweep: %s: the stream does not decode: %s\n", label,
                        cJSON_IsString(why) ? why->valuestring : "(no reason given)");
                failures++;
            }
            if (sweep_journal_append(&jr, &s, p->result) != 0) {
                fprintf(stderr, "animbench sweep: cannot append to %s: %s\n", jr.path, strerror(errno));
                rc = 1;
            }
        }
        if (sweep_journal_sync(&jr) != 0) {
            fprintf(stderr, "animbench sweep: cannot write %s: %s\n", jr.path, strerror(errno));
            rc = 1;
        }
        done_count += n;
        if (now_seconds() - last_report >= 0.5 || done_count == todo) {
            last_report = now_seconds();
            const sweep_point *last = queue[done_count - 1];
            fprintf(stderr, "[sweep %s] %d/%d measured, %d remaining, %.1f s elapsed (last: %s %s)\n", s.name,
                    done_count, todo, todo - done_count, now_seconds() - start, s.clip_names[last->clip],
                    last->codec->name);
        }
        if (rc != 0 || (failures && !opt->keep_going))
            break;
    }
    if (jr.f)
        fclose(jr.f);
    int dropped = 0, foreign = 0;
    bool owners_changed = false;
    char owners[1024];
    cJSON *doc = sweep_assemble(&s, &st, full_argc, full_argv, &dropped, &foreign, &owners_changed, owners, sizeof owners);
    stats->kept_foreign = foreign;
    stats->dropped = dropped;
    int undecodable = 0;
    for (int i = 0; i < s.point_count; i++)
        undecodable += !s.points[i].duplicate && !s.points[i].other_shard && (s.points[i].result || s.points[i].stored) &&
                       !decodes(s.points[i].result ? s.points[i].result : s.points[i].stored);
    stats->undecodable = undecodable;
    stats->failed = failures;
    const bool changed =
        stats->measured > 0 || journal_existed || dropped > 0 || owners_changed || !st.output_doc;
    if (changed) {
        if (results_write(s.target, doc, err, sizeof err) != 0) {
            fprintf(stderr, "animbench sweep: %s (the measured points stay in %s)\n", err, jr.path);
            rc = 1;
        } else if (unlink(jr.path) != 0 && errno != ENOENT) {
            fprintf(stderr, "animbench sweep: cannot remove %s: %s\n", jr.path, strerror(errno));
            rc = 1;
        }
    }
    cJSON_Delete(doc);
    fprintf(stderr, "[sweep %s] done: %d points of this definition (%d measured now, %d stored)%s", s.name, distinct,
            stats->measured, skipped, foreign ? "" : "\n");
    if (foreign)
        fprintf(stderr, "; %d points of other definitions kept in %s: %s\n", foreign, s.output, owners);
    if (dropped)
        fprintf(stderr, "[sweep %s] %d stored points of this definition that it no longer names (or that an older "
                        "code version measured) were replaced\n", s.name, dropped);
    if (!changed)
        fprintf(stderr, "[sweep %s] %s unchanged: every point was already stored\n", s.name, s.output);
    if (attempted < todo)
        fprintf(stderr, "[sweep %s] %d points not attempted: the sweep stopped after the batch that failed\n", s.name,
                todo - attempted);
    if (undecodable || failures) {
        fprintf(stderr, "[sweep %s] %d point%s failed to measure or decode (%d stored that do not decode)%s\n", s.name,
                failures, failures == 1 ? "" : "s", undecodable,
                opt->keep_going ? " (--keep-going: exit status 0)" : "; exit status 1 (--keep-going measures on)");
        if (!opt->keep_going)
            rc = 1;
    }
    sweep_store_free(&st);
    for (int i = 0; i < s.point_count; i++)
        cJSON_Delete(s.points[i].result);
    free(queue);
    if (rc == 0 && !s.shard_count) { /* a shard's tables are the merge's */
        rc = export_tables_for(s.target, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "animbench sweep: %s\n", err);
    }
done:
    if (lock >= 0)
        close(lock);
    for (int i = 0; i < s.clip_count; i++) {
        measured_clip_free(s.clips[i]);
        free(s.clip_names[i]);
    }
    free(s.points);
    return rc == 0 ? 0 : rc == 2 ? 2 : 1;
}
