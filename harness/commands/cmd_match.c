/* animbench match: the smallest stream of a codec at a target error.
 * animbench compare: bytes of several codecs at the error a reference codec
 * measures at its own setting (the field's "N x smaller at equal error"). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/acl/acl_codec.h"
#include "harness/commands/commands.h"
#include "harness/commands/cli_flags.h"
#include "harness/sweep/match_json.h"
#include "harness/sweep/results.h"

typedef struct match_options {
    const char *clips, *codecs, *json, *out, *reference;
    int metric;
    double target_mm, reference_tol_mm;
    clip_params clip_params;
    cli_codec_params given;
} match_options;

static int parse(const char *cmd, int argc, char **argv, match_options *o, const char *usage)
{
    memset(o, 0, sizeof *o);
    o->clip_params = CLIP_DEFAULTS;
    o->given = (cli_codec_params)CLI_CODEC_PARAMS_INIT;
    o->metric = MATCH_SHELL_MAX;
    o->target_mm = NAN;
    o->reference_tol_mm = ACL_DEFAULT_PRECISION_MM;
    const char *metric = NULL;
    /* each command takes only what it uses: an option it would ignore is unknown */
    const cli_option match_table[] = {
        {"--clip", CLI_TEXT, &o->clips, 0, 0, 0},
        {"--codec", CLI_TEXT, &o->codecs, 0, 0, 0},
        {"--json", CLI_TEXT, &o->json, 0, 0, 0},
        {"--metric", CLI_TEXT, &metric, 0, 0, 0},
        {"--target", CLI_REAL, &o->target_mm, 0, INFINITY, 1},
        {"--lever-m", CLI_REAL, &o->given.lever_m, 0, INFINITY, 1},
        {"--param", CLI_MULTI, &o->given.param, 0, 0, 0},
    };
    const cli_option compare_table[] = {
        {"--clips", CLI_TEXT, &o->clips, 0, 0, 0},
        {"--codecs", CLI_TEXT, &o->codecs, 0, 0, 0},
        {"--reference", CLI_TEXT, &o->reference, 0, 0, 0},
        {"--out", CLI_TEXT, &o->out, 0, 0, 0},
        {"--metric", CLI_TEXT, &metric, 0, 0, 0},
        {"--reference-tol-mm", CLI_REAL, &o->reference_tol_mm, 0, INFINITY, 1},
        {"--lever-m", CLI_REAL, &o->given.lever_m, 0, INFINITY, 1},
        {"--param", CLI_MULTI, &o->given.param, 0, 0, 0},
    };
    const bool is_match = strcmp(cmd, "match") == 0;
    const int parsed = cli_parse(cmd, argc, argv, is_match ? match_table : compare_table,
                                 is_match ? (int)(sizeof match_table / sizeof match_table[0])
                                          : (int)(sizeof compare_table / sizeof compare_table[0]),
                                 &o->clip_params, usage);
    if (parsed != 0)
        return parsed;
    if (metric && (o->metric = match_metric_find(metric)) < 0) {
        fprintf(stderr, "animbench %s: --metric %s: unknown metric; one of", cmd, metric);
        for (int m = 0; m < MATCH_METRIC_COUNT; m++)
            fprintf(stderr, " %s", MATCH_METRIC_NAMES[m]);
        fprintf(stderr, "\n");
        return -1;
    }
    return 0;
}

#define MATCH_USAGE                                                                                        \
    "usage: animbench match --clip NAME --codec NAME --target MM [--metric shell_max_mm] [--json FILE]\n"     \
    "                       [--lever-m X] " CLI_CLIP_FLAGS_USAGE "\n"                                       \
    "  Searches the codec's quality knob (tol_mm, or step) for the smallest stream whose decoded\n"           \
    "  clip meets the target; metrics: joint_max_mm joint_p99_mm shell_max_mm shell_p99_mm\n"                \
    "  between_max_mm between_shell_max_mm effector_max_mm\n"

#define COMPARE_USAGE                                                                                      \
    "usage: animbench compare --clips A,B,... --reference acl [--reference-tol-mm 0.1]\n"                    \
    "                         --codecs X,Y,... [--metric shell_max_mm] [--out FILE.md]\n"                    \
    "                         [--lever-m X] " CLI_CLIP_FLAGS_USAGE "\n"                                     \
    "  For each clip: the reference codec at its setting, its measured error on the metric, and every\n"     \
    "  other codec's smallest stream at that same measured error (animbench match), as a table.\n"

