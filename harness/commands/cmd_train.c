/* `animbench train-priors`: the training program of shellpack-trained's built-in initial states
 * (codecs/shellpack/shellpack_priors.h).  It encodes every training clip of Bandai dataset 1 with
 * shellpack-exchange at ACL's two shell targets (0.1 mm and 1 mm), traces the adaptive bits its
 * residuals meet and fits each bit's initial state (harness/train/shellpack_train.c), then writes
 * codecs/shellpack/shellpack_priors.c, or with --check compares its text with that file's byte for
 * byte.  The held-out clips (every SP_PRIORS_HOLD_OUT-th in name order) are never opened.  The
 * encodes run on every core (ANIMBENCH_THREADS); the traces are added in clip order, so the file
 * does not depend on the thread count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/train/shellpack_train.h"
#include "harness/train/side_train.h"
#include "core/text_file.h"
#include "generators/clip_library.h"
#include "harness/commands/cli_flags.h"
#include "harness/commands/commands.h"
#include "harness/measure/bench_timer.h"
#include "harness/measure/parallel.h"
#include "harness/sweep/results.h"

#define TRAIN_USAGE                                                                                        \
    "usage: animbench train-priors [--side] [--data DIR] [--out FILE | --check FILE] [--held-out]\n"            \
    "  Trains shellpack-trained's initial states on DIR's .bvh files (default data:bandai_namco_1, in cm,\n"  \
    "  Y up) but every 5th in name order, and writes the C file (default\n"                                  \
    "  codecs/shellpack/shellpack_priors.c).  --check FILE: exit 1 unless FILE is what it would write.\n"    \
    "  --side: shellpack-side's states for the side information instead, from shellpack-comp-fast's\n"      \
    "  streams (default codecs/shellpack/shellpack_side_priors.c).\n"                                     \
    "  --held-out: print the held-out clips' names, one per line, and nothing else.\n"

#define TRAIN_DEFAULT_DATA "data:bandai_namco_1"
#define TRAIN_DEFAULT_OUT "codecs/shellpack/shellpack_priors.c"
#define TRAIN_ROW "shellpack-exchange"
#define TRAIN_SIDE_OUT "codecs/shellpack/shellpack_side_priors.c"
#define TRAIN_SIDE_ROW "shellpack-comp-fast" /* shellpack-side's plans are those of the rows it carries */
static const double TRAIN_TARGETS_MM[] = {0.1, 1.0};
#define TRAIN_TARGETS 2

typedef struct train_job {
    char *name;
    sp_plan plan[TRAIN_TARGETS]; /* what its streams say (--side: their side information only) */
    int plans;
    int *parents; /* --side: the rig's */
    char err[512];
    int rc;
} train_job;

typedef struct train_context {
    train_job *jobs;
    const codec *row;
    clip_params clip;
    bool side;
} train_context;

static bool held_out(int index)
{
    return (index + 1) % SP_PRIORS_HOLD_OUT == 0;
}

/* One training clip at both targets: the plans of its shellpack-exchange streams (each stream verified
 * by its encoder, read back by shellpack's reader). */
static void encode_one(void *arg, int index)
{
    train_context *ctx = arg;
    train_job *job = &ctx->jobs[index];
    clip_source *src = clip_source_load(job->name, &ctx->clip, job->err, sizeof job->err);
    if (!src) {
        job->rc = -1;
        return;
    }
    channel_view *view = channels_create(src->clip);
    if (!view) {
        snprintf(job->err, sizeof job->err, "out of memory for the channel view");
        job->rc = -1;
    }
    for (int t = 0; t < TRAIN_TARGETS && job->rc == 0; t++) {
        const codec_params params = codec_params_with(ctx->row, TRAIN_TARGETS_MM[t], 0.35, 1);
        const codec_input in = {src->clip, view, true};
        codec_output out;
        codec_output_init(&out);
        sp_header h;
        if (ctx->row->ops->encode(ctx->row, &in, &params, &out, job->err, sizeof job->err) != 0 ||
            (ctx->side ? sp_side_plan_read(out.bytes.data, out.bytes.size, src->rig, &job->plan[t], job->err,
                                           sizeof job->err)
                       : sp_read(out.bytes.data, out.bytes.size, src->rig, &job->plan[t], &h, job->err,
                                 sizeof job->err)) != 0)
            job->rc = -1;
        else
            job->plans++;
        codec_output_free(&out);
    }
    if (job->rc == 0 && ctx->side) {
        job->parents = malloc((size_t)src->rig->bone_count * sizeof *job->parents);
        if (job->parents)
            memcpy(job->parents, src->rig->parents, (size_t)src->rig->bone_count * sizeof *job->parents);
        else {
            snprintf(job->err, sizeof job->err, "out of memory");
            job->rc = -1;
        }
    }
    channels_free(view);
    clip_source_free(src);
}

