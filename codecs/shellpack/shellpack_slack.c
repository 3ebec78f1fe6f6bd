/* shellpack's encoder with a last phase that spends the closed loop's slack (shellpack_slack.h).
 *
 * Why: the closed loop chooses a step per component so that the worst frame of the worst joint's
 * subtree meets the target; at every other frame the decoded value is nearer the original than the
 * target needs (on a Bandai clip at 0.1 mm the mean shell distance is about a third of the
 * largest).  A quantised value can then move off its nearest grid point, towards what the
 * predictor expects, and the residuals it touches get smaller: capture noise the target does not
 * ask for is not coded.
 *
 * Before it, a row may exchange steps along the hierarchy (shellpack_exchange.c, `exchange`): the
 * plan's steps are then no longer the coarsening's, and the slack phase spends what is left.
 *
 * How: curve by curve (joints in rig order, parents first; components in order).  Costs are the
 * estimated bits of residuals, from the coder's model as it stands after coding the whole clip once
 * (a static table per context, so that an estimate does not depend on the order moves are tried
 * in).  A move is kept only if the joint's subtree stays within the target at every frame the value
 * decodes to (the kept frame and the left-out frames on both sides), checked exactly by the closed
 * loop (spe_within) and committed to it, so the next move sees it.
 *   - The greedy pass (slack_curve): frame by kept frame, each value q is offered q - radius ..
 *     q + radius, costed by its residual and the next two kept frames'; the cheapest that fits and
 *     is cheaper than q wins.
 *   - The trellis (trellis_curve): a curve's offsets chosen together by a Viterbi search over the
 *     offsets that fit one by one, the state being the last two offsets (exact for the "previous"
 *     and "linear" predictors); the path is then committed frame by frame, each move checked again.
 * After each pass predictors are chosen again.  The stream is written by shellpack's writer (or
 * shellpack-ra's), decoded by its decoder alone and measured, as shellpack's is: a stream over its
 * target is never emitted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_shell.h"
#include "codecs/shellpack/shellpack_costs.h"
#include "codecs/shellpack/shellpack_encoder.h"
#include "codecs/shellpack/shellpack_exchange.h"
#include "codecs/shellpack/shellpack_comp.h"
#include "codecs/shellpack/shellpack_slack.h"


#define SLACK_RADIUS_MAX 8 /* the greedy pass's; the trellis's is TRELLIS_RADIUS_MAX */

/* The estimated cost of value v at kept frame list[i] of a curve, with the predictor state s and
 * magnitudes m1, m2 before it: its residual and the next two kept frames'. */
static uint32_t lookahead_cost(const sp_residual_costs *t, int predictor, sp_predictor_state s, uint32_t m1, uint32_t m2,
                               const int32_t *k, const int *list, int i, int count, int32_t v)
{
    uint32_t cost = 0;
    for (int j = i; j < count && j <= i + 2; j++) {
        const int32_t value = j == i ? v : k[list[j]];
        const int32_t r = sp_wrap32((int64_t)value - sp_predict(predictor, &s));
        cost += sp_cost_of(t, sp_curve_context(m1, m2), r);
        sp_predictor_update(predictor, &s, value, r);
        m2 = m1;
        m1 = sp_magnitude(r);
    }
    return cost;
}

/* Whether a rotation's log-map vector at frame f stays well inside the range the decoder takes. */
static bool rotation_fits(const sp_plan *p, int b, int f)
{
    const sp_track *t = sp_track_at(p, b, SP_ROT);
    double len2 = 0;
    for (int c = 0; c < 3; c++) {
        const double v = (double)sp_curve(p, b, SP_ROT, c)[f] * sp_step(t->step_index[c]);
        len2 += v * v;
    }
    return len2 <= 7.0 * 7.0; /* the decoder's bound is 8 radians; the encoder's own values <= 2 pi + a step */
}

/* Sets value k[list[i]] to k + d and decodes the joint at the frames it decodes to (the kept frame
 * and the left-out frames on both sides, *fa .. *fb) into e->cand; whether the joint's subtree stays
 * within the target there, every other value as it is now. */