static const codec *find_available(const char *cmd, const char *name)
{
    const codec *c = codec_find(name);
    if (!c)
        fprintf(stderr, "animbench %s: unknown codec '%s' (animbench list shows them)\n", cmd, name);
    else if (c->flags & CODEC_UNAVAILABLE) {
        fprintf(stderr, "animbench %s: codec %s: %s\n", cmd, name, codec_unavailable_reason(c));
        c = NULL;
    }
    return c;
}

static measured_clip *load(const char *cmd, const char *name, const clip_params *p)
{
    char err[512];
    clip_source *src = clip_source_load(name, p, err, sizeof err);
    if (src && src->warning[0])
        fprintf(stderr, "animbench %s: warning: %s\n", cmd, src->warning);
    measured_clip *mc = src ? measured_clip_create(src, NULL, err, sizeof err) : NULL;
    if (!mc)
        fprintf(stderr, "animbench %s: %s\n", cmd, err);
    return mc;
}

/* "tol_mm 0.5 " for a trail line, or nothing for a codec without a knob. */
static void knob_text(const codec *c, double v, char *out, size_t n)
{
    const int k = codec_knob(c);
    if (k < 0)
        out[0] = '\0';
    else
        snprintf(out, n, "%s %-12.6g ", c->params[k].name, v);
}

static const char *knob_name(const codec *c)
{
    const int k = codec_knob(c);
    return k >= 0 ? c->params[k].name : "none";
}

int cmd_match(int argc, char **argv, int full_argc, char **full_argv)
{
    match_options o;
    const int pr = parse("match", argc, argv, &o, MATCH_USAGE);
    if (pr != 0)
        return pr == 1 ? 0 : 2;
    if (!o.clips || !o.codecs || isnan(o.target_mm)) {
        fprintf(stderr, "animbench match: needs --clip, --codec and --target\n%s", MATCH_USAGE);
        return 2;
    }
    if (results_check_output("match", o.json, 1) != 0)
        return 2;
    const codec *c = find_available("match", o.codecs);
    if (!c)
        return 2;
    measured_clip *mc = load("match", o.clips, &o.clip_params);
    if (!mc)
        return 2;
    match_result m;
    char err[512];
    codec_params base;
    if (cli_codec_params_apply(&o.given, c, &base, err, sizeof err) != 0) {
        fprintf(stderr, "animbench match: %s\n", err);
        measured_clip_free(mc);
        return 2;
    }
    if (match_search(mc, c, &base, (match_metric)o.metric, o.target_mm, &m, err, sizeof err) != 0) {
        fprintf(stderr, "animbench match: %s\n", err);
        measured_clip_free(mc);
        return 1;
    }
    const char *metric = MATCH_METRIC_NAMES[o.metric];
    printf("match  %s on %s, %s <= %g mm, %d encodes (each decoded and measured)%s\n", c->name, mc->source->name,
           metric, o.target_mm, m.encodes, codec_knob(c) < 0 ? "; it has no quality knob: one point" : "");
    for (int i = 0; i < m.trail_count; i++) {
        char kt[96];
        knob_text(c, m.trail[i].knob, kt, sizeof kt);
        if (isnan(m.trail[i].value_mm))
            printf("  %s%9zu B  stream not decoded by its own decoder, or metric not measured\n", kt, m.trail[i].bytes);
        else
            printf("  %s%9zu B  %s %.4f mm%s\n", kt, m.trail[i].bytes, metric, m.trail[i].value_mm,
                   m.trail[i].value_mm <= o.target_mm ? "" : "  (misses)");
    }
    int rc = 0;
    if (m.decode_failures)
        printf("note   %d of the settings tried gave a stream its own decoder rejects\n", m.decode_failures);
    char chosen[96];
    knob_text(c, m.knob, chosen, sizeof chosen);
    if (m.reachable)
        printf("chosen %s%zu bytes, %s %.4f mm\n", chosen, m.point.bytes, metric,
               match_metric_mm(&m.point, (match_metric)o.metric));
    else {
        if (isnan(m.floor_mm))
            printf("cannot reach: no setting gave a stream that decodes and measures\n");
        else
            printf("cannot reach: floor %.4f mm, the lowest %s\n", m.floor_mm,
                   codec_knob(c) < 0 ? "it gives" : "any setting gave");
        if (o.json)
            fprintf(stderr, "animbench match: no setting met the target: %s not written\n", o.json);
        rc = 3;
    }
    if (o.json && m.reachable) {
        cJSON *doc = results_document(full_argc, full_argv);
        cJSON *pj = match_point_json(mc, c, &base, (match_metric)o.metric, o.target_mm, &m, err, sizeof err);
        if (pj)
            cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "points"), pj);
        if (!pj || results_write(o.json, doc, err, sizeof err) != 0) {
            fprintf(stderr, "animbench match: %s\n", err);
            rc = 1;
        }
        cJSON_Delete(doc);
    }
    match_result_free(&m);
    measured_clip_free(mc);
    return rc;
}

