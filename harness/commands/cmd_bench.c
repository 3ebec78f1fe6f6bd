/* `animbench bench`: what a game pays to play each codec's bytes.  Per codec and clip: the memory
 * its sampler holds (measured by the allocator: runtime.h), the time to its first pose, the decode
 * cost per pose in the study's, sequential, seek and playback patterns, the whole-clip decode and
 * the encode; per codec over the run's clips, a crowd with cold caches on one core and on every
 * core.  --target MM times each codec at its smallest stream meeting an error (`match`), so that
 * rows are compared at equal measured error.  Timings are benchmarks: median, min and max of
 * repeated runs, never asserted in tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "harness/commands/cli_flags.h"
#include "harness/commands/commands.h"
#include "harness/measure/alloc_track.h"
#include "harness/measure/timing.h"
#include "harness/sweep/export.h"
#include "harness/sweep/match_json.h"
#include "harness/sweep/results.h"
#include "harness/sweep/sweep.h"

#define BENCH_USAGE                                                                                            \
    "usage: animbench bench [--clips walk,jump,mocap | --clips-from SWEEP.json] [--codecs a,b,...]\n"           \
    "                       [--param NAME=VALUE ...]\n"                                                          \
    "                       [--tol-mm X] [--lever-m X] [--step N]  (the study's parameters, where declared)\n"     \
    "                       [--target MM [--metric shell_max_mm]] [--patterns a,b,...] [--crowd-llc X]\n"       \
    "                       [--runs N] [--rounds R] [--budget-ms X] [--pin CPU] [--json FILE]\n"                \
    "                       " CLI_CLIP_FLAGS_USAGE "\n"                                                         \
    "  What a game pays to play each codec's bytes: the heap its sampler holds (measured by the\n"             \
    "  allocator), time to the first pose, ns per pose in the study, sequential, seek and playback\n"          \
    "  patterns, the whole-clip decode and the encode, per clip; and a crowd of characters over the\n"         \
    "  run's clips with cold caches (footprint --crowd-llc times the last-level cache, default 4), on\n"       \
    "  one core and on every core.  --target MM: each codec at its smallest stream whose decoded clip\n"       \
    "  meets MM on --metric (as `match`).  --patterns: a subset of study,sequential,seek,playback,\n"          \
    "  first-pose,whole-clip,encode,crowd (default all).  A clip may be a folder of .bvh files;\n"            \
    "  --clips-from takes the clips of a sweep definition, each with its unit and up axis.\n"                \
    "  Stable numbers need an idle machine and --pin (one CPU for the timed thread).  --rounds R (default\n"     \
    "  1): every codec and clip timed in R rounds, the codecs' order reversed every other round, each\n"        \
    "  figure the median, min and max over the rounds' R x N runs: rows stay comparable when the\n"             \
    "  machine's speed moves during the run.\n"

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

static const char *const PART_NAMES[] = {"first-pose", "whole-clip", "encode", "crowd"};

/* --patterns as a mask of timing_parts, crowd as bit 31; 0 with a message for an unknown name. */
static unsigned parse_patterns(const char *list)
{
    if (!list)
        return TIME_ALL | (1u << 31);
    unsigned mask = 0;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        unsigned bit = 0;
        for (int p = 0; p < PATTERN_COUNT; p++)
            if (strcmp(tok, PATTERN_NAMES[p]) == 0)
                bit = 1u << p;
        for (int k = 0; k < 4; k++)
            if (strcmp(tok, PART_NAMES[k]) == 0)
                bit = k == 3 ? 1u << 31 : (unsigned)TIME_FIRST_POSE << k;
        if (!bit) {
            fprintf(stderr, "animbench bench: --patterns: unknown '%s' (study, sequential, seek, playback, first-pose, "
                            "whole-clip, encode, crowd)\n", tok);
            return 0;
        }
        mask |= bit;
    }
    return mask;
}

static void print_row(const char *row, const char *clip, const char *pattern, const timer_result *r,
                      const char *extra)
{
    const double spread = timer_spread(r);
    printf("  %-18s %-24.24s %-11s %10.1f %10.1f %10.1f %6.2f%s  %s\n", row, clip, pattern, r->median_ns, r->min_ns,
           r->max_ns, spread, spread <= TIMER_NOISY_SPREAD ? " " : "!", extra);
}