static bool decode_move(sp_encoder *e, int b, int type, int32_t *k, const int *list, int i, int count, int32_t d,
                        int *fa, int *fb)
{
    const int f = list[i];
    k[f] += d;
    *fa = i > 0 ? list[i - 1] + 1 : f;
    *fb = i + 1 < count ? list[i + 1] - 1 : f;
    if (k[f] <= -1073741824 || k[f] >= 1073741824 || (type == SP_ROT && !rotation_fits(&e->plan, b, f)))
        return false; /* spe_quantise_comp's range, and the decoder's for a rotation */
    for (int g = *fa; g <= *fb; g++)
        memcpy(e->cand + (size_t)(g - *fa) * POSE_STRIDE, loc_at(e, g, b), POSE_STRIDE * sizeof(double));
    sp_decode_track(&e->plan, e->rig, b, type, *fa, *fb, e->cand);
    return spe_within(e, b, *fa, *fb, e->cand);
}

/* Whether value k[list[i]] + d would keep the subtree within the target; k is left as it was. */
static bool move_fits(sp_encoder *e, int b, int type, int32_t *k, const int *list, int i, int count, int32_t d)
{
    int fa, fb;
    const bool ok = decode_move(e, b, type, k, list, i, count, d, &fa, &fb);
    k[list[i]] -= d;
    return ok;
}

/* The same, committed to the closed loop when it fits; whether it did. */
static bool try_move(sp_encoder *e, int b, int type, int32_t *k, const int *list, int i, int count, int32_t d)
{
    int fa, fb;
    if (!decode_move(e, b, type, k, list, i, count, d, &fa, &fb)) {
        k[list[i]] -= d;
        return false;
    }
    spe_commit(e, b, fa, fb, e->cand);
    return true;
}

/* Joint b's kept frames into list (room for every frame); how many. */
static int kept_frames(const sp_encoder *e, int b, int *list)
{
    const uint8_t *kept = sp_kept(&e->plan, b);
    int count = 0;
    for (int f = 0; f < e->n; f++)
        if (kept[f])
            list[count++] = f;
    return count;
}

/* One curve's values one by one (the greedy pass); list has room for every frame.  Returns the
 * values moved. */
static long slack_curve(sp_encoder *e, int b, int type, int c, int radius, const sp_residual_costs *costs, int *list)
{
    sp_plan *p = &e->plan;
    const int predictor = sp_track_at(p, b, type)->predictor[c];
    int32_t *k = sp_curve(p, b, type, c);
    const int count = kept_frames(e, b, list);
    sp_predictor_state s;
    sp_predictor_reset(&s);
    uint32_t m1 = 0, m2 = 0;
    long moved = 0;
    for (int i = 0; i < count; i++) {
        const int f = list[i];
        const int32_t q = k[f];
        const uint32_t now = lookahead_cost(costs, predictor, s, m1, m2, k, list, i, count, q);
        /* candidates by cost, cheapest first (ties: the smaller move, then the lower value) */
        int32_t cand[2 * SLACK_RADIUS_MAX + 1];
        uint32_t cost[2 * SLACK_RADIUS_MAX + 1];
        int nc = 0;
        for (int d = -radius; d <= radius; d++) {
            if (d == 0)
                continue;
            const uint32_t cst = lookahead_cost(costs, predictor, s, m1, m2, k, list, i, count, q + d);
            if (cst >= now)
                continue;
            int at = nc++;
            while (at > 0 && (cost[at - 1] > cst || (cost[at - 1] == cst && abs(cand[at - 1] - q) > abs(d)))) {
                cand[at] = cand[at - 1];
                cost[at] = cost[at - 1];
                at--;
            }
            cand[at] = q + d;
            cost[at] = cst;
        }
        /* a move past one that failed on the same side is not tried: the error grows with the
         * distance from the original value (a heuristic: it only leaves moves out) */
        int32_t failed_below = INT32_MIN, failed_above = INT32_MAX;
        for (int j = 0; j < nc; j++) {
            if (cand[j] <= failed_below || cand[j] >= failed_above)
                continue;
            if (try_move(e, b, type, k, list, i, count, cand[j] - q)) {
                moved++;
                break;
            }
            if (cand[j] < q)
                failed_below = cand[j];
            else
                failed_above = cand[j];
        }
        const int32_t r = sp_wrap32((int64_t)k[f] - sp_predict(predictor, &s));
        sp_predictor_update(predictor, &s, k[f], r);
        m2 = m1;
        m1 = sp_magnitude(r);
    }
    return moved;
}

