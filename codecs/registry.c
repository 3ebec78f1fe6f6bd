/* The one table of codecs.  A codec is a module exporting a codec_ops; a
 * row names it, says what it is, and gives its fixed settings.  Adding a
 * codec is one file plus one row here (README, "Adding a codec").
 * The raw layout is row one: every other row is read against it. */
#include <math.h>
#include <string.h>

#include "codecs/acl/acl_codec.h"
#include "codecs/codec.h"
#include "codecs/ozz/ozz_codec.h"
#include "codecs/study/raw_codec.h"
#include "codecs/shellpack/shellpack.h"
#include "codecs/shellpack/shellpack_comp.h"
#include "codecs/shellpack/shellpack_match.h"
#include "codecs/shellpack/shellpack_priors.h"
#include "codecs/shellpack/shellpack_side.h"
#include "codecs/shellpack/shellpack_slack.h"
#include "codecs/shellpack/shellpack_smallest.h"
#include "codecs/study/track_codecs.h"

extern const codec_ops EVERY_NTH_OPS;

#define TRACKS(reduce, cubic, quant, drop, layout) \
    (&(const track_codec_config){reduce, cubic, quant, drop, layout, KEYS_REFINE, TOL_LEVER, false})
/* Key selection rows (issue 12): constant removal, float32 keys, another way to choose them. */
#define KEYED(cubic, layout, strategy, tolerance, delta) \
    (&(const track_codec_config){true, cubic, false, true, layout, strategy, tolerance, delta})
/* the files the study's rows are built from (a row's cache key: codec.h) */
#define TRACK_SOURCES                                                                                      \
    "track_codecs.c track_codecs.h study_plan.c study_plan.h refine.c refine.h study_container.c "        \
    "study_container.h track_set.c track_set.h track_sampler.c track_sampler.h quantize.c quantize.h "             \
    "key_select.c key_select.h hierarchy_tolerance.c hierarchy_tolerance.h closed_loop.c closed_loop.h"
#define SHELLPACK_SOURCES                                                                                 \
    "shellpack.c shellpack.h shellpack_encoder.h shellpack_loop.c shellpack_steps.c shellpack_keys.c "   \
    "shellpack_format.c shellpack_ra.c shellpack_ra.h shellpack_ra_sampler.c range_coder.c range_coder.h rans.c rans.h " \
    "geometric_table.c geometric_table.h"
#define SHELLPACK(quaternion, per_channel, keys, predict, gzip) \
    (&(const shellpack_config){quaternion, per_channel, keys, predict, gzip, false})
#define SHELLPACK_RA (&(const shellpack_config){false, false, false, true, false, true})
#define SLACK_SOURCES                                                                                          \
    SHELLPACK_SOURCES " shellpack_slack.c shellpack_slack.h shellpack_costs.c shellpack_costs.h shellpack_exchange.c " \
                      "shellpack_exchange.h"
#define SLACK(keys, random_access, radius, passes, trellis, exchange) \
    (&(const shellpack_slack_config){{false, false, keys, true, false, random_access}, radius, passes, trellis, exchange, false})
#define MATCH_SOURCES SLACK_SOURCES " shellpack_match.c shellpack_match.h match_model.c match_model.h"
#define TRAINED_SOURCES MATCH_SOURCES " shellpack_priors.c shellpack_priors.h"
/* shellpack-comp's plan (shellpack_comp.h), then keys (no slack: radius 0) or the trellis */
#define SLACK_COMP(keys, random_access, radius, passes)                                                      \
    (&(const shellpack_slack_config){                                                                          \
        {false, false, keys, true, false, random_access}, radius, passes, radius > 0, 0, true})
/* the same with the step exchange in compensated terms before the trellis */
#define SLACK_COMP_EXCHANGE(random_access, exchange)                                                         \
    (&(const shellpack_slack_config){                                                                          \
        {false, false, false, true, false, random_access}, 2, 8, true, exchange, true})