static void print_memory(const char *row, const char *clip, const sampler_memory *m)
{
    if (!m->measured) {
        printf("  %-18s %-24.24s memory: not measured in this build (%s)\n", row, clip, alloc_track_mechanism());
        return;
    }
    printf("  %-18s %-24.24s memory: stream %zu B (%.2f B/joint-sample); sampler holds %lld B (%.2f B/joint-sample)"
           "%s; create peak %lld B in %llu allocations; %llu allocations in %d poses\n",
           row, clip, m->stream_bytes, (double)m->stream_bytes / m->joint_samples, m->held_bytes,
           (double)m->held_bytes / m->joint_samples,
           m->decodes_ahead ? ", DECODES AHEAD (more than its stream plus a small context)" : "",
           m->create_peak_bytes, m->create_allocations, m->sample_allocations, m->sample_calls);
}

typedef struct bench_options {
    const char *clips, *codecs, *json, *patterns, *metric_name, *clips_from;
    cli_codec_params given;
    clip_params cp;
    timer_config tc;
    double target_mm, crowd_llc;
    int metric;
    int rounds;
} bench_options;

static int add_clip(measured_clip ***clips, int *total, int *cap, const char *name, const clip_params *cp)
{
    char err[600];
    if (*total == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        measured_clip **more = realloc(*clips, (size_t)*cap * sizeof *more);
        if (!more)
            return 1;
        *clips = more;
    }
    clip_source *src = clip_source_load(name, cp, err, sizeof err);
    if (src && src->warning[0])
        fprintf(stderr, "animbench bench: warning: %s\n", src->warning);
    measured_clip *mc = src ? measured_clip_create(src, NULL, err, sizeof err) : NULL;
    if (!mc) {
        fprintf(stderr, "animbench bench: %s\n", err);
        return 2;
    }
    (*clips)[(*total)++] = mc;
    return 0;
}

/* Every clip named (folders expanded), or every clip of a sweep definition (each with its unit and
 * axis), loaded and measured. */
static int load_clips(const bench_options *o, measured_clip ***out, int *count)
{
    if (o->clips_from) {
        char **names;
        clip_params *params;
        int n, cap = 0, rc = 0;
        *out = NULL;
        *count = 0;
        if (sweep_definition_clips(o->clips_from, &names, &params, &n) != 0)
            return 2;
        for (int i = 0; i < n && rc == 0; i++)
            rc = add_clip(out, count, &cap, names[i], &params[i]);
        for (int i = 0; i < n; i++)
            free(names[i]);
        free(names);
        free(params);
        return rc;
    }
    char copy[4096], *items[256];
    snprintf(copy, sizeof copy, "%s", o->clips);
    const int n = cli_split_clips(copy, items, 256);
    if (n < 0) {
        fprintf(stderr, "animbench bench: --clips: an empty name, or more than 256\n");
        return 2;
    }
    measured_clip **clips = NULL;
    int total = 0, cap = 0;
    for (int k = 0; k < n; k++) {
        char err[600], **names = NULL;
        const int m = clip_expand(items[k], &names, err, sizeof err);
        if (m <= 0) {
            fprintf(stderr, "animbench bench: %s\n", err);
            return 2;
        }
        for (int i = 0; i < m; i++) {
            const int rc = add_clip(&clips, &total, &cap, names[i], &o->cp);
            if (rc != 0) {
                clip_names_free(names, m);
                *out = clips;
                *count = total;
                return rc;
            }
        }
        clip_names_free(names, m);
    }
    *out = clips;
    *count = total;
    return 0;
}

/* The parameters a codec is timed at: the command line's, or (--target) those of its smallest
 * stream meeting the target.  The point's JSON (with its match block) when doc is wanted. */