/* --side: the side information's states from the jobs' plans, written as text; 0, or 1 with a message. */
static int train_side(train_context *ctx, int training, int count, const char *data, double t0, bool quiet,
                      byte_buffer *text)
{
    sp_side_trainer *trainer = sp_side_trainer_create();
    if (!trainer) {
        fprintf(stderr, "animbench train-priors: out of memory\n");
        return 1;
    }
    int rc = 0;
    for (int j = 0; j < training && rc == 0; j++)
        for (int t = 0; t < TRAIN_TARGETS && rc == 0; t++)
            if (sp_side_trainer_add_plan(trainer, &ctx->jobs[j].plan[t], ctx->jobs[j].parents) != 0) {
                fprintf(stderr, "animbench train-priors: %s at %g mm: out of memory\n", ctx->jobs[j].name,
                        TRAIN_TARGETS_MM[t]);
                rc = 1;
            }
    if (rc == 0) {
        static rc_prob states[SP_SIDE_SLOTS], untrained[SP_SIDE_SLOTS];
        sp_side_trainer_fit(trainer, states);
        for (int i = 0; i < SP_SIDE_SLOTS; i++)
            untrained[i] = RC_PROB_INIT;
        char about[256];
        snprintf(about, sizeof about, "%s at 0.1 and 1 mm on %d of the %d clips of %s (all but every %dth by name)",
                 TRAIN_SIDE_ROW, training, count, data, SP_PRIORS_HOLD_OUT);
        if (sp_side_priors_source(states, about, text) != 0) {
            fprintf(stderr, "animbench train-priors: out of memory\n");
            rc = 1;
        }
        FILE *report = quiet ? stderr : stdout;
        const double before = sp_side_trainer_cost_bits(trainer, untrained, 0, SP_SIDE_SLOTS),
                     after = sp_side_trainer_cost_bits(trainer, states, 0, SP_SIDE_SLOTS);
        fprintf(report,
                "trained on %d clips x %d targets (%d held out) in %.1f s\n  side information's adaptive bits: %.0f "
                "bits from 1/2, %.0f from the trained states (%.2f %% fewer, on the training clips themselves; "
                "%.1f and %.1f bytes a stream)\n",
                training, TRAIN_TARGETS, count - training, timer_now_ns() * 1e-9 - t0, before, after,
                100.0 * (before - after) / before, before / 8 / trainer->plans, after / 8 / trainer->plans);
        static const struct {
            const char *name;
            int from, to;
        } PARTS[] = {{"modes", SP_SIDE_SLOT_MODES, SP_SIDE_SLOT_NUMBERS},
                     {"smallest step indices", SP_SIDE_SLOT_NUMBERS,
                      SP_SIDE_SLOT_NUMBERS + SP_SIDE_SET_SPREAD * SP_SIDE_NUMBER_SLOTS},
                     {"indices above them", SP_SIDE_SLOT_NUMBERS + SP_SIDE_SET_SPREAD * SP_SIDE_NUMBER_SLOTS,
                      SP_SIDE_SLOT_PREDICTORS},
                     {"predictors", SP_SIDE_SLOT_PREDICTORS, SP_SIDE_SLOTS}};
        for (size_t i = 0; i < sizeof PARTS / sizeof *PARTS; i++)
            fprintf(report, "    %-22s %5.1f bytes a stream from 1/2, %5.1f trained\n", PARTS[i].name,
                    sp_side_trainer_cost_bits(trainer, untrained, PARTS[i].from, PARTS[i].to) / 8 / trainer->plans,
                    sp_side_trainer_cost_bits(trainer, states, PARTS[i].from, PARTS[i].to) / 8 / trainer->plans);
    }
    sp_side_trainer_free(trainer);
    return rc;
}