#define SLACK_COMP_SOURCES SLACK_SOURCES " shellpack_comp.c shellpack_comp.h"
#define COMP_TRAINED_SOURCES TRAINED_SOURCES " shellpack_comp.c shellpack_comp.h residual_signs.c residual_signs.h"
#define SIDE_SOURCES COMP_TRAINED_SOURCES " shellpack_side.c shellpack_side.h shellpack_side_priors.c"
#define ACL_SOURCES "acl_codec.c acl_codec.h acl_shim.cpp acl_shim.h lib:acl"
#define OZZ_SOURCES "ozz_codec.c ozz_codec.h ozz_shim.cpp ozz_shim.h lib:ozz"

/* Declared parameters (codec.h): the study's tolerance rows, every-nth, ACL. */
static const codec_param_decl STUDY_TOLERANCE[] = {
    {"tol_mm", PARAM_REAL, 1.0, 0, INFINITY, true, "mm",
     "tolerance: a position channel within it, a rotation within tol_mm / lever_m radians", NULL, +1},
    {"lever_m", PARAM_REAL, 0.35, 0, INFINITY, true, "m", "lever arm turning tol_mm into an angle (the study's 0.35)",
     NULL, 0},
};
static const codec_param_decl EVERY_NTH_STEP[] = {
    {"step", PARAM_INT, 2, 1, 65536, false, "frames", "keep every step-th frame (and the last)", NULL, +1},
};
static const codec_param_decl ACL_PRECISION[] = {
    {"tol_mm", PARAM_REAL, 0.1, 0, INFINITY, true, "mm",
     "ACL's precision: the shell error it keeps every joint within (its default 0.1 mm)", NULL, +1},
};
static const codec_param_decl OZZ_TOLERANCE[] = {
    {"tol_mm", PARAM_REAL, OZZ_DEFAULT_TOLERANCE_MM, 0, INFINITY, false, "mm",
     "ozz's AnimationOptimizer tolerance: the error it allows on a joint's whole hierarchy (its default 1e-3 m)", NULL,
     +1},
    {"distance_m", PARAM_REAL, OZZ_DEFAULT_DISTANCE_M, 0, INFINITY, false, "m",
     "the distance from a joint at which the optimizer measures error, skin emulated (its default 0.1)", NULL, 0},
};
static const codec_param_decl HIERARCHY_TOLERANCE[] = {
    {"tol_mm", PARAM_REAL, 1.0, 0, INFINITY, true, "mm",
     "tolerance at the end of each joint's longest chain (ozz-animation's hierarchical tolerance)", NULL, +1},
    {"distance_m", PARAM_REAL, 0.1, 0, INFINITY, false, "m",
     "skin beyond the last joint, added to every chain (ozz's default 0.1)", NULL, 0},
};
static const char *const BETWEEN_REFERENCES[] = {"linear", "own", NULL};
#define CLOSED_LOOP_PARAMS(between_default)                                                                      \
    {"tol_mm", PARAM_REAL, 1.0, 0, INFINITY, true, "mm",                                                       \
     "target: every joint's world position within it, at the frames and between them", NULL, +1},             \
    {"substeps", PARAM_INT, 4, 1, 64, false, "", "S: checked at t = f + k / S between frames (1: frames only)", \
     NULL, 0},                                                                                                  \
    {"between", PARAM_CHOICE, between_default, 0, 1, false, "",                                               \
     "between frames, held to: linear (the input's lerp, as measured) or own (this row's curve through every frame)", \
     BETWEEN_REFERENCES, 0}
static const codec_param_decl CLOSED_LOOP_LINEAR[] = {CLOSED_LOOP_PARAMS(0)};
static const codec_param_decl CLOSED_LOOP_CUBIC[] = {CLOSED_LOOP_PARAMS(1)};
static const codec_param_decl SHELL_TARGET[] = {
    {"tol_mm", PARAM_REAL, 0.1, 0, INFINITY, true, "mm",
     "target: every joint's shell distance (vertices at 30 mm, ACL's) within it at every frame, decoded", NULL, +1},
};
static const codec_param_decl SHELL_TARGET_SECTIONS[] = {
    {"tol_mm", PARAM_REAL, 0.1, 0, INFINITY, true, "mm",
     "target: every joint's shell distance (vertices at 30 mm, ACL's) within it at every frame, decoded", NULL, +1},
    {"section_frames", PARAM_INT, 32, 2, 65535, false, "frames",
     "frames a section holds: each decodes alone (longer: fewer restarts, a longer seek)", NULL, 0},
};
static const codec_param_decl CHANNEL_TOLERANCE[] = {
    {"tol_mm", PARAM_REAL, 0.1, 0, INFINITY, true, "mm",
     "per channel: translations within tol_mm, rotations and scales within tol_mm / 0.35 m (no contract)", NULL, +1},
};
#define TOLERANCE_PARAMS STUDY_TOLERANCE, 2
#define NO_PARAMS NULL, 0