/* Writes text to path through a temporary file, or to stdout. */
static int emit(const char *path, const char *text)
{
    if (!path) {
        fputs(text, stdout);
        return 0;
    }
    char err[512];
    if (write_file_atomic(path, text, strlen(text), err, sizeof err) != 0) {
        fprintf(stderr, "animbench compare: %s\n", err);
        return -1;
    }
    return 0;
}

int cmd_compare(int argc, char **argv, int full_argc, char **full_argv)
{
    (void)full_argc, (void)full_argv;
    match_options o;
    const int pr = parse("compare", argc, argv, &o, COMPARE_USAGE);
    if (pr != 0)
        return pr == 1 ? 0 : 2;
    if (!o.clips || !o.codecs || !o.reference) {
        fprintf(stderr, "animbench compare: needs --clips, --codecs and --reference\n%s", COMPARE_USAGE);
        return 2;
    }
    if (results_check_output("compare", o.out, 0) != 0)
        return 2;
    const codec *ref = find_available("compare", o.reference);
    if (!ref)
        return 2;
    if (codec_param_index(ref, "tol_mm") < 0) {
        fprintf(stderr, "animbench compare: the reference %s has no tolerance to set (--reference-tol-mm): choose "
                        "a codec that takes --tol-mm\n", ref->name);
        return 2;
    }
    char codec_list[1024], clip_list[8192];
    snprintf(codec_list, sizeof codec_list, "%s", o.codecs);
    snprintf(clip_list, sizeof clip_list, "%s", o.clips);
    char *codec_names[32], *clip_args[256];
    const int nc = cli_split_clips(codec_list, codec_names, 32), nclip_args = cli_split_clips(clip_list, clip_args, 256);
    if (nc < 0 || nclip_args < 0) {
        fprintf(stderr, "animbench compare: --%s: an empty name, or more than %d names\n", nc < 0 ? "codecs" : "clips",
                nc < 0 ? 32 : 256);
        return 2;
    }
    const codec *codecs[32];
    for (int i = 0; i < nc; i++)
        if (!(codecs[i] = find_available("compare", codec_names[i])))
            return 2;
    const char *metric = MATCH_METRIC_NAMES[o.metric];
    /* The table is built in memory and written whole (atomically) at the end. */
    char *text = NULL;
    size_t len = 0;
    FILE *table = open_memstream(&text, &len);
    if (!table)
        return 1;
#define APPEND(...) fprintf(table, __VA_ARGS__)
    APPEND("<!-- animbench compare: %s at %s %g mm; every other codec at the %s its decoded clip measures -->\n",
           ref->name, knob_name(ref), o.reference_tol_mm, metric);
    APPEND("| clip | frames | %s bytes | raw / %s (ACL's convention) | %s (mm) | codec's own report, shell max (mm) |",
           ref->name, ref->name, metric);
    for (int i = 0; i < nc; i++)
        APPEND(" %s bytes (x %s) |", codecs[i]->name, ref->name);
    APPEND("\n|---|---:|---:|---:|---:|---:|");
    for (int i = 0; i < nc; i++)
        APPEND("---:|");
    APPEND("\n");
    int rc = 0;
    double log_sum[32] = {0};
    int reached[32] = {0}, clips_done = 0;
    for (int a = 0; a < nclip_args && rc == 0; a++) {
        char **names;
        char err[512];
        const int count = clip_expand(clip_args[a], &names, err, sizeof err);
        if (count == 0) {
            fprintf(stderr, "animbench compare: %s\n", err);
            rc = 2;
            break;
        }
        for (int k = 0; k < count && rc == 0; k++) {
            measured_clip *mc = load("compare", names[k], &o.clip_params);
            if (!mc) {
                rc = 2;
                break;
            }
            codec_params rp;
            point_result r;
            if (cli_codec_params_apply(&o.given, ref, &rp, err, sizeof err) != 0 ||
                codec_param_set(ref, &rp, codec_param_index(ref, "tol_mm"), o.reference_tol_mm, err, sizeof err) != 0) {
                fprintf(stderr, "animbench compare: %s\n", err);
                measured_clip_free(mc);
                rc = 2;
                break;
            }
            if (measure_point(mc, ref, &rp, false, &r, err, sizeof err) != 0) {
                fprintf(stderr, "animbench compare: %s\n", err);
                measured_clip_free(mc);
                rc = 1;
                break;
            }
            if (!r.decoded_ok) {
                fprintf(stderr, "animbench compare: %s on %s: its stream does not decode: %s\n", ref->name,
                        mc->source->name, r.decode_error);
                point_result_free(&r);
                measured_clip_free(mc);
                rc = 1;
                break;
            }
            const double target = match_metric_mm(&r, (match_metric)o.metric);
            fprintf(stderr, "compare: %s: %s %zu B at %.4f mm\n", mc->source->name, ref->name, r.bytes, target);
            APPEND("| %s | %d | %zu | %.2fx | %.4f | ", mc->source->name, mc->source->clip->frame_count, r.bytes,
                   r.has_metrics ? r.metrics.acl_raw_ratio : NAN, target);
            if (r.has_reported)
                APPEND("%.4f |", r.reported_error_mm);
            else
                APPEND("- |");
            for (int i = 0; i < nc && rc == 0; i++) {
                match_result m;
                codec_params base;
                const double hint = strcmp(knob_name(codecs[i]), "tol_mm") == 0 ? o.reference_tol_mm : NAN;
                if (cli_codec_params_apply(&o.given, codecs[i], &base, err, sizeof err) != 0 ||
                    match_search_hint(mc, codecs[i], &base, (match_metric)o.metric, target, hint, &m, err,
                                      sizeof err) != 0) {
                    fprintf(stderr, "animbench compare: %s\n", err);
                    rc = 1;
                    break;
                }
                if (m.reachable) {
                    const double ratio = (double)m.point.bytes / (double)r.bytes;
                    APPEND(" %zu (%.2fx) |", m.point.bytes, ratio);
                    log_sum[i] += log(ratio);
                    reached[i]++;
                } else if (isnan(m.floor_mm)) {
                    APPEND(" cannot reach: no stream decoded |");
                } else {
                    APPEND(" cannot reach: floor %.3f mm |", m.floor_mm);
                }
                if (m.decode_failures)
                    fprintf(stderr, "compare:   %s: %d settings gave a stream its own decoder rejects\n",
                            codecs[i]->name, m.decode_failures);
                fprintf(stderr, "compare:   %s: %s after %d encodes\n", codecs[i]->name,
                        m.reachable ? "matched" : "cannot reach", m.encodes);
                match_result_free(&m);
            }
            APPEND("\n");
            clips_done++;
            point_result_free(&r);
            measured_clip_free(mc);
        }
        clip_names_free(names, count);
    }
    if (rc == 0) {
        APPEND("| geometric mean over %d clips | | | | | |", clips_done);
        for (int i = 0; i < nc; i++) {
            if (reached[i])
                APPEND(" %.2fx (%d of %d reached) |", exp(log_sum[i] / reached[i]), reached[i], clips_done);
            else
                APPEND(" none reached |");
        }
        APPEND("\n");
    }
#undef APPEND
    if (fclose(table) != 0 || !text)
        rc = 1;
    if (rc == 0 && emit(o.out, text) != 0)
        rc = 1;
    free(text);
    return rc;
}
