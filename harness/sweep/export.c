#include "harness/sweep/export.h"

#include "harness/measure/bench_timer.h"
#include "harness/measure/match.h"
#include <stdarg.h>

#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness/sweep/results.h"

double summary_point_metric(const cJSON *pt, match_metric m);

static double num(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(obj, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static const char *str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(obj, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* A growing text buffer for the TSV. */
typedef struct text {
    char *data;
    size_t size, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        const int n = vsnprintf(t->data ? t->data + t->size : NULL, t->data ? t->cap - t->size : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if (t->data && t->size + (size_t)n < t->cap) {
            t->size += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap < t->size + (size_t)n + 1)
            cap *= 2;
        char *p = realloc(t->data, cap);
        if (!p)
            return;
        t->data = p;
        t->cap = cap;
    }
}

static void fmt_or_dash(text *t, double v, const char *fmt)
{
    if (v < 0)
        put(t, "\t-");
    else
        put(t, fmt, v);
}

typedef struct row {
    int clip_rank, codec_rank;
    double tol, step;
    char *line;
} row;

static int rank_of(const char **names, int *count, const char *name)
{
    for (int i = 0; i < *count; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    names[*count] = name;
    return (*count)++;
}

static int row_order(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->clip_rank != y->clip_rank)
        return x->clip_rank - y->clip_rank;
    if (x->codec_rank != y->codec_rank)
        return x->codec_rank - y->codec_rank;
    if ((x->step >= 0) != (y->step >= 0)) /* a codec's curve first, then its equal-error points */
        return x->step >= 0 ? 1 : -1;
    if (x->tol != y->tol)
        return x->tol < y->tol ? -1 : 1;
    return x->step < y->step ? -1 : x->step > y->step;
}

/* The study's seven techniques (and the two self-contained layouts) at one
 * tolerance, a row each, a column group per clip: the bar chart's table. */
static const struct {
    const char *label, *codec;
    bool tolerance;
} TECHNIQUES[] = {
    {"1 raw", "raw", false},          {"2 const", "const", false},
    {"3 linear-all", "linear-all", true}, {"4 linear", "linear", true},
    {"5 cubic", "cubic", true},        {"6 cubic-q", "cubic-q", true},
    {"7 quant", "quant", false},       {"6 cubic-q-sc", "cubic-q-sc", true},
    {"7 quant-sc", "quant-sc", false},
};

static const cJSON *find_point(const cJSON *doc, const char *clip, const char *codec_name, double tol)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(doc, "points"))
    {
        const cJSON *c = cJSON_GetObjectItem(p, "codec");
        if (strcmp(str(cJSON_GetObjectItem(p, "clip"), "name"), clip) != 0 || strcmp(str(c, "name"), codec_name) != 0)
            continue;
        if (tol < 0 || num(cJSON_GetObjectItem(c, "params"), "tol_mm") == tol)
            return p;
    }
    return NULL;
}

static void technique_table(const cJSON *doc, const char **clips, int clip_count, text *t)
{
    put(t, "# the study's techniques at 1 mm: bytes per second, gzip bytes per second and max error per clip\n");
    put(t, "# technique");
    for (int c = 0; c < clip_count; c++)
        put(t, "\t%s_Bps\t%s_gzBps\t%s_max_mm", clips[c], clips[c], clips[c]);
    put(t, "\n");
    for (size_t i = 0; i < sizeof TECHNIQUES / sizeof TECHNIQUES[0]; i++) {
        put(t, "\"%s\"", TECHNIQUES[i].label);
        for (int c = 0; c < clip_count; c++) {
            const cJSON *p = find_point(doc, clips[c], TECHNIQUES[i].codec, TECHNIQUES[i].tolerance ? 1.0 : -1);
            const cJSON *dec = p ? cJSON_GetObjectItem(p, "decoded") : NULL;
            if (p)
                put(t, "\t%.3f\t%.3f", num(p, "bytes_per_second"), num(p, "gzip_bytes_per_second"));
            else
                put(t, "\t-\t-");
            fmt_or_dash(t, p && cJSON_IsTrue(cJSON_GetObjectItem(dec, "ok")) ? num(dec, "max_mm") : -1, "\t%.6g");
        }
        put(t, "\n");
    }
}

/* A point's per-pose timing at seek times ("random" in files written before the patterns were
 * renamed), for the points table's ns_pose columns. */
static const cJSON *timing_of(const cJSON *p)
{
    const cJSON *t = cJSON_GetObjectItem(p, "timings");
    const cJSON *seek = cJSON_GetObjectItem(t, "seek");
    return seek ? seek : cJSON_GetObjectItem(t, "random");
}

static void timing_line(text *t, const char *name, const char *clip, const char *pattern, const cJSON *r,
                        const cJSON *memory, const cJSON *match, double joint_samples)
{
    put(t, "%s\t%s\t%s\t%.2f\t%.2f\t%.2f", name, clip, pattern, num(r, "median_ns"), num(r, "min_ns"), num(r, "max_ns"));
    if (memory)
        put(t, "\t%.0f\t%.0f", num(memory, "stream_bytes"), num(memory, "held_bytes"));
    else
        put(t, "\t-\t-");
    fmt_or_dash(t, joint_samples, "\t%.0f");
    if (memory)
        put(t, "\t%d", cJSON_IsTrue(cJSON_GetObjectItem(memory, "decodes_ahead")));
    else
        put(t, "\t-");
    fmt_or_dash(t, match ? num(match, "target_mm") : -1, "\t%.15g");
    const cJSON *reach = match ? cJSON_GetObjectItem(match, "reachable") : NULL;
    put(t, "\t%s", !reach ? "-" : cJSON_IsTrue(reach) ? "1" : "0");
    /* files written before the timer measured contention have neither share: '-' */
    static const char *const SHARES[3] = {"waited_share", "steal_share", "others_busy_cpus"};
    for (int i = 0; i < 3; i++) {
        const cJSON *v = cJSON_GetObjectItem(r, SHARES[i]);
        fmt_or_dash(t, cJSON_IsNumber(v) ? v->valuedouble : -1, "\t%.4f");
    }
    const cJSON *contended = cJSON_GetObjectItem(r, "contended");
    put(t, "\t%s\n", !cJSON_IsBool(contended) ? "-" : cJSON_IsTrue(contended) ? "1" : "0");
}

/* Decode timings, one row per codec, clip and pattern (the ceilings, a codec's crowd over the
 * run's clips as clip "*"), with what the sampler holds beside each. */
static int timing_table(const cJSON *doc, text *t)
{
    int rows = 0;
    put(t, "# decode timings from %s: ns (a crowd's: per pose; first_pose: from the bytes to the first pose; whole_clip "
           "and encode: per clip); the sampler's memory; over the timed runs, the share of their wall time the thread "
           "waited for its CPU and the pinned CPU lost to steal (above %.2f: contended), and the other work on the "
           "machine in CPUs (above %.2f: contended), and whether it was (1); '-' where not measured\n",
        "bench", TIMER_CONTENDED_SHARE, TIMER_CONTENDED_OTHERS);
    put(t, "codec\tclip\tpattern\tmedian_ns\tmin_ns\tmax_ns\tstream_bytes\theld_bytes\tjoint_samples\tdecodes_ahead"
           "\ttarget_mm\treached\twaited_share\tsteal_share\tothers_busy_cpus\tcontended\n");
    static const char *const CEILINGS[2][2] = {{"copy_pose", "ceiling-copy-pose"}, {"lerp_pose", "ceiling-lerp-pose"}};
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(doc, "ceilings"))
    {
        const cJSON *clip = cJSON_GetObjectItem(e, "clip");
        for (int k = 0; k < 2; k++)
            timing_line(t, CEILINGS[k][1], str(clip, "name"), "study", cJSON_GetObjectItem(e, CEILINGS[k][0]), NULL,
                        NULL, num(clip, "frames") * num(clip, "bones"));
    }
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(doc, "points"))
    {
        const cJSON *timings = cJSON_GetObjectItem(p, "timings"), *clip = cJSON_GetObjectItem(p, "clip");
        if (!cJSON_IsObject(timings))
            continue;
        const double js = num(clip, "frames") * num(clip, "bones");
        const cJSON *r;
        cJSON_ArrayForEach(r, timings)
        {
            if (strcmp(r->string, "crowd") == 0 || !cJSON_IsObject(r))
                continue;
            timing_line(t, str(cJSON_GetObjectItem(p, "codec"), "name"), str(clip, "name"),
                        strcmp(r->string, "random") == 0 ? "seek" : r->string, r, cJSON_GetObjectItem(p, "memory"),
                        cJSON_GetObjectItem(p, "match"), js);
            rows++;
        }
    }
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(doc, "crowds"))
    {
        const cJSON *one = cJSON_GetObjectItem(e, "one_core"), *every = cJSON_GetObjectItem(e, "every_core");
        const cJSON *setup = cJSON_GetObjectItem(doc, "timing_setup");
        char clipset[64];
        snprintf(clipset, sizeof clipset, "*%.0f", num(e, "streams"));
        const double target = num(setup, "equal_error_target_mm");
        cJSON *m = target >= 0 ? cJSON_CreateObject() : NULL;
        if (m)
            cJSON_AddNumberToObject(m, "target_mm", target);
        timing_line(t, str(e, "codec"), clipset, "crowd", one, NULL, m, -1);
        timing_line(t, str(e, "codec"), clipset, "every_core", every, NULL, m, -1);
        cJSON_Delete(m);
        rows++;
    }
    return rows;
}