static const codec CODECS[] = {
    {"raw", "study 1: every channel of every frame as float32 (16-byte zero header)", 0, NULL, &RAW_CODEC_OPS, 1, "raw_codec.c raw_codec.h", NO_PARAMS},
    {"const", "study 2: constant channels stored once, the rest every frame (lossless)", CODEC_DECODES_AHEAD,
     TRACKS(false, false, false, true, LAYOUT_STUDY), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, NO_PARAMS},
    {"linear-all", "study 3: linear keyframe reduction of every channel, constants included",
     CODEC_DECODES_AHEAD, TRACKS(true, false, false, false, LAYOUT_STUDY), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"linear", "study 4: constant removal + linear keyframe reduction", CODEC_DECODES_AHEAD,
     TRACKS(true, false, false, true, LAYOUT_STUDY), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic", "study 5: constant removal + Catmull-Rom cubic keyframe reduction", CODEC_DECODES_AHEAD,
     TRACKS(true, true, false, true, LAYOUT_STUDY), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-q", "study 6: cubic keys, 16-bit pos/scale, smallest-3 quats (study layout: not self-contained)",
     CODEC_NOT_SELF_CONTAINED | CODEC_DECODES_AHEAD, TRACKS(true, true, true, true, LAYOUT_STUDY),
     &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"quant", "study 7: constant removal + quantisation of every frame (study layout: not self-contained)",
     CODEC_NOT_SELF_CONTAINED | CODEC_DECODES_AHEAD, TRACKS(false, false, true, true, LAYOUT_STUDY), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, NO_PARAMS},
    {"const-sc", "study 2 in a self-contained layout (header with frames, fps, flags; 32-bit indices past 65,535 frames)", CODEC_DECODES_AHEAD,
     TRACKS(false, false, false, true, LAYOUT_SELF_CONTAINED), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, NO_PARAMS},
    {"linear-sc", "study 4 in a self-contained layout (header with frames, fps, flags; 32-bit indices past 65,535 frames)",
     CODEC_DECODES_AHEAD, TRACKS(true, false, false, true, LAYOUT_SELF_CONTAINED), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-sc", "study 5 in a self-contained layout (header with frames, fps, flags; 32-bit indices past 65,535 frames)",
     CODEC_DECODES_AHEAD, TRACKS(true, true, false, true, LAYOUT_SELF_CONTAINED), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-q-sc", "study 6 in a self-contained layout (header with frames, fps, flags; constants stored)",
     CODEC_DECODES_AHEAD, TRACKS(true, true, true, true, LAYOUT_SELF_CONTAINED), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"quant-sc", "study 7 in a self-contained layout (header with frames, fps, flags; constants stored)", CODEC_DECODES_AHEAD,
     TRACKS(false, false, true, true, LAYOUT_SELF_CONTAINED), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, NO_PARAMS},
    {"linear-optimal", "linear keys, fewest per channel at the tolerance (dynamic programming, seed 003); study layout", CODEC_DECODES_AHEAD,
     KEYED(false, LAYOUT_STUDY, KEYS_OPTIMAL, TOL_LEVER, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-optimal", "cubic keys, dynamic programming on dense tangents, repaired (seed 003); study layout", CODEC_DECODES_AHEAD,
     KEYED(true, LAYOUT_STUDY, KEYS_OPTIMAL, TOL_LEVER, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"linear-greedy", "linear keys by greedy forward extraction (seed 004); study layout", CODEC_DECODES_AHEAD,
     KEYED(false, LAYOUT_STUDY, KEYS_GREEDY, TOL_LEVER, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-greedy", "cubic keys by greedy forward extraction (seed 004), repaired; study layout", CODEC_DECODES_AHEAD,
     KEYED(true, LAYOUT_STUDY, KEYS_GREEDY, TOL_LEVER, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"linear-optimal-sc", "linear-optimal in the self-contained layout", CODEC_DECODES_AHEAD,
     KEYED(false, LAYOUT_SELF_CONTAINED, KEYS_OPTIMAL, TOL_LEVER, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-optimal-sc", "cubic-optimal in the self-contained layout", CODEC_DECODES_AHEAD,
     KEYED(true, LAYOUT_SELF_CONTAINED, KEYS_OPTIMAL, TOL_LEVER, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"linear-greedy-sc", "linear-greedy in the self-contained layout", CODEC_DECODES_AHEAD,
     KEYED(false, LAYOUT_SELF_CONTAINED, KEYS_GREEDY, TOL_LEVER, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-greedy-sc", "cubic-greedy in the self-contained layout", CODEC_DECODES_AHEAD,
     KEYED(true, LAYOUT_SELF_CONTAINED, KEYS_GREEDY, TOL_LEVER, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"linear-peucker-sc", "linear keys by Douglas-Peucker (for linear keys, the study's refine); self-contained", CODEC_DECODES_AHEAD,
     KEYED(false, LAYOUT_SELF_CONTAINED, KEYS_PEUCKER, TOL_LEVER, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-peucker-sc", "cubic keys from Douglas-Peucker on the chord, repaired; self-contained", CODEC_DECODES_AHEAD,
     KEYED(true, LAYOUT_SELF_CONTAINED, KEYS_PEUCKER, TOL_LEVER, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"linear-hier-sc", "linear refine, hierarchical tolerance (ozz: angle from the longest chain below); self-contained", CODEC_DECODES_AHEAD,
     KEYED(false, LAYOUT_SELF_CONTAINED, KEYS_REFINE, TOL_HIERARCHY, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, HIERARCHY_TOLERANCE, 2},
    {"cubic-hier-sc", "cubic refine, hierarchical tolerance (ozz: angle from the longest chain below); self-contained", CODEC_DECODES_AHEAD,
     KEYED(true, LAYOUT_SELF_CONTAINED, KEYS_REFINE, TOL_HIERARCHY, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, HIERARCHY_TOLERANCE, 2},
    {"linear-closed-sc", "linear keys, world-space closed loop: every joint's position within tol_mm at frames and sub-steps (float32 allowing), verified on the decoded stream; self-contained", CODEC_DECODES_AHEAD,
     KEYED(false, LAYOUT_SELF_CONTAINED, KEYS_REFINE, TOL_CLOSED_LOOP, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, CLOSED_LOOP_LINEAR, 3},
    {"cubic-closed-sc", "cubic keys, world-space closed loop: every joint's position within tol_mm at frames, and between them of the cubic through every frame, verified on the decoded stream; self-contained", CODEC_DECODES_AHEAD,
     KEYED(true, LAYOUT_SELF_CONTAINED, KEYS_REFINE, TOL_CLOSED_LOOP, false), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, CLOSED_LOOP_CUBIC, 3},
    {"linear-dt-sc", "linear-sc's keys with key times as u8 deltas (u16 escape; seeds 003, 004)", CODEC_DECODES_AHEAD,
     KEYED(false, LAYOUT_SELF_CONTAINED, KEYS_REFINE, TOL_LEVER, true), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"cubic-dt-sc", "cubic-sc's keys with key times as u8 deltas (u16 escape; seeds 003, 004)", CODEC_DECODES_AHEAD,
     KEYED(true, LAYOUT_SELF_CONTAINED, KEYS_REFINE, TOL_LEVER, true), &TRACK_CODEC_OPS, 1, TRACK_SOURCES, TOLERANCE_PARAMS},
    {"every-nth", "README example: every Nth frame as float32, linear in between", 0, NULL,
     &EVERY_NTH_OPS, 1, "every_nth.c", EVERY_NTH_STEP, 1},
    {"acl", "ACL v2.1 (Unreal's codec): default settings, variable bit rates, shell metric at 30 mm; "
            "--tol-mm is its precision (ACL's default 0.1 mm)",
     ACL_ROW_FLAGS, (&(const acl_row_config){0}), &ACL_CODEC_OPS, 1, ACL_SOURCES, ACL_PRECISION, 1},
    {"acl-highest", "ACL v2.1 at compression level highest; otherwise as acl", ACL_ROW_FLAGS,
     (&(const acl_row_config){1}), &ACL_CODEC_OPS, 1, ACL_SOURCES, ACL_PRECISION, 1},
    {"ozz", "ozz-animation 0.16: its AnimationOptimizer (hierarchical tolerance; its default settings) then its "
            "AnimationBuilder; the stream is its archive of the runtime animation, sampled by its SamplingJob",
     OZZ_ROW_FLAGS, (&(const ozz_row_config){1}), &OZZ_CODEC_OPS, 1, OZZ_SOURCES, OZZ_TOLERANCE, 2},
    {"ozz-raw", "ozz-animation 0.16's runtime format alone: its AnimationBuilder on every frame (translations and "
                "scales as half floats, rotations as three 15-bit components)",
     OZZ_ROW_FLAGS, (&(const ozz_row_config){0}), &OZZ_CODEC_OPS, 1, OZZ_SOURCES, NO_PARAMS},
    {"shellpack", "issue 11: log-map curves, rest/constant folding, closed loop on ACL's shell distance per subtree, "
                  "steps 2^(-i/16), keys by rate and distortion, predictors, adaptive range coder; verified by decoding",
     CODEC_DECODES_AHEAD, SHELLPACK(false, false, true, true, false), &SHELLPACK_OPS, 1, SHELLPACK_SOURCES, SHELL_TARGET, 1},
    {"shellpack-ra", "issue 22: shellpack for a runtime: the same closed loop with every frame kept, in sections that "
                     "decode alone (restarts from per-clip anchors), two-state rANS with tables named by three integers; "
                     "its sampler decodes at most a section from the bytes and keeps the last two frames",
     0, SHELLPACK_RA, &SHELLPACK_OPS, 1, SHELLPACK_SOURCES, SHELL_TARGET_SECTIONS, 2},
    {"shellpack-trellis", "issue 23: shellpack's closed loop (every frame kept), then its slack spent: a curve's values "
                          "chosen together (Viterbi over offsets -2..2 grid points) for the fewest estimated bits with "
                          "every subtree within the target, 8 passes; shellpack's stream and decoder",
     CODEC_DECODES_AHEAD, SLACK(false, false, 2, 8, true, 0), &SHELLPACK_SLACK_OPS, 1, SLACK_SOURCES, SHELL_TARGET, 1},
    {"shellpack-exchange", "shellpack-trellis with the steps exchanged first: each component's step offered 32, 16, 8 "
                           "and 4 grid indices finer so that its ancestors and subtree can coarsen, kept when the curves "
                           "it changed cost fewer estimated bits (issue 23's steps by equal slope, as a local search)",
     CODEC_DECODES_AHEAD, SLACK(false, false, 2, 8, true, 32), &SHELLPACK_SLACK_OPS, 1, SLACK_SOURCES, SHELL_TARGET, 1},
    {"shellpack-match", "the smallest of four streams: shellpack-exchange's and shellpack-allkeys's, and their plans with "
                        "every residual coded through a long-range match model (a repeat of the last 6 residuals predicts "
                        "the next; a hit costs one adaptive bit): issue 23, the repeats gzip finds",
     CODEC_DECODES_AHEAD, (&(const shellpack_match_config){{"shellpack-exchange", "shellpack-allkeys"}, NULL, 0, false}),
     &SHELLPACK_MATCH_OPS, 1, MATCH_SOURCES, SHELL_TARGET, 1},
    {"shellpack-trained", "shellpack-match with two more streams of each plan: its residual models started from states "
                          "trained on Bandai dataset 1 without its held-out fifth (built in; animbench train-priors), "
                          "with and without the match model: issue 23, knowing the data before seeing it",
     CODEC_DECODES_AHEAD, (&(const shellpack_match_config){{"shellpack-exchange", "shellpack-allkeys"}, SP_PRIORS, 0, false}),
     &SHELLPACK_MATCH_OPS, 1, TRAINED_SOURCES, SHELL_TARGET, 1},
    {"shellpack-trellis-keys", "shellpack-trellis after shellpack's key omission (ablation: keys and slack compete for the "
                               "same error)",
     CODEC_DECODES_AHEAD, SLACK(true, false, 2, 8, true, 0), &SHELLPACK_SLACK_OPS, 1, SLACK_SOURCES, SHELL_TARGET,
     1}, /* shellpack-comp-keys's version goes up with this one's */
    {"shellpack-trellis-p1", "shellpack-trellis with one pass instead of 8 (ablation: the passes)",
     CODEC_DECODES_AHEAD, SLACK(false, false, 2, 1, true, 0), &SHELLPACK_SLACK_OPS, 1, SLACK_SOURCES, SHELL_TARGET, 1},
    {"shellpack-slack", "shellpack (keys included) with its slack spent value by value: each moved by up to 4 grid "
                        "points where the residuals it touches (the next two kept frames' included) get cheaper, 8 passes "
                        "(ablation: one by one instead of the trellis)",
     CODEC_DECODES_AHEAD, SLACK(true, false, 4, 8, false, 0), &SHELLPACK_SLACK_OPS, 1, SLACK_SOURCES, SHELL_TARGET, 1},
    {"shellpack-ra-trellis", "issue 23 on shellpack-ra: its plan with the slack spent as shellpack-trellis's; "
                             "shellpack-ra's stream, decoder and sampler",
     0, SLACK(false, true, 2, 8, true, 0), &SHELLPACK_SLACK_OPS, 1, SLACK_SOURCES, SHELL_TARGET_SECTIONS, 2},
    {"shellpack-ra-exchange", "shellpack-ra-trellis with the steps exchanged first, as shellpack-exchange's; "
                              "shellpack-ra's stream, decoder and sampler",
     0, SLACK(false, true, 2, 8, true, 32), &SHELLPACK_SLACK_OPS, 1, SLACK_SOURCES, SHELL_TARGET_SECTIONS, 2},
    {"shellpack-quat", "shellpack with rotations as four quaternion components (ablation: no log map)", CODEC_DECODES_AHEAD,
     SHELLPACK(true, false, true, true, false), &SHELLPACK_OPS, 1, SHELLPACK_SOURCES, SHELL_TARGET, 1},
    {"shellpack-channel", "shellpack with a tolerance per channel instead of the closed loop (ablation; no contract)", CODEC_DECODES_AHEAD,
     SHELLPACK(false, true, true, true, false), &SHELLPACK_OPS, 1, SHELLPACK_SOURCES, CHANNEL_TOLERANCE, 1},
    {"shellpack-allkeys", "shellpack coding every frame (ablation: no key omission)", CODEC_DECODES_AHEAD,
     SHELLPACK(false, false, false, true, false), &SHELLPACK_OPS, 1, SHELLPACK_SOURCES, SHELL_TARGET, 1},
    {"shellpack-nopred", "shellpack without predictors: every quantised value coded as it is (ablation)", CODEC_DECODES_AHEAD,
     SHELLPACK(false, false, true, false, false), &SHELLPACK_OPS, 1, SHELLPACK_SOURCES, SHELL_TARGET, 1},
    {"shellpack-gzip", "shellpack with its residuals as zlib-deflated varints instead of the range coder (ablation)", CODEC_DECODES_AHEAD,
     SHELLPACK(false, false, true, true, true), &SHELLPACK_OPS, 1, SHELLPACK_SOURCES, SHELL_TARGET, 1},
    /* rows added after the fuzz seeds' table (a seed's first byte is a row's index here) */
    {"shellpack-comp", "issue 23: shellpack with error feedback down the hierarchy: each joint's rotation quantised "
                       "against its parent's decoded world rotation, the closed loop's steps and folds chosen again "
                       "that way (ancestors coarser), then shellpack's keys; shellpack's stream and decoder",
     CODEC_DECODES_AHEAD, SLACK_COMP(true, false, 0, 0), &SHELLPACK_SLACK_OPS, 1, SLACK_COMP_SOURCES, SHELL_TARGET, 1},
    {"shellpack-comp-allkeys", "shellpack-comp coding every frame (the plan shellpack-comp-trained codes)",
     CODEC_DECODES_AHEAD, SLACK_COMP(false, false, 0, 0), &SHELLPACK_SLACK_OPS, 1, SLACK_COMP_SOURCES, SHELL_TARGET, 1},
    {"shellpack-comp-trellis", "shellpack-comp-allkeys's plan (every frame kept), then shellpack-trellis's slack phase "
                               "(Viterbi over offsets -2..2 grid points, 8 passes); shellpack's stream and decoder",
     CODEC_DECODES_AHEAD, SLACK_COMP(false, false, 2, 8), &SHELLPACK_SLACK_OPS, 1, SLACK_COMP_SOURCES, SHELL_TARGET, 1},
    {"shellpack-comp-trained", "shellpack-trained with the compensated plans as well: the smallest of the streams of "
                               "shellpack-comp-exchange, shellpack-comp-trellis, shellpack-comp-allkeys, "
                               "shellpack-exchange and shellpack-allkeys, each also through the match model, from the "
                               "trained states, and with each sign in its own context (residual_signs.h); a stream "
                               "with the match model only where it is more than 1 % smaller than every stream without "
                               "it (its decoder's look-ups cost more time than that saves)",
     CODEC_DECODES_AHEAD,
     (&(const shellpack_match_config){
         {"shellpack-comp-exchange", "shellpack-comp-trellis", "shellpack-comp-allkeys", "shellpack-exchange",
          "shellpack-allkeys"},
         SP_PRIORS, 10, true}),
     &SHELLPACK_MATCH_OPS, 2, COMP_TRAINED_SOURCES, SHELL_TARGET, 1}, /* shellpack-comp-keys's version goes up with this one's */
    {"shellpack-ra-comp", "issue 23 on shellpack-ra: shellpack-comp-trellis's plan, shellpack-ra's stream, decoder "
                          "and sampler",
     0, SLACK_COMP(false, true, 2, 8), &SHELLPACK_SLACK_OPS, 1, SLACK_COMP_SOURCES, SHELL_TARGET_SECTIONS, 2},
    {"shellpack-comp-exchange", "shellpack-comp-trellis with shellpack-exchange's step exchange between the compensated "
                                "loop and the trellis, every trial in compensated terms (a rotation's subtree quantised "
                                "again against it): issue 23; shellpack's stream",
     CODEC_DECODES_AHEAD, SLACK_COMP_EXCHANGE(false, 32), &SHELLPACK_SLACK_OPS, 1, SLACK_COMP_SOURCES, SHELL_TARGET, 1},
    {"shellpack-ra-comp-exchange", "issue 23 on shellpack-ra: shellpack-comp-exchange's plan, shellpack-ra's stream, "
                                   "decoder and sampler",
     0, SLACK_COMP_EXCHANGE(true, 32), &SHELLPACK_SLACK_OPS, 1, SLACK_COMP_SOURCES, SHELL_TARGET_SECTIONS, 2},
    {"shellpack-comp-keys", "shellpack-comp-trained, or shellpack-trellis-keys's stream (key omission, then the trellis) "
                            "where that is smaller: none of shellpack-comp-trained's sources leaves frames out, and on "
                            "the study's mocap at 1 mm the keyed stream was 2 bytes smaller (issue 23); read by "
                            "shellpack-comp-trained's decoder",
     CODEC_DECODES_AHEAD, (&(const shellpack_smallest_config){"shellpack-comp-trained", {"shellpack-trellis-keys"}}),
     &SHELLPACK_SMALLEST_OPS, 1, COMP_TRAINED_SOURCES " shellpack_smallest.c shellpack_smallest.h", SHELL_TARGET, 1},
    {"shellpack-comp-trellis-p2", "shellpack-comp-trellis with two passes of the trellis instead of 8 (ablation: the "
                                  "passes, in compensated terms; the plan shellpack-comp-fast codes)",
     CODEC_DECODES_AHEAD, SLACK_COMP(false, false, 2, 2), &SHELLPACK_SLACK_OPS, 1, SLACK_COMP_SOURCES, SHELL_TARGET, 1},
    {"shellpack-comp-fast", "shellpack-comp-trellis-p2's plan coded as shellpack-comp-trained codes its streams (from the "
                            "trained states or not, with or without the match model and the sign contexts: the smallest); "
                            "no step exchange and no second plan, so that its encode stays within issue 23's 10x ACL's "
                            "time; read by shellpack-comp-trained's decoder",
     CODEC_DECODES_AHEAD, (&(const shellpack_match_config){{"shellpack-comp-trellis-p2"}, SP_PRIORS, 10, true}),
     &SHELLPACK_MATCH_OPS, 1, COMP_TRAINED_SOURCES, SHELL_TARGET, 1}, /* settings (here and shellpack-comp-trellis-p2's) are not in the cache key: bump the version when either changes */
    {"shellpack-comp-fast-side", "shellpack-comp-fast's stream in a smaller container: the header's fields as varints, "
                                 "the folding, constants, steps and predictors coded from states trained on Bandai "
                                 "dataset 1 (shellpack_side.h), the residual sections as they are; its decoder writes "
                                 "shellpack-comp-fast's stream back and reads it",
     CODEC_DECODES_AHEAD, (&(const shellpack_side_config){"shellpack-comp-fast"}), &SHELLPACK_SIDE_OPS, 1,
     SIDE_SOURCES, SHELL_TARGET, 1},
    {"shellpack-comp-trained-side", "shellpack-comp-trained's stream in shellpack-comp-fast-side's container",
     CODEC_DECODES_AHEAD, (&(const shellpack_side_config){"shellpack-comp-trained"}), &SHELLPACK_SIDE_OPS, 1,
     SIDE_SOURCES, SHELL_TARGET, 1},
    {"shellpack-ra-side", "shellpack-ra's stream in shellpack-comp-fast-side's container (issue 23's side information "
                          "carried over to the runtime row): the anchors' coded stream cut as the residuals' are, the "
                          "tables, section index and sections as they are; its sampler writes shellpack-ra's stream "
                          "back when it is created and plays it with shellpack-ra's sampler",
     0, (&(const shellpack_side_config){"shellpack-ra"}), &SHELLPACK_SIDE_OPS, 1, SIDE_SOURCES, SHELL_TARGET_SECTIONS, 2},
    {"shellpack-ra-comp-exchange-side", "shellpack-ra-comp-exchange's stream in shellpack-ra-side's container",
     0, (&(const shellpack_side_config){"shellpack-ra-comp-exchange"}), &SHELLPACK_SIDE_OPS, 1, SIDE_SOURCES,
     SHELL_TARGET_SECTIONS, 2},
};

/* Rows added at run time: codecs that exist only in a test build. */
#define EXTRA_MAX 8
static const codec *extra[EXTRA_MAX];
static int extra_count;

int codec_register(const codec *c)
{
    if (extra_count == EXTRA_MAX || codec_find(c->name))
        return -1;
    extra[extra_count++] = c;
    return 0;
}

const char *codec_unavailable_reason(const codec *c)
{
    if (!(c->flags & CODEC_UNAVAILABLE))
        return NULL;
    if (c->ops == &ACL_CODEC_OPS)
        return ACL_UNAVAILABLE_REASON;
    if (c->ops == &OZZ_CODEC_OPS)
        return OZZ_UNAVAILABLE_REASON;
    return "not built here (an optional library is missing)";
}

int codec_count(void)
{
    return (int)(sizeof CODECS / sizeof CODECS[0]) + extra_count;
}

const codec *codec_at(int index)
{
    const int table = (int)(sizeof CODECS / sizeof CODECS[0]);
    if (index >= 0 && index < table)
        return &CODECS[index];
    return index >= table && index < table + extra_count ? extra[index - table] : NULL;
}

const codec *codec_find(const char *name)
{
    for (int i = 0; i < codec_count(); i++)
        if (strcmp(codec_at(i)->name, name) == 0)
            return codec_at(i);
    return NULL;
}