static int choose_params(const bench_options *o, const measured_clip *mc, const codec *c, codec_params *params,
                         cJSON **point, char *err, size_t err_size)
{
    *point = NULL;
    if (cli_codec_params_apply(&o->given, c, params, err, err_size) != 0)
        return 2;
    if (isnan(o->target_mm) && !o->json)
        return 0;
    if (isnan(o->target_mm)) {
        point_result r;
        if (measure_point(mc, c, params, false, &r, err, err_size) != 0)
            return 1;
        *point = results_point(mc, &r);
        point_result_free(&r);
        return 0;
    }
    match_result m;
    if (match_search(mc, c, params, (match_metric)o->metric, o->target_mm, &m, err, err_size) != 0)
        return 1;
    *point = match_point_json(mc, c, params, (match_metric)o->metric, o->target_mm, &m, err, err_size);
    const int knob = codec_knob(c);
    const double value = m.reachable ? m.knob : m.finest_knob;
    const bool reachable = m.reachable;
    match_result_free(&m);
    if (!*point)
        return 1;
    if (knob >= 0 && codec_param_set(c, params, knob, value, err, err_size) != 0) {
        cJSON_Delete(*point);
        *point = NULL;
        return 1;
    }
    if (!reachable)
        printf("  %-18s %-24.24s cannot reach %s <= %g mm: timed at its finest setting tried\n", c->name,
               mc->source->name, MATCH_METRIC_NAMES[o->metric], o->target_mm);
    return 0;
}

/* One codec on one clip under --rounds: its parameters, its point's JSON and its timings, the
 * rounds' runs together. */
typedef struct timed_cell {
    codec_params params;
    cJSON *point;
    codec_timings t;
    bool timed;
} timed_cell;

/* Why rounds: the shared VM's speed moves in phases of seconds (docs/timings.md, Noise: one row's
 * whole-clip decode took 288, 153 and 297 us in three idle runs a few seconds apart), so rows timed
 * one after another can differ by a phase rather than by their code.  Every codec and clip is timed
 * once a round, the codecs' order reversed every other round, and the runs of all rounds summarised
 * together; a slow phase then falls on every row.  Parameters are chosen once (a --target search is
 * an encode search, not a timing).  cells: [registry index * nclips + clip]. */
static int time_in_rounds(const bench_options *o, measured_clip **clips, int nclips, unsigned what,
                          timed_cell *cells)
{
    int *order = malloc((size_t)codec_count() * sizeof *order), listed_n = 0;
    if (!order)
        return 1;
    for (int i = 0; i < codec_count(); i++) /* one this build lacks: the main loop says so */
        if (listed(o->codecs, codec_at(i)->name) && !(codec_at(i)->flags & CODEC_UNAVAILABLE))
            order[listed_n++] = i;
    int rc = 0;
    for (int r = 0; r < o->rounds && rc == 0; r++)
        for (int m = 0; m < listed_n && rc == 0; m++) {
            const int i = order[r % 2 ? listed_n - 1 - m : m];
            const codec *c = codec_at(i);
            for (int k = 0; k < nclips && rc == 0; k++) {
                timed_cell *cell = &cells[(size_t)i * nclips + k];
                char err[600];
                if (r == 0 && (rc = choose_params(o, clips[k], c, &cell->params, &cell->point, err, sizeof err)) != 0) {
                    fprintf(stderr, "animbench bench: %s\n", err);
                    break;
                }
                codec_timings t;
                rc = time_codec(clips[k], c, &cell->params, &o->tc, what & TIME_ALL, r == 0 ? &cell->t : &t, err,
                                sizeof err);
                if (r == 0)
                    cell->timed = true; /* its stream is freed with the cell, failed or not */
                else if (rc == 0 && codec_timings_merge(&cell->t, &t, err, sizeof err) != 0)
                    rc = -1;
                if (r > 0)
                    bytes_free(&t.stream);
                if (rc != 0) {
                    fprintf(stderr, "animbench bench: %s (clip %s, round %d of %d)\n", err, clips[k]->source->name,
                            r + 1, o->rounds);
                    rc = 1;
                }
            }
        }
    free(order);
    return rc;
}

/* The most the crowd may take: 1 GiB, and no more than a quarter of the address space the process
 * is allowed (ulimit -v), since a virtual machine may report a host's last-level cache of 300 MiB,
 * four times which would not fit under a limit of 1 GiB. */
static long long crowd_max_bytes(void)
{
    long long cap = 1LL << 30;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (long long)(rl.rlim_cur / 4) < cap)
        cap = (long long)(rl.rlim_cur / 4);
    return cap;
}

