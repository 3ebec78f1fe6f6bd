/* `animbench summary FILE.json --baseline CODEC`: a corpus in two tables.
 *
 * At equal error: the points of the file's equal-error searches ("targets"
 * of a sweep, or match --json), per metric, target and codec, as bytes
 * relative to the baseline codec's on the same clip: geometric mean, median,
 * the worst clip and which; clips a codec could not bring to the target are
 * counted and named, never dropped.  Over whole curves: the Bjøntegaard
 * delta rate of each codec against the baseline, per clip, from the file's
 * other points (harness/report/bdrate.h), with the error range it is taken over. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/commands/commands.h"
#include "harness/report/bdrate.h"
#include "harness/commands/cli_flags.h"
#include "harness/measure/match.h"
#include "harness/sweep/results.h"

/* A metric of a stored point, mm; NaN when the point does not carry it. */
double summary_point_metric(const cJSON *pt, match_metric m);
double summary_point_metric(const cJSON *pt, match_metric m)
{
    const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(pt, "metrics");
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(metrics, "at_frames");
    const cJSON *between = cJSON_GetObjectItemCaseSensitive(metrics, "between_frames");
    const cJSON *v = NULL;
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(pt, "decoded"), "ok")))
        return NAN;
    switch (m) {
    case MATCH_JOINT_MAX: v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(pt, "decoded"), "max_mm"); break;
    case MATCH_JOINT_P99: v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(at, "joint_displacement"), "p99_mm"); break;
    case MATCH_SHELL_MAX: v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(at, "shell_distance"), "max_mm"); break;
    case MATCH_SHELL_P99: v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(at, "shell_distance"), "p99_mm"); break;
    case MATCH_BETWEEN_MAX: v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(between, "joint_displacement"), "max_mm"); break;
    case MATCH_BETWEEN_SHELL_MAX: v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(between, "shell_distance"), "max_mm"); break;
    case MATCH_EFFECTOR_MAX: v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(metrics, "end_effectors"), "joint_displacement"), "max_mm"); break;
    default: break;
    }
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *text_at(const cJSON *o, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(b ? cJSON_GetObjectItemCaseSensitive(o, a) : o, b ? b : a);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static int by_double(const void *a, const void *b)
{
    const double p = *(const double *)a, q = *(const double *)b;
    return (p > q) - (p < q);
}

#define NAMES_MAX 256

/* Distinct strings, in first-seen order. */
typedef struct names {
    const char *item[NAMES_MAX];
    int count;
} names;

static int names_add(names *n, const char *s)
{
    for (int i = 0; i < n->count; i++)
        if (strcmp(n->item[i], s) == 0)
            return i;
    if (n->count == NAMES_MAX)
        return -1;
    n->item[n->count] = s;
    return n->count++;
}

/* The index of s, or -1. */
static int names_find(const names *n, const char *s)
{
    for (int i = 0; i < n->count; i++)
        if (strcmp(n->item[i], s) == 0)
            return i;
    return -1;
}

/* A point of a curve (not an equal-error point): which codec, in the file's order per clip. */
typedef struct curve_point {
    const cJSON *pt;
    int codec;
} curve_point;

#define SUMMARY_USAGE                                                                                      \
    "usage: animbench summary FILE.json --baseline CODEC [--metric shell_max_mm] [--out FILE.md] [--tsv F]\n" \
    "  A corpus in two tables: bytes at equal error relative to the baseline codec (the file's\n"           \
    "  equal-error points: a sweep's \"targets\"), per target and codec, geometric mean, median and the\n"  \
    "  worst clip, the clips that cannot reach a target named; and the BD-rate of every codec against\n"   \
    "  the baseline over the file's other points, on --metric, with the error range it covers.\n"

int cmd_summary(int argc, char **argv)
{
    const char *baseline = NULL, *out = NULL, *metric_name = "shell_max_mm", *path = NULL, *tsv_path = NULL;
    const cli_option options[] = {
        {"--baseline", CLI_TEXT, &baseline, 0, 0, 0},
        {"--out", CLI_TEXT, &out, 0, 0, 0},
        {"--metric", CLI_TEXT, &metric_name, 0, 0, 0},
        {"--tsv", CLI_TEXT, &tsv_path, 0, 0, 0},
    };
    const int parsed = cli_parse_file("summary", argc, argv, &path, options, 4, SUMMARY_USAGE);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    const int metric = match_metric_find(metric_name);
    if (!path || !baseline || metric < 0) {
        fprintf(stderr, "animbench summary: %s\n%s",
                metric < 0 ? "--metric: unknown metric" : "needs a results FILE and --baseline", SUMMARY_USAGE);
        return 2;
    }
    if (results_check_output("summary", out, 0) != 0 || results_check_output("summary", tsv_path, 0) != 0)
        return 2;
    int missing;
    char err[600];
    cJSON *doc = results_read(path, &missing, err, sizeof err);
    if (!doc) {
        fprintf(stderr, "animbench summary: %s\n", err);
        return 2;
    }
    char *text = NULL, *ratios_text = NULL;
    size_t len = 0, ratios_len = 0;
    FILE *t = open_memstream(&text, &len), *rt = open_memstream(&ratios_text, &ratios_len);
    if (!t || !rt) {
        cJSON_Delete(doc);
        return 1;
    }
    fprintf(rt,
            "# animbench summary %s: bytes at equal error relative to %s, one row per clip (ratio '-': the codec, "
            "reached 0, or the baseline, reached 1, did not reach the target)\nquestion\tcodec\tclip\tratio\treached\n",
            path, baseline);
    const cJSON *points = cJSON_GetObjectItemCaseSensitive(doc, "points"), *pt;
    names codecs = {{0}, 0}, clips = {{0}, 0}, questions = {{0}, 0};
    static char question_text[NAMES_MAX][96];
    cJSON_ArrayForEach(pt, points)
    {
        names_add(&codecs, text_at(pt, "codec", "name"));
        names_add(&clips, text_at(pt, "clip", "name"));
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(pt, "match");
        if (m) {
            char q[96];
            snprintf(q, sizeof q, "%s <= %g mm", text_at(m, "metric", NULL),
                     cJSON_GetObjectItemCaseSensitive(m, "target_mm")->valuedouble);
            int k;
            for (k = 0; k < questions.count && strcmp(question_text[k], q) != 0; k++)
                ;
            if (k == questions.count && k < NAMES_MAX) {
                snprintf(question_text[k], sizeof question_text[k], "%s", q);
                questions.item[questions.count++] = question_text[k];
            }
        }
    }
    int seen = 0;
    cJSON_ArrayForEach(pt, points) seen |= strcmp(text_at(pt, "codec", "name"), baseline) == 0;
    if (!seen) {
        fprintf(stderr, "animbench summary: %s holds no point of the baseline %s\n", path, baseline);
        fclose(t);
        fclose(rt);
        free(text);
        free(ratios_text);
        cJSON_Delete(doc);
        return 2;
    }
    fprintf(t, "<!-- animbench summary %s --baseline %s --metric %s: %d clips, %d codecs -->\n", path, baseline,
            metric_name, clips.count, codecs.count);
    /* Each point's clip, codec and question, found once: the tables below look a cell up instead of
     * scanning every point for each cell (a corpus of 14,000 points took minutes).  The last point
     * of a cell wins, and a clip's curve points keep the file's order, as the scans had it. */
    const int point_count = cJSON_GetArraySize(points), baseline_index = names_find(&codecs, baseline);
    const size_t cells = (size_t)questions.count * (size_t)clips.count * (size_t)codecs.count;
    const cJSON **match_at = calloc(cells ? cells : 1, sizeof *match_at);
    curve_point *curve = malloc(((size_t)point_count + 1) * sizeof *curve);
    int *curve_start = calloc((size_t)clips.count + 2, sizeof *curve_start);
    int *curve_fill = calloc((size_t)clips.count + 1, sizeof *curve_fill);
    int rc = 0;
    if (!match_at || !curve || !curve_start || !curve_fill) {
        fprintf(stderr, "animbench summary: out of memory\n");
        rc = 1;
        goto done;
    }
    for (int pass = 0; pass < 2; pass++) {
        cJSON_ArrayForEach(pt, points)
        {
            const int k = names_find(&clips, text_at(pt, "clip", "name")),
                      c = names_find(&codecs, text_at(pt, "codec", "name"));
            if (k < 0 || c < 0)
                continue;
            const cJSON *m = cJSON_GetObjectItemCaseSensitive(pt, "match");
            if (m) {
                if (pass == 1)
                    continue;
                char qq[96];
                snprintf(qq, sizeof qq, "%s <= %g mm", text_at(m, "metric", NULL),
                         cJSON_GetObjectItemCaseSensitive(m, "target_mm")->valuedouble);
                const int q = names_find(&questions, qq);
                if (q >= 0)
                    match_at[((size_t)q * (size_t)clips.count + (size_t)k) * (size_t)codecs.count + (size_t)c] = pt;
            } else if (pass == 0) {
                curve_start[k + 1]++;
            } else {
                curve[curve_start[k] + curve_fill[k]++] = (curve_point){pt, c};
            }
        }
        if (pass == 0)
            for (int k = 0; k < clips.count; k++)
                curve_start[k + 1] += curve_start[k];
    }
    /* ---- at equal error */
    for (int q = 0; q < questions.count; q++) {
        fprintf(t, "\n### Bytes at %s, relative to %s (%d clips)\n\n", questions.item[q], baseline, clips.count);
        fprintf(t, "| codec | clips at the target | compared (%s also there) | geometric mean | median | worst clip | "
                   "cannot reach |\n|---|---:|---:|---:|---:|---|---|\n", baseline);
        for (int c = 0; c < codecs.count; c++) {
            double ratios[NAMES_MAX];
            int n = 0, unreached = 0, total = 0;
            char worst_clip[256] = "", unreachable[512] = "";
            double worst = -INFINITY;
            for (int k = 0; k < clips.count; k++) {
                const size_t row = ((size_t)q * (size_t)clips.count + (size_t)k) * (size_t)codecs.count;
                const cJSON *mine = match_at[row + (size_t)c],
                            *base = baseline_index >= 0 ? match_at[row + (size_t)baseline_index] : NULL;
                if (!mine)
                    continue;
                total++;
                const bool reached = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(mine, "match"), "reachable"));
                if (!reached) {
                    /* named: the first few here, every one in the --tsv file */
                    if (unreached++ < 5) {
                        const size_t ul = strlen(unreachable);
                        snprintf(unreachable + ul, sizeof unreachable - ul, "%s%s", ul ? ", " : "", clips.item[k]);
                    }
                    fprintf(rt, "%s\t%s\t%s\t-\t0\n", questions.item[q], codecs.item[c], clips.item[k]);
                    continue;
                }
                const bool base_reached = base && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
                                                      cJSON_GetObjectItemCaseSensitive(base, "match"), "reachable"));
                if (!base_reached) {
                    fprintf(rt, "%s\t%s\t%s\t-\t1\n", questions.item[q], codecs.item[c], clips.item[k]);
                    continue;
                }
                const double r = cJSON_GetObjectItemCaseSensitive(mine, "bytes")->valuedouble /
                                 cJSON_GetObjectItemCaseSensitive(base, "bytes")->valuedouble;
                ratios[n++] = r;
                fprintf(rt, "%s\t%s\t%s\t%.9g\t1\n", questions.item[q], codecs.item[c], clips.item[k], r);
                if (r > worst) {
                    worst = r;
                    snprintf(worst_clip, sizeof worst_clip, "%s (%.3fx)", clips.item[k], r);
                }
            }
            if (total == 0)
                continue;
            double log_sum = 0;
            for (int i = 0; i < n; i++)
                log_sum += log(ratios[i]);
            qsort(ratios, (size_t)n, sizeof *ratios, by_double);
            const double median = n == 0 ? NAN : n % 2 ? ratios[n / 2] : sqrt(ratios[n / 2 - 1] * ratios[n / 2]);
            char gm[32] = "-", md[32] = "-";
            if (n) {
                snprintf(gm, sizeof gm, "%.3fx", exp(log_sum / n));
                snprintf(md, sizeof md, "%.3fx", median);
            }
            char more[64] = "";
            if (unreached > 5)
                snprintf(more, sizeof more, " and %d more", unreached - 5);
            fprintf(t, "| %s | %d of %d | %d | %s | %s | %s | %s%s |\n", codecs.item[c], total - unreached, total, n, gm,
                    md, n ? worst_clip : "-", unreached ? unreachable : "none", more);
        }
    }
    /* ---- BD-rate over curves */
    fprintf(t, "\n### BD-rate against %s on %s (curves of the file's other points; negative: fewer bytes)\n\n",
            baseline, metric_name);
    fprintf(t, "| codec | clips with an overlap | mean BD-rate | best clip | worst clip | error range covered (median "
               "over clips) |\n|---|---:|---:|---|---|---|\n");
    for (int c = 0; c < codecs.count; c++) {
        if (strcmp(codecs.item[c], baseline) == 0)
            continue;
        double log_sum = 0, lo[NAMES_MAX], hi[NAMES_MAX], best = INFINITY, worst = -INFINITY;
        int n = 0, tried = 0;
        char best_clip[256] = "-", worst_clip[256] = "-";
        for (int k = 0; k < clips.count; k++) {
            double tm[512], tb[512], rm[512], rb[512];
            int nt = 0, nr = 0;
            for (int i = curve_start[k]; i < curve_start[k + 1]; i++) {
                const cJSON *cp = curve[i].pt;
                if (curve[i].codec != c && curve[i].codec != baseline_index)
                    continue;
                const double e = summary_point_metric(cp, (match_metric)metric),
                             b = cJSON_GetObjectItemCaseSensitive(cp, "bytes")->valuedouble;
                if (curve[i].codec == c && nt < 512) {
                    tm[nt] = e;
                    tb[nt++] = b;
                } else if (curve[i].codec == baseline_index && nr < 512) {
                    rm[nr] = e;
                    rb[nr++] = b;
                }
            }
            if (nt == 0 || nr == 0)
                continue;
            tried++;
            bd_result r;
            if (bd_rate(tm, tb, nt, rm, rb, nr, &r) != 0)
                continue;
            log_sum += log1p(r.rate);
            lo[n] = r.overlap_lo_mm;
            hi[n] = r.overlap_hi_mm;
            n++;
            if (r.rate < best) {
                best = r.rate;
                snprintf(best_clip, sizeof best_clip, "%s (%+.1f %%)", clips.item[k], 100 * r.rate);
            }
            if (r.rate > worst) {
                worst = r.rate;
                snprintf(worst_clip, sizeof worst_clip, "%s (%+.1f %%)", clips.item[k], 100 * r.rate);
            }
        }
        if (tried == 0)
            continue;
        qsort(lo, (size_t)n, sizeof *lo, by_double);
        qsort(hi, (size_t)n, sizeof *hi, by_double);
        if (n)
            fprintf(t, "| %s | %d of %d | %+.1f %% | %s | %s | %.3g to %.3g mm |\n", codecs.item[c], n, tried,
                    100 * expm1(log_sum / n), best_clip, worst_clip, lo[n / 2], hi[n / 2]);
        else
            fprintf(t, "| %s | 0 of %d | - | - | - | no overlap |\n", codecs.item[c], tried);
    }
done:
    free(match_at);
    free(curve);
    free(curve_start);
    free(curve_fill);
    fclose(t);
    fclose(rt);
    if (rc == 0) {
        fputs(text, stdout);
        if ((out && write_file_atomic(out, text, len, err, sizeof err) != 0) ||
            (tsv_path && write_file_atomic(tsv_path, ratios_text, ratios_len, err, sizeof err) != 0)) {
            fprintf(stderr, "animbench summary: %s\n", err);
            rc = 1;
        }
    }
    free(text);
    free(ratios_text);
    cJSON_Delete(doc);
    return rc;
}