#define TRELLIS_RADIUS_MAX 3
#define TD (2 * TRELLIS_RADIUS_MAX + 1)
#define TRELLIS_BLOCK 2048 /* kept frames chosen together: a path's memory stays 1.6 MB on any clip */
typedef struct trellis_node {
    uint32_t cost;
    uint32_t m1, m2; /* the best path's last two residual magnitudes (its coder context) */
    int8_t from;     /* d of the frame before the previous one on the best path */
} trellis_node;

typedef struct trellis_scratch {
    trellis_node nodes[TRELLIS_BLOCK * TD * TD];
    uint8_t fits[TRELLIS_BLOCK * TD];
    int8_t path[TRELLIS_BLOCK];
} trellis_scratch;

/* Kept frames i0 .. i0 + len - 1 of a curve chosen together: s, m1 and m2 are the predictor state
 * and residual magnitudes before i0, as committed.  Returns the values moved. */
static long trellis_block(sp_encoder *e, int b, int type, int predictor, int32_t *k, const int *list, int count,
                          int i0, int len, sp_predictor_state s0, uint32_t m1, uint32_t m2, int radius,
                          const sp_residual_costs *costs, trellis_scratch *t)
{
    const int w = 2 * radius + 1;
    /* a move is offered only where the smaller one on its side fits (the error grows with the distance
     * from the original value: a heuristic that halves the checks and only leaves moves out) */
    for (int j = 0; j < len; j++) {
        uint8_t *fit = t->fits + (size_t)j * TD + radius;
        fit[0] = 1;
        for (int side = -1; side <= 1; side += 2)
            for (int m = 1; m <= radius; m++)
                fit[side * m] = fit[side * (m - 1)] && move_fits(e, b, type, k, list, i0 + j, count, side * m);
    }
#define NODE(j, a, z) t->nodes[((size_t)(j) * TD + (a)) * TD + (z)]
    /* the block's first frame: its state's "previous offset" a is radius (no move: as committed) */
    for (int a = 0; a < w; a++)
        for (int z = 0; z < w; z++) {
            NODE(0, a, z) = (trellis_node){UINT32_MAX, 0, 0, 0};
            if (a == radius && t->fits[z]) {
                const int32_t r = sp_wrap32((int64_t)k[list[i0]] + z - radius - sp_predict(predictor, &s0));
                NODE(0, a, z) = (trellis_node){sp_cost_of(costs, sp_curve_context(m1, m2), r), sp_magnitude(r), m1, 0};
            }
        }
    for (int j = 1; j < len; j++) {
        const int i = i0 + j;
        for (int a = 0; a < w; a++)
            for (int z = 0; z < w; z++) {
                trellis_node best = {UINT32_MAX, 0, 0, 0};
                const int32_t v = k[list[i]] + z - radius, v1 = k[list[i - 1]] + a - radius;
                for (int y = 0; y < w && t->fits[(size_t)j * TD + z]; y++) {
                    const trellis_node *from = &NODE(j - 1, y, a);
                    if (from->cost == UINT32_MAX)
                        continue;
                    /* the frame two back: on the path inside the block, as committed before it */
                    const int64_t v2 = j >= 2 ? (int64_t)k[list[i - 2]] + y - radius : i >= 2 ? k[list[i - 2]] : 0;
                    const sp_predictor_state s = {v1, v2, i >= 2 ? 2 : 1, 16};
                    const int32_t r = sp_wrap32((int64_t)v - sp_predict(predictor, &s));
                    const uint32_t cost = from->cost + sp_cost_of(costs, sp_curve_context(from->m1, from->m2), r);
                    if (cost < best.cost)
                        best = (trellis_node){cost, sp_magnitude(r), from->m1, (int8_t)y};
                }
                NODE(j, a, z) = best;
            }
    }
    int a = radius, z = radius;
    uint32_t least = UINT32_MAX;
    for (int y = 0; y < w; y++)
        for (int x = 0; x < w; x++)
            if (NODE(len - 1, y, x).cost < least) {
                least = NODE(len - 1, y, x).cost;
                a = y;
                z = x;
            }
    for (int j = len - 1; j >= 0; j--) {
        t->path[j] = (int8_t)(z - radius);
        const int y = NODE(j, a, z).from;
        z = a;
        a = y;
    }
#undef NODE
    long moved = 0;
    for (int j = 0; j < len; j++)
        if (t->path[j] != 0)
            moved += try_move(e, b, type, k, list, i0 + j, count, t->path[j]);
    return moved;
}