static cJSON *crowd_json(const crowd_result *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "characters", r->characters);
    cJSON_AddNumberToObject(j, "streams", r->streams);
    cJSON_AddNumberToObject(j, "footprint_bytes", (double)r->footprint_bytes);
    cJSON_AddNumberToObject(j, "llc_level", r->llc_level);
    cJSON_AddNumberToObject(j, "llc_bytes", (double)r->llc_bytes);
    cJSON_AddNumberToObject(j, "footprint_over_llc", r->llc_bytes > 0 ? (double)r->footprint_bytes / r->llc_bytes : 0);
    cJSON_AddItemToObject(j, "one_core", timer_result_json(&r->per_pose, "ns per pose, one core, cold caches"));
    cJSON *every = timer_result_json(&r->per_pose_cores, "wall ns per pose, every core, cold caches");
    cJSON_AddNumberToObject(every, "threads", r->threads);
    cJSON_AddNumberToObject(every, "poses_per_second", r->poses_per_second);
    cJSON_AddItemToObject(j, "every_core", every);
    return j;
}

int cmd_bench(int argc, char **argv, int full_argc, char **full_argv)
{
    bench_options o = {"walk", NULL, NULL, NULL, NULL, NULL, CLI_CODEC_PARAMS_INIT, CLIP_DEFAULTS, {0}, NAN, 4, 0, 1};
    timer_config_default(&o.tc);
    o.metric = MATCH_SHELL_MAX;
    const cli_option options[] = {
        {"--clips", CLI_TEXT, &o.clips, 0, 0, 0},
        {"--clips-from", CLI_TEXT, &o.clips_from, 0, 0, 0},
        {"--codecs", CLI_TEXT, &o.codecs, 0, 0, 0},
        {"--json", CLI_TEXT, &o.json, 0, 0, 0},
        {"--patterns", CLI_TEXT, &o.patterns, 0, 0, 0},
        {"--target", CLI_REAL, &o.target_mm, 0, INFINITY, 1},
        {"--metric", CLI_TEXT, &o.metric_name, 0, 0, 0},
        {"--crowd-llc", CLI_REAL, &o.crowd_llc, 0, 64, 1},
        CLI_CODEC_PARAM_OPTIONS(&o.given),
        {"--runs", CLI_INT, &o.tc.runs, 1, TIMER_MAX_RUNS, 0},
        {"--rounds", CLI_INT, &o.rounds, 1, TIMER_MAX_RUNS, 0},
        {"--budget-ms", CLI_REAL, &o.tc.budget_ms, 0, 10000, 1},
        {"--pin", CLI_INT, &o.tc.pin_cpu, 0, 4095, 0},
    };
    const int parsed =
        cli_parse("bench", argc, argv, options, (int)(sizeof options / sizeof options[0]), &o.cp, BENCH_USAGE);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    if (results_check_output("bench", o.json, 1) != 0)
        return 2;
    if (!o.clips[0]) {
        fprintf(stderr, "animbench bench: --clips is empty\n");
        return 2;
    }
    if (o.rounds * o.tc.runs > TIMER_MAX_RUNS) {
        fprintf(stderr, "animbench bench: --rounds %d times --runs %d is %d runs a figure; at most %d\n", o.rounds,
                o.tc.runs, o.rounds * o.tc.runs, TIMER_MAX_RUNS);
        return 2;
    }
    if (o.metric_name && isnan(o.target_mm)) {
        fprintf(stderr, "animbench bench: --metric goes with --target\n");
        return 2;
    }
    if (o.metric_name && (o.metric = match_metric_find(o.metric_name)) < 0) {
        fprintf(stderr, "animbench bench: --metric: unknown '%s' (animbench list shows the metrics)\n", o.metric_name);
        return 2;
    }
    const unsigned what = parse_patterns(o.patterns);
    if (!what)
        return 2;
    if (o.codecs) {
        char copy[1024];
        snprintf(copy, sizeof copy, "%s", o.codecs);
        for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        {
            const codec *named = codec_find(tok);
            if (!named) {
                fprintf(stderr, "animbench bench: unknown codec '%s' (animbench list shows them)\n", tok);
                return 2;
            }
            if (named->flags & CODEC_UNAVAILABLE) { /* named but not in this build: before anything is timed */
                fprintf(stderr, "animbench bench: %s skipped: %s\n", named->name, codec_unavailable_reason(named));
                return 1;
            }
        }
    }
    if (o.tc.pin_cpu >= 0 && timer_pin_cpu(o.tc.pin_cpu) != 0) {
        fprintf(stderr, "animbench bench: cannot pin to CPU %d\n", o.tc.pin_cpu);
        return 2;
    }
    if (!timer_build_optimised())
        fprintf(stderr, "animbench bench: warning: this build is not optimised; its timings mean little\n");
    measured_clip **clips = NULL;
    int nclips = 0;
    int rc = load_clips(&o, &clips, &nclips);
    int llc_level;
    long long llc_bytes;
    runtime_last_level_cache(&llc_level, &llc_bytes);
    cJSON *doc = o.json && rc == 0 ? results_document(full_argc, full_argv) : NULL;
    if (doc) {
        cJSON *setup = cJSON_AddObjectToObject(doc, "timing_setup");
        if (o.tc.pin_cpu >= 0)
            cJSON_AddNumberToObject(setup, "pinned_cpu", o.tc.pin_cpu);
        else
            cJSON_AddNullToObject(setup, "pinned_cpu");
        cJSON_AddNumberToObject(setup, "runs", o.tc.runs);
        /* a clip's figures (patterns, first pose, whole clip, encode) are of rounds x runs; the ceilings
         * and the crowds, timed once, of runs */
        cJSON_AddNumberToObject(setup, "rounds", o.rounds);
        cJSON_AddNumberToObject(setup, "runs_per_clip_figure", o.tc.runs * o.rounds);
        cJSON_AddNumberToObject(setup, "budget_ms", o.tc.budget_ms);
        cJSON_AddNumberToObject(setup, "noisy_above_max_over_min", TIMER_NOISY_SPREAD);
        cJSON_AddNumberToObject(setup, "cpus_online", (double)sysconf(_SC_NPROCESSORS_ONLN));
        cJSON_AddNumberToObject(setup, "llc_level", llc_level);
        cJSON_AddNumberToObject(setup, "llc_bytes", (double)llc_bytes);
        cJSON_AddNumberToObject(setup, "crowd_footprint_over_llc", o.crowd_llc);
        cJSON_AddStringToObject(setup, "memory_mechanism", alloc_track_mechanism());
        cJSON_AddStringToObject(setup, "decodes_ahead_when",
                                "held_bytes > stream_bytes + 32768 + 160 per joint (a small context: an L1 data "
                                "cache and two decoded poses)");
        if (!isnan(o.target_mm)) {
            cJSON_AddStringToObject(setup, "equal_error_metric", MATCH_METRIC_NAMES[o.metric]);
            cJSON_AddNumberToObject(setup, "equal_error_target_mm", o.target_mm);
        }
    }
    cJSON *ceilings = doc ? cJSON_AddArrayToObject(doc, "ceilings") : NULL;
    cJSON *crowds = doc ? cJSON_AddArrayToObject(doc, "crowds") : NULL;
    char rounds_note[96] = "";
    if (o.rounds > 1)
        snprintf(rounds_note, sizeof rounds_note, " (%d rounds of %d, codecs interleaved; ceilings and crowds of %d)",
                 o.rounds, o.tc.runs, o.tc.runs);
    printf("bench: %d clip%s; ns; median, min, max of %d runs%s; max/min (! above %.1f: noisy)%s\n", nclips,
           nclips == 1 ? "" : "s", o.tc.runs * o.rounds, rounds_note, TIMER_NOISY_SPREAD,
           o.tc.pin_cpu < 0 ? "; NOT PINNED: --pin CPU for steadier figures" : "");
    if (!isnan(o.target_mm))
        printf("each codec at its smallest stream whose decoded clip meets %s <= %g mm\n", MATCH_METRIC_NAMES[o.metric],
               o.target_mm);
    printf("  %-18s %-24s %-11s %10s %10s %10s %7s\n", "codec", "clip", "pattern", "median", "min", "max", "max/min");
    for (int k = 0; k < nclips && rc == 0 && (what & (1u << PATTERN_STUDY)); k++) {
        timer_result copy, lerp;
        char err[512];
        if (time_ceilings(clips[k], &o.tc, &copy, &lerp, err, sizeof err) != 0) {
            fprintf(stderr, "animbench bench: %s\n", err);
            rc = 1;
            break;
        }
        print_row("ceiling", clips[k]->source->name, "copy pose", &copy, "memcpy one raw pose (10 floats per bone)");
        print_row("ceiling", clips[k]->source->name, "lerp pose", &lerp, "lerp two raw frames into floats, best loop");
        if (ceilings) {
            cJSON *c = cJSON_CreateObject();
            cJSON_AddItemToObject(c, "clip", results_clip(clips[k]->source));
            cJSON_AddItemToObject(c, "copy_pose", timer_result_json(&copy, "ns per pose"));
            cJSON_AddItemToObject(c, "lerp_pose", timer_result_json(&lerp, "ns per pose"));
            cJSON_AddItemToArray(ceilings, c);
        }
    }
    crowd_stream *streams = calloc((size_t)nclips + 1, sizeof *streams);
    byte_buffer *kept = calloc((size_t)nclips + 1, sizeof *kept);
    cJSON **points = calloc((size_t)nclips + 1, sizeof *points);
    /* rounds for what a clip times; a crowd alone is timed once anyway */
    const bool in_rounds = o.rounds > 1 && (what & TIME_ALL);
    timed_cell *cells = in_rounds ? calloc((size_t)codec_count() * nclips + 1, sizeof *cells) : NULL;
    if (!streams || !kept || !points || (in_rounds && !cells))
        rc = 1;
    if (rc == 0 && cells)
        rc = time_in_rounds(&o, clips, nclips, what, cells);
    for (int i = 0; i < codec_count() && rc == 0; i++) {
        const codec *c = codec_at(i);
        if (!listed(o.codecs, c->name))
            continue;
        if (c->flags & CODEC_UNAVAILABLE) { /* only without --codecs: a named one was refused above */
            fprintf(stderr, "animbench bench: %s skipped: %s\n", c->name, codec_unavailable_reason(c));
            continue;
        }
        int timed = 0;
        for (int k = 0; k < nclips && rc == 0; k++) {
            const measured_clip *mc = clips[k];
            const char *clip = mc->source->name;
            char err[600];
            codec_params params;
            cJSON *pj = NULL;
            codec_timings t;
            if (cells) { /* timed in rounds: the cell's, now this loop's to free */
                timed_cell *cell = &cells[(size_t)i * nclips + k];
                t = cell->t;
                pj = cell->point;
                *cell = (timed_cell){0};
            } else {
                rc = choose_params(&o, mc, c, &params, &pj, err, sizeof err);
                if (rc != 0) {
                    fprintf(stderr, "animbench bench: %s\n", err);
                    break;
                }
            }
            if (!cells && time_codec(mc, c, &params, &o.tc, what & TIME_ALL, &t, err, sizeof err) != 0) {
                fprintf(stderr, "animbench bench: %s\n", err);
                bytes_free(&t.stream);
                cJSON_Delete(pj);
                rc = 1;
                break;
            }
            print_memory(c->name, clip, &t.memory);
            for (int p = 0; p < PATTERN_COUNT; p++)
                if (t.timed & (1u << p))
                    print_row(c->name, clip, PATTERN_NAMES[p], &t.pattern[p], "per pose");
            if (t.timed & TIME_FIRST_POSE)
                print_row(c->name, clip, "first pose", &t.first_pose, "create from the bytes, then one pose");
            if (t.timed & TIME_WHOLE_CLIP) {
                char extra[96];
                snprintf(extra, sizeof extra, "per clip; %.2f ns per joint-sample", t.ns_per_joint_sample);
                print_row(c->name, clip, "whole clip", &t.whole_clip, extra);
            }
            if (t.timed & TIME_ENCODE)
                print_row(c->name, clip, "encode", &t.encode, "per clip (encoder, whole clip)");
            kept[timed] = t.stream;
            streams[timed] = (crowd_stream){kept[timed].data, kept[timed].size, mc->source->clip->rig,
                                            mc->source->clip->frame_count, mc->source->clip->fps, t.memory.held_bytes};
            if (pj) {
                cJSON *tj = cJSON_AddObjectToObject(pj, "timings");
                for (int p = 0; p < PATTERN_COUNT; p++)
                    if (t.timed & (1u << p))
                        cJSON_AddItemToObject(tj, PATTERN_NAMES[p], timer_result_json(&t.pattern[p], "ns per pose"));
                if (t.timed & TIME_FIRST_POSE)
                    cJSON_AddItemToObject(tj, "first_pose",
                                          timer_result_json(&t.first_pose, "ns from the bytes to the first pose"));
                if (t.timed & TIME_WHOLE_CLIP) {
                    cJSON *w = timer_result_json(&t.whole_clip, "ns per whole-clip decode");
                    cJSON_AddNumberToObject(w, "ns_per_joint_sample", t.ns_per_joint_sample);
                    cJSON_AddItemToObject(tj, "whole_clip", w);
                }
                if (t.timed & TIME_ENCODE)
                    cJSON_AddItemToObject(tj, "encode", timer_result_json(&t.encode, "ns per whole-clip encode"));
                cJSON_AddItemToObject(pj, "memory", runtime_memory_json(&t.memory));
            }
            points[timed] = pj;
            timed++;
        }
        if (rc == 0 && timed > 0 && (what & (1u << 31))) {
            crowd_result cr;
            char err[600];
            if (runtime_crowd(c, streams, timed, o.crowd_llc, crowd_max_bytes(), 0, &o.tc, &cr, err, sizeof err) != 0) {
                fprintf(stderr, "animbench bench: %s: crowd: %s\n", c->name, err);
                rc = 1;
            } else {
                char clipset[64], extra[200];
                snprintf(clipset, sizeof clipset, "%d clip%s", timed, timed == 1 ? "" : "s");
                const double over = cr.llc_bytes > 0 ? (double)cr.footprint_bytes / cr.llc_bytes : 0;
                snprintf(extra, sizeof extra, "per pose, %d characters, %.1f MB = %.1fx the L%d cache, %s",
                         cr.characters, cr.footprint_bytes / 1e6, over, cr.llc_level,
                         cr.llc_bytes <= 0 ? "cache size unknown: cold not known"
                         : over >= 1       ? "cold"
                                           : "NOT COLD: the footprint is below the cache");
                print_row(c->name, clipset, "crowd", &cr.per_pose, extra);
                snprintf(extra, sizeof extra, "wall per pose on %d threads: %.3g poses per second", cr.threads,
                         cr.poses_per_second);
                print_row(c->name, clipset, "every core", &cr.per_pose_cores, extra);
                if (crowds) {
                    cJSON *cj = crowd_json(&cr);
                    cJSON_AddStringToObject(cj, "codec", c->name);
                    cJSON_AddItemToArray(crowds, cj);
                    /* each point of the codec carries its crowd's figures, for tables by point */
                    for (int k = 0; k < timed; k++)
                        if (points[k]) {
                            cJSON *pc = cJSON_AddObjectToObject(cJSON_GetObjectItem(points[k], "timings"), "crowd");
                            cJSON_AddNumberToObject(pc, "one_core_median_ns", cr.per_pose.median_ns);
                            cJSON_AddNumberToObject(pc, "every_core_median_ns", cr.per_pose_cores.median_ns);
                            cJSON_AddNumberToObject(pc, "poses_per_second", cr.poses_per_second);
                            cJSON_AddNumberToObject(pc, "characters", cr.characters);
                            cJSON_AddNumberToObject(pc, "footprint_bytes", (double)cr.footprint_bytes);
                        }
                }
            }
        }
        for (int k = 0; k < timed; k++) {
            bytes_free(&kept[k]);
            if (points[k] && doc)
                cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "points"), points[k]);
            else
                cJSON_Delete(points[k]);
            points[k] = NULL;
        }
    }
    for (size_t n = 0; cells && n < (size_t)codec_count() * nclips; n++) { /* what an error left */
        if (cells[n].timed)
            bytes_free(&cells[n].t.stream);
        cJSON_Delete(cells[n].point);
    }
    free(cells);
    free(streams);
    free(kept);
    free(points);
    for (int k = 0; k < nclips; k++)
        measured_clip_free(clips[k]);
    free(clips);
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0) /* for scaling studies: memory grows with the clip */
        printf("peak RSS of this process: %ld KiB\n", usage.ru_maxrss);
    if (doc && rc == 0) {
        char err[512];
        if (results_write(o.json, doc, err, sizeof err) != 0 || export_tables_for(o.json, err, sizeof err) != 0) {
            fprintf(stderr, "animbench bench: %s\n", err);
            rc = 1;
        }
    }
    cJSON_Delete(doc);
    return rc;
}
