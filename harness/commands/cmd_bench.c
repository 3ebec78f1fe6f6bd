/* `animbench bench`: decode cost of every codec in three access patterns
 * and as a whole-clip decode, against the ceilings of copying and lerping
 * raw frames.  Timings are benchmarks: reported with median, min and max of
 * repeated runs, never asserted in tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "harness/commands/commands.h"
#include "harness/commands/cli_flags.h"
#include "harness/sweep/export.h"
#include "harness/sweep/results.h"
#include "harness/measure/timing.h"

#define BENCH_USAGE                                                                                        \
    "usage: animbench bench [--clips walk,jump,mocap] [--codecs a,b,...] [--param NAME=VALUE ...]\n"         \
    "                       [--tol-mm X] [--lever-m X] [--step N]  (the study's parameters, where declared)\n" \
    "                       [--runs N] [--budget-ms X] [--pin CPU] [--json FILE]\n"                         \
    "                       " CLI_CLIP_FLAGS_USAGE "\n"                                                     \
    "  Decode timings: median, min and max over --runs runs of every access pattern, per codec.\n"          \
    "  Stable numbers need an idle machine and --pin (one CPU for the timed thread).\n"

static bool listed(const char *list, const char *name)
{
    if (!list)
        return true;
    const size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

static void print_row(const char *name, const char *pattern, const timer_result *r, const char *extra)
{
    const double spread = timer_spread(r);
    printf("  %-12s %-11s %10.1f %10.1f %10.1f %6.2f%s  %s\n", name, pattern, r->median_ns, r->min_ns, r->max_ns,
           spread, spread <= TIMER_NOISY_SPREAD ? " " : "!", extra);
}

int cmd_bench(int argc, char **argv, int full_argc, char **full_argv)
{
    const char *clips = "walk", *codecs = NULL, *json = NULL;
    cli_codec_params given = CLI_CODEC_PARAMS_INIT;
    clip_params cp = CLIP_DEFAULTS;
    timer_config tc;
    timer_config_default(&tc);
    const cli_option options[] = {
        {"--clips", CLI_TEXT, &clips, 0, 0, 0},
        {"--codecs", CLI_TEXT, &codecs, 0, 0, 0},
        {"--json", CLI_TEXT, &json, 0, 0, 0},
        CLI_CODEC_PARAM_OPTIONS(&given),
        {"--runs", CLI_INT, &tc.runs, 1, TIMER_MAX_RUNS, 0},
        {"--budget-ms", CLI_REAL, &tc.budget_ms, 0, 10000, 1},
        {"--pin", CLI_INT, &tc.pin_cpu, 0, 4095, 0},
    };
    const int parsed =
        cli_parse("bench", argc, argv, options, (int)(sizeof options / sizeof options[0]), &cp, BENCH_USAGE);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    if (results_check_output("bench", json, 1) != 0)
        return 2;
    if (!clips[0]) {
        fprintf(stderr, "animbench bench: --clips is empty\n");
        return 2;
    }
    if (codecs) {
        char copy[1024];
        snprintf(copy, sizeof copy, "%s", codecs);
        for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
            if (!codec_find(tok)) {
                fprintf(stderr, "animbench bench: unknown codec '%s' (animbench list shows them)\n", tok);
                return 2;
            }
    }
    if (tc.pin_cpu >= 0 && timer_pin_cpu(tc.pin_cpu) != 0) {
        fprintf(stderr, "animbench bench: cannot pin to CPU %d\n", tc.pin_cpu);
        return 2;
    }
    if (!timer_build_optimised())
        fprintf(stderr, "animbench bench: warning: this build is not optimised; its timings mean little\n");
    cJSON *doc = json ? results_document(full_argc, full_argv) : NULL;
    if (doc) {
        cJSON *setup = cJSON_AddObjectToObject(doc, "timing_setup");
        if (tc.pin_cpu >= 0)
            cJSON_AddNumberToObject(setup, "pinned_cpu", tc.pin_cpu);
        else
            cJSON_AddNullToObject(setup, "pinned_cpu");
        cJSON_AddNumberToObject(setup, "runs", tc.runs);
        cJSON_AddNumberToObject(setup, "budget_ms", tc.budget_ms);
        cJSON_AddNumberToObject(setup, "noisy_above_max_over_min", TIMER_NOISY_SPREAD);
    }
    cJSON *ceilings = doc ? cJSON_AddArrayToObject(doc, "ceilings") : NULL;
    char clip_copy[4096], *clip_names[256];
    snprintf(clip_copy, sizeof clip_copy, "%s", clips);
    const int nclips = cli_split_clips(clip_copy, clip_names, 256);
    if (nclips < 0) {
        fprintf(stderr, "animbench bench: --clips: an empty name, or more than 256\n");
        cJSON_Delete(doc);
        return 2;
    }
    int rc = 0;
    for (int k = 0; k < nclips && rc == 0; k++) {
        const char *name = clip_names[k];
        char err[512];
        clip_source *src = clip_source_load(name, &cp, err, sizeof err);
        if (src && src->warning[0])
            fprintf(stderr, "animbench bench: warning: %s\n", src->warning);
        measured_clip *mc = src ? measured_clip_create(src, NULL, err, sizeof err) : NULL;
        if (!mc) {
            fprintf(stderr, "animbench bench: %s\n", err);
            rc = 2;
            break;
        }
        const anim_clip *clip = mc->source->clip;
        printf("decode cost on %s (%d frames, %d bones), ns; median, min, max of %d runs; max/min (! above %.1f: "
               "noisy)%s\n",
               name, clip->frame_count, clip->rig->bone_count, tc.runs, TIMER_NOISY_SPREAD,
               tc.pin_cpu < 0 ? "; NOT PINNED: --pin CPU for steadier figures" : "");
        printf("  %-12s %-11s %10s %10s %10s %7s\n", "codec", "pattern", "median", "min", "max", "max/min");
        timer_result copy, lerp;
        if (time_ceilings(mc, &tc, &copy, &lerp, err, sizeof err) != 0) {
            fprintf(stderr, "animbench bench: %s\n", err);
            rc = 1;
        } else {
            print_row("ceiling", "copy pose", &copy, "memcpy one raw pose (10 floats per bone)");
            print_row("ceiling", "lerp pose", &lerp, "lerp two raw frames into floats, best loop");
            if (ceilings) {
                cJSON *c = cJSON_CreateObject();
                cJSON_AddItemToObject(c, "clip", results_clip(mc->source));
                cJSON_AddItemToObject(c, "copy_pose", timer_result_json(&copy, "ns per pose"));
                cJSON_AddItemToObject(c, "lerp_pose", timer_result_json(&lerp, "ns per pose"));
                cJSON_AddItemToArray(ceilings, c);
            }
        }
        for (int i = 0; i < codec_count() && rc == 0; i++) {
            const codec *c = codec_at(i);
            if (!listed(codecs, c->name))
                continue;
            if (c->flags & CODEC_UNAVAILABLE) {
                fprintf(stderr, "animbench bench: %s skipped: %s\n", c->name, codec_unavailable_reason(c));
                if (codecs) {
                    rc = 1;
                    break;
                }
                continue;
            }
            codec_timings t;
            codec_params params;
            if (cli_codec_params_apply(&given, c, &params, err, sizeof err) != 0) {
                fprintf(stderr, "animbench bench: %s\n", err);
                rc = 2;
                break;
            }
            if (time_codec(mc, c, &params, &tc, &t, err, sizeof err) != 0) {
                fprintf(stderr, "animbench bench: %s\n", err);
                rc = 1;
                break;
            }
            for (int p = 0; p < PATTERN_COUNT; p++)
                print_row(c->name, PATTERN_NAMES[p], &t.pattern[p], "per pose");
            char extra[96];
            snprintf(extra, sizeof extra, "per clip; %.2f ns per joint-sample", t.ns_per_joint_sample);
            print_row(c->name, "whole clip", &t.whole_clip, extra);
            print_row(c->name, "encode", &t.encode, "per clip (encoder, whole clip)");
            if (doc) {
                point_result r;
                if (measure_point(mc, c, &params, false, &r, err, sizeof err) == 0) {
                    cJSON *pj = results_point(mc, &r);
                    cJSON *tj = cJSON_AddObjectToObject(pj, "timings");
                    for (int p = 0; p < PATTERN_COUNT; p++)
                        cJSON_AddItemToObject(tj, PATTERN_NAMES[p], timer_result_json(&t.pattern[p], "ns per pose"));
                    cJSON *w = timer_result_json(&t.whole_clip, "ns per whole-clip decode");
                    cJSON_AddNumberToObject(w, "ns_per_joint_sample", t.ns_per_joint_sample);
                    cJSON_AddItemToObject(tj, "whole_clip", w);
                    cJSON_AddItemToObject(tj, "encode", timer_result_json(&t.encode, "ns per whole-clip encode"));
                    cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "points"), pj);
                    point_result_free(&r);
                }
            }
        }
        measured_clip_free(mc);
    }
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0) /* for scaling studies: memory grows with the clip */
        printf("peak RSS of this process: %ld KiB\n", usage.ru_maxrss);
    if (doc && rc == 0) {
        char err[512];
        if (results_write(json, doc, err, sizeof err) != 0 || export_tables_for(json, err, sizeof err) != 0) {
            fprintf(stderr, "animbench bench: %s\n", err);
            rc = 1;
        }
    }
    cJSON_Delete(doc);
    return rc;
}