/* A curve's values chosen together (Viterbi), block by block: every offset d in -radius..radius at
 * every kept frame that fits on its own, the path of least estimated bits (a state is the last two
 * offsets, so the "previous" and "linear" predictors are exact; contexts follow each state's best
 * path), then committed frame by frame, each move checked again with the ones before it.  The
 * adaptive predictor's weight depends on the whole path: its curves get the greedy pass.  Returns
 * the values moved. */
static long trellis_curve(sp_encoder *e, int b, int type, int c, int radius, const sp_residual_costs *costs, int *list,
                          trellis_scratch *t)
{
    sp_plan *p = &e->plan;
    const int predictor = sp_track_at(p, b, type)->predictor[c];
    if (predictor == SP_PRED_ADAPTIVE)
        return slack_curve(e, b, type, c, radius, costs, list);
    int32_t *k = sp_curve(p, b, type, c);
    const int count = kept_frames(e, b, list);
    sp_predictor_state s;
    sp_predictor_reset(&s);
    uint32_t m1 = 0, m2 = 0;
    long moved = 0;
    for (int i0 = 0; i0 < count; i0 += TRELLIS_BLOCK) {
        const int len = count - i0 < TRELLIS_BLOCK ? count - i0 : TRELLIS_BLOCK;
        moved += trellis_block(e, b, type, predictor, k, list, count, i0, len, s, m1, m2, radius, costs, t);
        for (int i = i0; i < i0 + len; i++) { /* the state after the block, as committed */
            const int32_t r = sp_wrap32((int64_t)k[list[i]] - sp_predict(predictor, &s));
            sp_predictor_update(predictor, &s, k[list[i]], r);
            m2 = m1;
            m1 = sp_magnitude(r);
        }
    }
    return moved;
}