int export_tables_for(const char *path, char *err, size_t err_size)
{
    int missing;
    cJSON *doc = results_read(path, &missing, err, err_size);
    if (!doc)
        return -1;
    char base[4096];
    snprintf(base, sizeof base, "%s", path);
    char *dot = strrchr(base, '.');
    if (dot && strcmp(dot, ".json") == 0)
        *dot = '\0';
    text points = {0}, keys = {0};
    put(&points, "# animbench results table from %s: one row per point; '-' where not defined\n", path);
    put(&points, "clip\tcodec\ttol_mm\tstep\tframes\tfps\tbytes\tbytes_per_s\tgzip_bytes\tgzip_per_s\tkeys"
                 "\tmax_mm\tmean_mm\tmax_deg\tenc_max_mm\tenc_mean_mm\tenc_max_deg\tself_contained\tdecoded_ok"
                 "\tns_pose_median\tns_pose_min\tns_pose_max"
                 "\tshell_max_mm\tshell_p99_mm\tshell_above\tbetween_max_mm\tbetween_shell_max_mm\teffector_max_mm"
                 "\tslide_max_mm\tsink_max_mm\tbits_per_joint_sample\tacl_raw_ratio\tjoint_p99_mm\tjoint_median_mm"
                 "\tknob\tknob_value\tmatch_metric\ttarget_mm\treachable\tparams\tmatch_value_mm\tkey_time_bytes\n");
    put(&keys, "# animbench key histograms from %s: animated keys stored at each frame\n", path);
    put(&keys, "clip\tcodec\ttol_mm\tframe\tseconds\tkeys\n");
    int histograms = 0, nrows = 0, nclips = 0, ncodecs = 0;
    const int npoints = cJSON_GetArraySize(cJSON_GetObjectItem(doc, "points"));
    row *rows = calloc((size_t)npoints + 1, sizeof *rows);
    const char **clip_names = calloc((size_t)npoints + 1, sizeof *clip_names);
    const char **codec_names = calloc((size_t)npoints + 1, sizeof *codec_names);
    const size_t header_size = points.size;
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(doc, "points"))
    {
        const size_t row_start = points.size;
        const cJSON *clip = cJSON_GetObjectItem(p, "clip"), *cdc = cJSON_GetObjectItem(p, "codec");
        const cJSON *params = cJSON_GetObjectItem(cdc, "params"), *dec = cJSON_GetObjectItem(p, "decoded");
        const cJSON *enc = cJSON_GetObjectItem(p, "encoder");
        const cJSON *timing = timing_of(p);
        put(&points, "%s\t%s", str(clip, "name"), str(cdc, "name"));
        fmt_or_dash(&points, num(params, "tol_mm"), "\t%.15g");
        fmt_or_dash(&points, num(params, "step"), "\t%.0f");
        put(&points, "\t%.0f\t%.17g\t%.0f\t%.6f\t%.0f\t%.6f\t%.0f", num(clip, "frames"), num(clip, "fps"),
            num(p, "bytes"), num(p, "bytes_per_second"), num(p, "gzip_bytes"), num(p, "gzip_bytes_per_second"),
            num(p, "keys"));
        const int ok = cJSON_IsTrue(cJSON_GetObjectItem(dec, "ok"));
        fmt_or_dash(&points, ok ? num(dec, "max_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, ok ? num(dec, "mean_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, ok ? num(dec, "max_deg") : -1, "\t%.9g");
        fmt_or_dash(&points, cJSON_IsObject(enc) ? num(enc, "max_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, cJSON_IsObject(enc) ? num(enc, "mean_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, cJSON_IsObject(enc) ? num(enc, "max_deg") : -1, "\t%.9g");
        put(&points, "\t%d\t%d", cJSON_IsTrue(cJSON_GetObjectItem(cdc, "self_contained")), ok);
        fmt_or_dash(&points, num(timing, "median_ns"), "\t%.1f");
        fmt_or_dash(&points, num(timing, "min_ns"), "\t%.1f");
        fmt_or_dash(&points, num(timing, "max_ns"), "\t%.1f");
        const cJSON *m = cJSON_GetObjectItem(p, "metrics");
        const cJSON *at = cJSON_GetObjectItem(m, "at_frames"), *bt = cJSON_GetObjectItem(m, "between_frames");
        const cJSON *shell = cJSON_GetObjectItem(at, "shell_distance"), *joint = cJSON_GetObjectItem(at, "joint_displacement");
        const cJSON *ct = cJSON_GetObjectItem(m, "foot_contact"), *rate = cJSON_GetObjectItem(m, "rate");
        fmt_or_dash(&points, m ? num(shell, "max_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, m ? num(shell, "p99_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, m ? num(shell, "above_precision_fraction") : -1, "\t%.6f");
        fmt_or_dash(&points, bt ? num(cJSON_GetObjectItem(bt, "joint_displacement"), "max_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, bt ? num(cJSON_GetObjectItem(bt, "shell_distance"), "max_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, m ? num(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "end_effectors"), "joint_displacement"), "max_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, m ? num(ct, "slide_max_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, m ? num(ct, "sink_max_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, m ? num(rate, "bits_per_joint_sample") : -1, "\t%.6f");
        fmt_or_dash(&points, m ? num(rate, "acl_raw_ratio") : -1, "\t%.6f");
        fmt_or_dash(&points, m ? num(joint, "p99_mm") : -1, "\t%.9g");
        fmt_or_dash(&points, m ? num(joint, "median_mm") : -1, "\t%.9g");
        /* the declared knob and its value; the equal-error question, for points that answer one */
        const cJSON *knob = cJSON_GetObjectItem(cdc, "knob"), *match = cJSON_GetObjectItem(p, "match");
        const double knob_value = cJSON_IsString(knob) ? num(params, knob->valuestring) : -1;
        put(&points, "\t%s", cJSON_IsString(knob) ? knob->valuestring : "-");
        fmt_or_dash(&points, cJSON_IsString(knob) ? knob_value : -1, "\t%.15g");
        put(&points, "\t%s", match ? str(match, "metric") : "-");
        fmt_or_dash(&points, match ? num(match, "target_mm") : -1, "\t%.15g");
        put(&points, "\t%s", !match ? "-" : cJSON_IsTrue(cJSON_GetObjectItem(match, "reachable")) ? "1" : "0");
        put(&points, "\t");
        int nparam = 0;
        const cJSON *pv;
        cJSON_ArrayForEach(pv, params)
        {
            if (strcmp(pv->string, "tol_deg") == 0)
                continue;
            if (cJSON_IsString(pv))
                put(&points, "%s%s=%s", nparam++ ? "," : "", pv->string, pv->valuestring);
            else
                put(&points, "%s%s=%.15g", nparam++ ? "," : "", pv->string, pv->valuedouble);
        }
        put(&points, "%s", nparam ? "" : "-");
        const int mm = match ? match_metric_find(str(match, "metric")) : -1;
        fmt_or_dash(&points, mm >= 0 ? summary_point_metric(p, (match_metric)mm) : -1, "\t%.9g");
        fmt_or_dash(&points, cJSON_IsNumber(cJSON_GetObjectItem(p, "key_time_bytes")) ? num(p, "key_time_bytes") : -1,
                    "\t%.0f");
        put(&points, "\n");
        if (rows && clip_names && codec_names && points.data) {
            row *r = &rows[nrows++];
            r->clip_rank = rank_of(clip_names, &nclips, str(clip, "name"));
            r->codec_rank = rank_of(codec_names, &ncodecs, str(cdc, "name"));
            const cJSON *kn = cJSON_GetObjectItem(cdc, "knob");
            r->tol = cJSON_IsString(kn) ? num(params, kn->valuestring) : num(params, "tol_mm");
            r->step = cJSON_GetObjectItem(p, "match") ? num(cJSON_GetObjectItem(p, "match"), "target_mm") : -1;
            r->line = strndup(points.data + row_start, points.size - row_start);
        }
        const cJSON *hist = cJSON_GetObjectItem(p, "key_histogram");
        if (cJSON_IsArray(hist)) {
            histograms++;
            int f = 0;
            const cJSON *h;
            cJSON_ArrayForEach(h, hist)
            {
                put(&keys, "%s\t%s\t%.17g\t%d\t%.9g\t%.0f\n", str(clip, "name"), str(cdc, "name"),
                    num(params, "tol_mm"), f, f / num(clip, "fps"), h->valuedouble);
                f++;
            }
            put(&keys, "\n\n"); /* gnuplot: one data block per histogram */
        }
    }
    /* rows sorted by clip, codec, tolerance, step: each series is contiguous */
    qsort(rows, (size_t)nrows, sizeof *rows, row_order);
    points.size = header_size;
    for (int i = 0; i < nrows; i++) {
        put(&points, "%s", rows[i].line ? rows[i].line : "");
        free(rows[i].line);
    }
    text techniques = {0}, timings = {0};
    technique_table(doc, clip_names, nclips, &techniques);
    const int timed = timing_table(doc, &timings);
    free(rows);
    free(clip_names);
    free(codec_names);
    char out[4200];
    snprintf(out, sizeof out, "%s.tsv", base);
    int rc = points.data ? write_file_atomic(out, points.data, points.size, err, err_size) : -1;
    if (rc == 0 && histograms) {
        snprintf(out, sizeof out, "%s_keys.tsv", base);
        rc = write_file_atomic(out, keys.data, keys.size, err, err_size);
    }
    if (rc == 0 && techniques.data) {
        snprintf(out, sizeof out, "%s_techniques.tsv", base);
        rc = write_file_atomic(out, techniques.data, techniques.size, err, err_size);
    }
    if (rc == 0 && timed) {
        snprintf(out, sizeof out, "%s_timings.tsv", base);
        rc = write_file_atomic(out, timings.data, timings.size, err, err_size);
    }
    free(timings.data);
    cJSON_Delete(doc);
    free(points.data);
    free(keys.data);
    free(techniques.data);
    return rc;
}