int cmd_train(int argc, char **argv)
{
    const char *data = TRAIN_DEFAULT_DATA, *out_path = TRAIN_DEFAULT_OUT, *check_path = NULL;
    bool list_held_out = false, side = false;
    const cli_option options[] = {
        {"--side", CLI_SWITCH, &side, 0, 0, 0},
        {"--data", CLI_TEXT, &data, 0, 0, 0},
        {"--out", CLI_TEXT, &out_path, 0, 0, 0},
        {"--check", CLI_TEXT, &check_path, 0, 0, 0},
        {"--held-out", CLI_SWITCH, &list_held_out, 0, 0, 0},
    };
    const int parsed = cli_parse("train-priors", argc, argv, options, (int)(sizeof options / sizeof options[0]), NULL,
                                 TRAIN_USAGE);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    char err[1024];
    char **names = NULL;
    const int count = clip_expand(data, &names, err, sizeof err);
    if (count <= 0) {
        fprintf(stderr, "animbench train-priors: %s\n", err);
        return 2;
    }
    if (list_held_out) {
        for (int i = 0; i < count; i++)
            if (held_out(i)) {
                const char *slash = strrchr(names[i], '/'), *base = slash ? slash + 1 : names[i];
                printf("%.*s\n", (int)(strlen(base) - (strlen(base) > 4 ? 4 : 0)), base); /* without .bvh */
            }
        clip_names_free(names, count);
        return 0;
    }
    if (side && strcmp(out_path, TRAIN_DEFAULT_OUT) == 0)
        out_path = TRAIN_SIDE_OUT;
    const char *row_name = side ? TRAIN_SIDE_ROW : TRAIN_ROW;
    train_context ctx = {.row = codec_find(row_name), .clip = CLIP_DEFAULTS, .side = side};
    ctx.clip.unit_m = 0.01; /* dataset 1: centimetres, Y up */
    ctx.clip.unit_given = true;
    ctx.clip.up_axis = 1;
    int training = 0;
    for (int i = 0; i < count; i++)
        training += !held_out(i);
    ctx.jobs = calloc((size_t)training, sizeof *ctx.jobs);
    sp_trainer *trainer = sp_trainer_create();
    if (!ctx.row || !ctx.jobs || !trainer) {
        fprintf(stderr, "animbench train-priors: %s%s\n", ctx.row ? "out of memory" : "no row ", ctx.row ? "" : row_name);
        free(ctx.jobs);
        sp_trainer_free(trainer);
        clip_names_free(names, count);
        return 1;
    }
    for (int i = 0, j = 0; i < count; i++)
        if (!held_out(i))
            ctx.jobs[j++].name = names[i];
    const double t0 = timer_now_ns() * 1e-9;
    parallel_for(training, encode_one, &ctx);
    int rc = 0;
    for (int j = 0; j < training && rc == 0; j++) {
        if (ctx.jobs[j].rc != 0) {
            fprintf(stderr, "animbench train-priors: %s on %s: %s\n", row_name, ctx.jobs[j].name, ctx.jobs[j].err);
            rc = 1;
            break;
        }
        for (int t = 0; t < TRAIN_TARGETS && rc == 0 && !side; t++)
            if (sp_trainer_add_plan(trainer, &ctx.jobs[j].plan[t]) != 0) {
                fprintf(stderr, "animbench train-priors: %s at %g mm: out of memory, or a plan that leaves frames out\n",
                        ctx.jobs[j].name, TRAIN_TARGETS_MM[t]);
                rc = 1;
            }
    }
    byte_buffer text;
    bytes_init(&text);
    if (rc == 0 && side)
        rc = train_side(&ctx, training, count, data, t0, check_path != NULL, &text);
    for (int j = 0; j < training; j++) {
        for (int t = 0; t < ctx.jobs[j].plans; t++)
            sp_plan_free(&ctx.jobs[j].plan[t]);
        free(ctx.jobs[j].parents);
    }
    free(ctx.jobs);
    if (rc == 0 && !side) {
        static rc_prob states[SP_TYPES][SP_PRIOR_SLOTS], untrained[SP_TYPES][SP_PRIOR_SLOTS];
        static sign_model signs[SP_TYPES], signs_untrained[SP_TYPES];
        sp_trainer_fit(trainer, states);
        sp_trainer_fit_signs(trainer, signs);
        for (int type = 0; type < SP_TYPES; type++)
            sign_model_init(&signs_untrained[type]);
        for (int type = 0; type < SP_TYPES; type++)
            for (size_t i = 0; i < SP_PRIOR_SLOTS; i++)
                untrained[type][i] = RC_PROB_INIT;
        double before[SP_TYPES], after[SP_TYPES];
        typedef const rc_prob(*const_states)[SP_PRIOR_SLOTS]; /* C11 does not add the const itself */
        sp_trainer_cost_bits(trainer, (const_states)untrained, before);
        sp_trainer_cost_bits(trainer, (const_states)states, after);
        char about[256];
        snprintf(about, sizeof about, "%s at 0.1 and 1 mm on %d of the %d clips of %s (all but every %dth by name)",
                 TRAIN_ROW, training, count, data, SP_PRIORS_HOLD_OUT);
        double signs_before[SP_TYPES], signs_plain[SP_TYPES], signs_after[SP_TYPES], unused[SP_TYPES];
        sp_trainer_sign_bits(trainer, (const_states)untrained, signs_untrained, unused, signs_before);
        sp_trainer_sign_bits(trainer, (const_states)states, signs, signs_plain, signs_after);
        if (sp_priors_source((const_states)states, signs, about, &text) != 0) {
            fprintf(stderr, "animbench train-priors: out of memory\n");
            rc = 1;
        }
        static const char *const TYPE_NAMES[SP_TYPES] = {"rotation", "translation", "scale"};
        FILE *report = check_path ? stderr : stdout;
        fprintf(report, "trained on %d clips x %d targets (%d held out) in %.1f s\n", training, TRAIN_TARGETS,
                count - training, timer_now_ns() * 1e-9 - t0);
        for (int type = 0; type < SP_TYPES; type++)
            if (trainer->residuals[type])
                fprintf(report, "  %-11s %10llu residuals: %12.0f bits from 1/2, %12.0f from the trained states "
                        "(%.2f %% fewer, on the training clips themselves)\n", TYPE_NAMES[type],
                        (unsigned long long)trainer->residuals[type], before[type], after[type],
                        100.0 * (before[type] - after[type]) / before[type]);
        for (int type = 0; type < SP_TYPES; type++)
            if (trainer->residuals[type])
                fprintf(report, "  %-11s signs: %12.0f bits in their residual contexts, trained; in sign contexts %.0f "
                        "from 1/2, %.0f trained (%.2f %% fewer than the first)\n", TYPE_NAMES[type], signs_plain[type],
                        signs_before[type], signs_after[type],
                        100.0 * (signs_plain[type] - signs_after[type]) / signs_plain[type]);
    }
    sp_trainer_free(trainer);
    clip_names_free(names, count);
    if (rc == 0 && check_path) {
        size_t size = 0;
        int error_number = 0;
        char *have = read_whole_file(check_path, 1u << 24, &size, &error_number, err, sizeof err);
        if (!have) {
            fprintf(stderr, "animbench train-priors: %s\n", err);
            rc = 1;
        } else {
            size_t at = 0;
            while (at < size && at < text.size && have[at] == (char)text.data[at])
                at++;
            if (at != size || at != text.size) {
                fprintf(stderr, "animbench train-priors: %s is not what the program writes: they differ from byte %zu "
                        "(%zu bytes in the file, %zu written); make priors writes it again\n", check_path, at, size,
                        text.size);
                rc = 1;
            } else
                fprintf(stderr, "animbench train-priors: %s is what the program writes (%zu bytes)\n", check_path, size);
            free(have);
        }
    } else if (rc == 0 && write_file_atomic(out_path, (const char *)text.data, text.size, err, sizeof err) != 0) {
        fprintf(stderr, "animbench train-priors: %s\n", err);
        rc = 1;
    } else if (rc == 0)
        printf("wrote %s (%zu bytes)\n", out_path, text.size);
    bytes_free(&text);
    return rc;
}