/* The slack phase: `passes` passes over every animated curve, predictors chosen again after each. */
static int spend_slack(sp_encoder *e, const shellpack_slack_config *cfg, char *err, size_t err_size)
{
    if (cfg->radius <= 0 || cfg->passes <= 0 || cfg->radius > (cfg->trellis ? TRELLIS_RADIUS_MAX : SLACK_RADIUS_MAX) ||
        !spe_rebuild(e))
        return 0; /* a plan that misses in the closed loop's own terms is left to the refinement below */
    int *list = malloc((size_t)e->n * sizeof *list);
    sp_residual_costs *costs = malloc(sizeof *costs);
    trellis_scratch *t = cfg->trellis ? malloc(sizeof *t) : NULL;
    if (!list || !costs || (cfg->trellis && !t)) {
        free(list);
        free(costs);
        free(t);
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    for (int pass = 0; pass < cfg->passes; pass++) {
        long moved = 0;
        for (int type = 0; type < SP_TYPES; type++) {
            if (!sp_type_animated(&e->plan, type))
                continue;
            sp_tabulate_costs(e, type, costs);
            for (int b = 0; b < e->nb; b++)
                if (sp_track_at(&e->plan, b, type)->mode == SP_ANIM)
                    for (int c = 0; c < sp_comps(&e->plan, type); c++)
                        moved += cfg->trellis ? trellis_curve(e, b, type, c, cfg->radius, costs, list, t)
                                              : slack_curve(e, b, type, c, cfg->radius, costs, list);
        }
        spe_choose_predictors(e);
        if (moved == 0)
            break;
    }
    free(list);
    free(costs);
    free(t);
    return 0;
}

/* The largest shell distance of a decoded clip against the original, in metres, and where; -1 when
 * out of memory. */
static int decoded_error(const sp_encoder *e, const anim_clip *decoded, double *worst, int *joint, int *frame)
{
    pose_set *d = pose_set_from_clip(decoded);
    double *dist = d ? malloc((size_t)e->n * e->nb * sizeof *dist) : NULL;
    if (dist) {
        shell_distance_m(e->orig, d, e->shell, dist);
        *worst = -1;
        for (size_t i = 0; i < (size_t)e->n * e->nb; i++)
            if (dist[i] > *worst) {
                *worst = dist[i];
                *joint = (int)(i % (size_t)e->nb);
                *frame = (int)(i / (size_t)e->nb);
            }
    }
    free(dist);
    pose_set_free(d);
    return dist ? 0 : -1;
}

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    const shellpack_slack_config *cfg = c->config;
    const double target_mm = codec_param_get(c, p, 0);
    if (!(target_mm > 0) || !isfinite(target_mm)) {
        snprintf(err, err_size, "%s: a target of %g mm cannot be met by quantised values; give one above 0", c->name,
                 target_mm);
        return -1;
    }
    sp_encoder e;
    int rc = spe_init(&e, in->clip, &cfg->base, target_mm, err, err_size);
    if (rc == 0)
        rc = spe_plan_closed_loop(&e, err, err_size);
    if (rc == 0 && cfg->compensate)
        rc = spe_compensate(&e, err, err_size);
    if (rc == 0)
        rc = cfg->compensate ? spe_compensated_exchange(&e, cfg->exchange, err, err_size)
                             : spe_exchange_steps(&e, cfg->exchange, err, err_size);
    if (rc == 0 && cfg->base.keys)
        spe_choose_keys(&e);
    if (rc == 0)
        spe_choose_predictors(&e);
    if (rc == 0)
        rc = spend_slack(&e, cfg, err, err_size);
    const sp_header h = {0, in->clip->fps, (float)target_mm, (float)(e.shell * 1000)};
    for (int attempt = 0; rc == 0; attempt++) {
        out->bytes.size = 0;
        rc = cfg->base.random_access
                 ? sp_write_ra(&e.plan, &h, e.rig, (int)codec_param_get(c, p, 1), &out->bytes, out->parts,
                               &out->part_count, err, err_size)
                 : sp_write(&e.plan, &h, e.rig, &out->bytes, out->parts, &out->part_count, err, err_size);
        if (rc != 0)
            break;
        /* the contract, on the stream decoded by shellpack's decoder alone */
        anim_clip *decoded = SHELLPACK_OPS.decode(c, out->bytes.data, out->bytes.size, e.rig, err, err_size);
        double worst = 0;
        int joint = 0, frame = 0;
        if (!decoded || decoded_error(&e, decoded, &worst, &joint, &frame) != 0) {
            if (decoded)
                snprintf(err, err_size, "out of memory");
            clip_free(decoded);
            rc = -1;
            break;
        }
        clip_free(decoded);
        if (worst <= target_mm / 1000) {
            out->has_reported_error = true;
            out->reported_error_mm = worst * 1000;
            out->reported_joint = joint;
            out->reported_frame = frame;
            break;
        }
        if (attempt == 8) {
            snprintf(err, err_size,
                     "%s: the decoded stream misses its %g mm target (%.6g mm at joint %d, frame %d) after 8 "
                     "refinements; no stream written",
                     c->name, target_mm, worst * 1000, joint, frame);
            rc = -1;
            break;
        }
        /* the metric's rounding against the closed loop's: every step finer, slack spent again */
        for (int b = 0; b < e.nb; b++)
            for (int type = 0; type < SP_TYPES; type++) {
                sp_track *t = sp_track_at(&e.plan, b, type);
                if (t->mode == SP_ANIM) {
                    spe_refine_steps(t, 4);
                    spe_quantise(&e, b, type);
                }
            }
        /* a compensated plan's targets are its parents' old decoded values: quantised against the refined ones */
        if (cfg->compensate && (rc = spe_compensated_requantise(&e, err, err_size)) != 0)
            break;
        spe_choose_predictors(&e);
        rc = spend_slack(&e, cfg, err, err_size);
    }
    if (rc == 0) {
        out->keys = 0;
        out->key_time_bytes = 0;
        for (int b = 0; b < e.nb; b++)
            for (int type = 0; type < SP_TYPES; type++)
                if (sp_track_at(&e.plan, b, type)->mode == SP_ANIM)
                    for (int f = 0; f < e.n; f++)
                        out->keys += sp_kept(&e.plan, b)[f] * sp_comps(&e.plan, type);
        for (int i = 0; i < out->part_count; i++)
            if (strcmp(out->parts[i].name, "key masks") == 0)
                out->key_time_bytes = out->parts[i].bytes;
    }
    spe_free(&e);
    return rc;
}

/* Decoding and sampling are shellpack's: the stream is its format. */
static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    return SHELLPACK_OPS.decode(c, bytes, size, rig, err, err_size);
}
static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    return SHELLPACK_OPS.sampler_create(c, bytes, size, rig, err, err_size);
}
static void sample(codec_sampler *s, double t, double *pose)
{
    SHELLPACK_OPS.sample(s, t, pose);
}
static void sampler_free(codec_sampler *s)
{
    SHELLPACK_OPS.sampler_free(s);
}

const codec_ops SHELLPACK_SLACK_OPS = {encode, decode, sampler_create, sample, sampler_free};
