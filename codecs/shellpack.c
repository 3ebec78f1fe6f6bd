/* shellpack's encoder (the stream and its decoder: shellpack_format.c).
 *
 * The closed loop holds the decoded clip: every joint's local pose as the
 * decoder will rebuild it and its world transform, so a trial change of one
 * joint's sub-track is checked exactly, by forward kinematics of that
 * joint's subtree (the only joints it moves) against the original's shell
 * vertices, at the frames it changes.  Every accepted change keeps every
 * joint within the target, so the state is always a stream that meets it.
 *
 *   1. Sub-tracks at their rest value or constant (to a thousandth of the
 *      target) are folded.  Steps from a lever-arm model: a rotation step in proportion to
 *      1 / (the farthest shell vertex below the joint), translations alike,
 *      all scaled by one level 2^(-g/16); g is the coarsest level whose
 *      decoded clip meets the target (bisection).
 *   2. Folds, joints from the leaves up (a leaf's error moves nothing else):
 *      each sub-track to the rest pose or to a constant if the target allows.
 *      Then rounds: every component of every animated sub-track, leaves
 *      first, is offered a step d grid points coarser, d = 32, 16, ..., 1,
 *      until a round changes nothing.  A trial is checked only at the frames
 *      where the subtree's current error plus what the change can move a
 *      vertex (move_bound) passes the target.
 *   3. Keys: per joint, a few step refinements are tried, each with the
 *      frames a greedy forward search can leave out (linear gaps) within the
 *      target; the cheapest in estimated bits (the coder's own adaptive
 *      models, key masks included) wins, "every frame" included.
 *   4. A predictor per curve by the same estimate; the stream is written,
 *      decoded by the decoder alone and measured with the harness's shell
 *      metric.  A miss (it should not happen) refines every step and tries
 *      again, at most 8 times; a stream over its target is never emitted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error_shell.h"
#include "../core/pose_set.h"
#include "../core/quat.h"
#include "range_coder.h"
#include "shellpack.h"

/* What the encoder holds per joint-sample: original values (96 B), shell
 * vertices (72), decoded local pose (80), world transform (56) and errors
 * (16), and the original pose set (80): 400 bytes. */
#define SHELLPACK_BYTES_PER_SAMPLE 400
#define SHELLPACK_SAMPLES_MAX 2097152
#define MAX_GAP 64
#define STUDY_LEVER_M 0.35

typedef struct encoder {
    const anim_clip *clip;
    const anim_rig *rig;
    const shellpack_config *cfg;
    int nb, n;
    double target, target2, shell; /* metres */
    sp_plan plan;
    double *val;   /* original values [bone][type][comp][frame] */
    double *vtx;   /* original shell vertices [frame][bone][axis][3] */
    double *loc;   /* decoded local poses [frame][bone][10] */
    double *world; /* decoded world [frame][bone][7]: position, rotation */
    double *cand;  /* one joint's candidate local poses [frame][10] */
    double *tmp;   /* world of a subtree at one frame [bone][7] */
    uint8_t *best_kept; /* the key mask of the cheapest option so far, one joint's frames */
    int *sub, *sub_start, *sub_len; /* each joint's subtree (itself first), in rig order */
    double *lever; /* [bone][type]: metres of displacement per unit of error in the sub-track */
    double *move_rot, *move_pos; /* [bone]: metres a vertex of the subtree moves per radian / metre of change */
    double *err, *err_sub; /* [frame][bone]: the decoded shell distance of the joint, and the largest in its subtree */
    int *children, *child_start, *child_len;
    pose_set *orig;
    rc_cost_table cost;
} encoder;

static double *val_at(const encoder *e, int b, int type, int c)
{
    return e->val + (((size_t)b * SP_TYPES + type) * SP_MAX_COMPS + c) * (size_t)e->n;
}
static double *loc_at(const encoder *e, int f, int b)
{
    return e->loc + ((size_t)f * e->nb + b) * POSE_STRIDE;
}
static double *world_at(const encoder *e, int f, int b)
{
    return e->world + ((size_t)f * e->nb + b) * 7;
}
static double *err_at(const encoder *e, int f, int b)
{
    return e->err + (size_t)f * e->nb + b;
}
static double *err_sub_at(const encoder *e, int f, int b)
{
    return e->err_sub + (size_t)f * e->nb + b;
}

/* ---- geometry ---- */

/* world (7) of a joint from its parent's world (NULL: a root), the parent's local scale and its own local pose */
static void child_world(const double *parent_world, const double *parent_scale, const double *local, double *w)
{
    if (!parent_world) {
        memcpy(w, local, 3 * sizeof *w);
        memcpy(w + 3, local + 3, 4 * sizeof *w);
        return;
    }
    const double scaled[3] = {local[0] * parent_scale[0], local[1] * parent_scale[1], local[2] * parent_scale[2]};
    double off[3];
    quat_rotate(parent_world + 3, scaled, off);
    for (int i = 0; i < 3; i++)
        w[i] = parent_world[i] + off[i];
    quat_mul(parent_world + 3, local + 3, w + 3);
}

/* The squared shell distance of one joint: its world w and local scale against the original's vertices. */
static double shell_error2(const encoder *e, int f, int b, const double *w, const double *scale)
{
    const double *ov = e->vtx + ((size_t)f * e->nb + b) * 9;
    const double x = w[3], y = w[4], z = w[5], s = w[6];
    /* the rotation's columns: where the joint's axes go */
    const double col[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + s * z), 2 * (x * z - s * y)},
                              {2 * (x * y - s * z), 1 - 2 * (x * x + z * z), 2 * (y * z + s * x)},
                              {2 * (x * z + s * y), 2 * (y * z - s * x), 1 - 2 * (x * x + y * y)}};
    double worst = 0;
    for (int a = 0; a < 3; a++) {
        const double d = e->shell * scale[a];
        const double dx = w[0] + d * col[a][0] - ov[a * 3], dy = w[1] + d * col[a][1] - ov[a * 3 + 1],
                     dz = w[2] + d * col[a][2] - ov[a * 3 + 2];
        const double d2 = dx * dx + dy * dy + dz * dz;
        worst = d2 > worst ? d2 : worst;
    }
    return worst;
}

/* How far a change of joint j's local pose from `now` to `next` can move any
 * shell vertex of its subtree, at most: the rotation's angle times the
 * farthest vertex, the translation through the parent's scale, the scale
 * through the longest child offset (triangle inequality; a thousandth more
 * for rounding).  Infinity when the change is too large for the bound. */
static double move_bound(const encoder *e, int j, const double *now, const double *next)
{
    double dq = 0, dot = 0, dp = 0, ds = 0;
    for (int i = 3; i < 7; i++)
        dot += now[i] * next[i];
    const double sign = dot < 0 ? -1 : 1;
    for (int i = 3; i < 7; i++)
        dq += (next[i] * sign - now[i]) * (next[i] * sign - now[i]);
    for (int i = 0; i < 3; i++) {
        dp += (next[i] - now[i]) * (next[i] - now[i]);
        ds += (next[7 + i] - now[7 + i]) * (next[7 + i] - now[7 + i]);
    }
    if (dq > 0.01)
        return INFINITY;
    /* the angle between unit quaternions a chord c apart is 4 asin(c / 2) <= 2.001 c for c <= 0.1 */
    const double angle = 2.001 * sqrt(dq);
    return 1.001 * (angle * e->move_rot[j] + sqrt(dp) * e->move_pos[j] + sqrt(ds) * e->lever[j * SP_TYPES + SP_SCL]) +
           1e-15;
}

/* Whether joint j with candidate local poses cand[(f - f0) * 10] keeps its
 * whole subtree within the target at frames f0..f1 (the rest as decoded now).
 * A frame whose subtree has more slack than the change can use is not
 * recomputed. */
static bool within(encoder *e, int j, int f0, int f1, const double *cand)
{
    const int p = e->rig->parents[j];
    for (int f = f0; f <= f1; f++) {
        const double *lj = cand + (size_t)(f - f0) * POSE_STRIDE;
        if (*err_sub_at(e, f, j) + move_bound(e, j, loc_at(e, f, j), lj) <= e->target)
            continue;
        double *wj = e->tmp + (size_t)j * 7;
        child_world(p < 0 ? NULL : world_at(e, f, p), p < 0 ? NULL : loc_at(e, f, p) + 7, lj, wj);
        if (!(shell_error2(e, f, j, wj, lj + 7) <= e->target2))
            return false;
        for (int i = 1; i < e->sub_len[j]; i++) {
            const int d = e->sub[e->sub_start[j] + i], pd = e->rig->parents[d];
            const double *ld = loc_at(e, f, d), *pscale = pd == j ? lj + 7 : loc_at(e, f, pd) + 7;
            double *wd = e->tmp + (size_t)d * 7;
            child_world(e->tmp + (size_t)pd * 7, pscale, ld, wd);
            if (!(shell_error2(e, f, d, wd, ld + 7) <= e->target2))
                return false;
        }
    }
    return true;
}

/* err_sub of joint b at frame f from its own error and its children's. */
static void gather_err(encoder *e, int f, int b)
{
    double m = *err_at(e, f, b);
    for (int i = 0; i < e->child_len[b]; i++) {
        const double c = *err_sub_at(e, f, e->children[e->child_start[b] + i]);
        m = c > m ? c : m;
    }
    *err_sub_at(e, f, b) = m;
}

/* Makes cand (frames f0..f1) joint j's decoded state: its subtree's world and errors, its ancestors' maxima. */
static void commit(encoder *e, int j, int f0, int f1, const double *cand)
{
    const int p = e->rig->parents[j];
    for (int f = f0; f <= f1; f++) {
        const double *lj = cand + (size_t)(f - f0) * POSE_STRIDE;
        if (memcmp(loc_at(e, f, j), lj, POSE_STRIDE * sizeof(double)) == 0)
            continue;
        memcpy(loc_at(e, f, j), lj, POSE_STRIDE * sizeof(double));
        for (int i = 0; i < e->sub_len[j]; i++) {
            const int d = e->sub[e->sub_start[j] + i], pd = d == j ? p : e->rig->parents[d];
            child_world(pd < 0 ? NULL : world_at(e, f, pd), pd < 0 ? NULL : loc_at(e, f, pd) + 7, loc_at(e, f, d),
                        world_at(e, f, d));
            *err_at(e, f, d) = sqrt(shell_error2(e, f, d, world_at(e, f, d), loc_at(e, f, d) + 7));
        }
        for (int i = e->sub_len[j] - 1; i >= 0; i--) /* children follow their parents */
            gather_err(e, f, e->sub[e->sub_start[j] + i]);
        for (int a = p; a >= 0; a = e->rig->parents[a])
            gather_err(e, f, a);
    }
}

/* Every joint's decoded state from the plan; returns whether the clip meets the target. */
static bool rebuild(encoder *e)
{
    for (int b = 0; b < e->nb; b++) {
        sp_decode_local(&e->plan, e->rig, b, 0, e->n - 1, e->cand);
        for (int f = 0; f < e->n; f++)
            memcpy(loc_at(e, f, b), e->cand + (size_t)f * POSE_STRIDE, POSE_STRIDE * sizeof(double));
    }
    bool ok = true;
    for (int f = 0; f < e->n; f++) {
        for (int b = 0; b < e->nb; b++) {
            const int p = e->rig->parents[b];
            child_world(p < 0 ? NULL : world_at(e, f, p), p < 0 ? NULL : loc_at(e, f, p) + 7, loc_at(e, f, b),
                        world_at(e, f, b));
            const double e2 = shell_error2(e, f, b, world_at(e, f, b), loc_at(e, f, b) + 7);
            *err_at(e, f, b) = sqrt(e2);
            ok &= e2 <= e->target2;
        }
        for (int b = e->nb - 1; b >= 0; b--)
            gather_err(e, f, b);
    }
    return ok;
}

/* ---- the original ---- */

/* Log-map vectors (or quaternion components) with the sign of each quaternion
 * chosen next to the previous frame's, so a curve does not jump. */
static void original_rotations(encoder *e, int b)
{
    const double *rot = clip_rot_track(e->clip, b);
    double prev[4] = {0, 0, 0, 1};
    for (int f = 0; f < e->n; f++) {
        double q[4];
        const double len = sqrt(rot[f * 4] * rot[f * 4] + rot[f * 4 + 1] * rot[f * 4 + 1] +
                                rot[f * 4 + 2] * rot[f * 4 + 2] + rot[f * 4 + 3] * rot[f * 4 + 3]);
        for (int i = 0; i < 4; i++)
            q[i] = len > 0 ? rot[f * 4 + i] / len : i == 3;
        if (q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0)
            for (int i = 0; i < 4; i++)
                q[i] = -q[i];
        memcpy(prev, q, sizeof prev);
        if (e->plan.rot_comps == 4) {
            for (int i = 0; i < 4; i++)
                val_at(e, b, SP_ROT, i)[f] = q[i];
            continue;
        }
        const double s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        const double k = s > 1e-300 ? 2 * atan2(s, q[3]) / s : 2 / q[3];
        for (int i = 0; i < 3; i++)
            val_at(e, b, SP_ROT, i)[f] = q[i] * k;
    }
}

static int encoder_init(encoder *e, const anim_clip *clip, const shellpack_config *cfg, double target_mm, char *err,
                        size_t err_size)
{
    memset(e, 0, sizeof *e);
    e->clip = clip;
    e->rig = clip->rig;
    e->cfg = cfg;
    e->nb = clip->rig->bone_count;
    e->n = clip->frame_count;
    e->target = target_mm / 1000 * (1 - 1e-9); /* a margin for the metric's own rounding */
    e->target2 = e->target * e->target;
    e->shell = SHELL_DISTANCE_DEFAULT_M;
    const double samples = (double)e->nb * e->n;
    if (samples > SHELLPACK_SAMPLES_MAX) {
        snprintf(err, err_size,
                 "shellpack: %d frames x %d joints = %.0f joint-samples, more than its encoder takes (%d, at %d bytes "
                 "each: %.0f MiB)",
                 e->n, e->nb, samples, SHELLPACK_SAMPLES_MAX, SHELLPACK_BYTES_PER_SAMPLE,
                 (double)SHELLPACK_SAMPLES_MAX * SHELLPACK_BYTES_PER_SAMPLE / 1048576);
        return -1;
    }
    const size_t ns = (size_t)e->nb * (size_t)e->n;
    e->val = malloc(ns * SP_TYPES * SP_MAX_COMPS * sizeof *e->val);
    e->vtx = malloc(ns * 9 * sizeof *e->vtx);
    e->loc = malloc(ns * POSE_STRIDE * sizeof *e->loc);
    e->world = malloc(ns * 7 * sizeof *e->world);
    e->cand = malloc((size_t)e->n * POSE_STRIDE * sizeof *e->cand);
    e->tmp = malloc((size_t)e->nb * 7 * sizeof *e->tmp);
    e->best_kept = malloc((size_t)e->n);
    e->sub = malloc((size_t)e->nb * (size_t)e->nb * sizeof *e->sub);
    e->sub_start = malloc((size_t)e->nb * sizeof *e->sub_start);
    e->sub_len = calloc((size_t)e->nb, sizeof *e->sub_len);
    e->lever = calloc((size_t)e->nb * SP_TYPES, sizeof *e->lever);
    e->move_rot = calloc((size_t)e->nb, sizeof *e->move_rot);
    e->move_pos = calloc((size_t)e->nb, sizeof *e->move_pos);
    e->err = malloc(ns * sizeof *e->err);
    e->err_sub = malloc(ns * sizeof *e->err_sub);
    e->children = malloc((size_t)e->nb * sizeof *e->children);
    e->child_start = calloc((size_t)e->nb, sizeof *e->child_start);
    e->child_len = calloc((size_t)e->nb, sizeof *e->child_len);
    e->orig = pose_set_from_clip(clip);
    if (!e->val || !e->vtx || !e->loc || !e->world || !e->cand || !e->tmp || !e->best_kept || !e->sub || !e->sub_start ||
        !e->sub_len || !e->lever || !e->move_rot || !e->move_pos || !e->err || !e->err_sub || !e->children ||
        !e->child_start || !e->child_len || !e->orig || sp_plan_init(&e->plan, e->nb, e->n, cfg->quaternion ? 4 : 3) != 0) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    rc_cost_table_init(&e->cost);
    /* subtrees: a bone's descendants follow it in rig order */
    for (int b = 0; b < e->nb; b++) {
        e->sub_start[b] = b * e->nb;
        for (int d = b; d < e->nb; d++) {
            int a = d;
            while (a > b)
                a = e->rig->parents[a];
            if (a == b)
                e->sub[e->sub_start[b] + e->sub_len[b]++] = d;
        }
    }
    for (int f = 0; f < e->n; f++)
        for (int b = 0; b < e->nb; b++) {
            const double *wp = pose_set_pos(e->orig, f, b), *wq = pose_set_rot(e->orig, f, b),
                         *s = pose_set_scale(e->orig, f, b);
            for (int a = 0; a < 3; a++) {
                double axis[3] = {0, 0, 0}, r[3];
                axis[a] = e->shell * s[a];
                quat_rotate(wq, axis, r);
                for (int i = 0; i < 3; i++)
                    e->vtx[((size_t)f * e->nb + b) * 9 + a * 3 + i] = wp[i] + r[i];
            }
        }
    for (int b = 0; b < e->nb; b++) {
        original_rotations(e, b);
        for (int c = 0; c < 3; c++) {
            memcpy(val_at(e, b, SP_POS, c), clip_pos_channel(clip, b, c), (size_t)e->n * sizeof(double));
            memcpy(val_at(e, b, SP_SCL, c), clip_scl_channel(clip, b, c), (size_t)e->n * sizeof(double));
        }
    }
    /* levers: how far an error in a sub-track can move a shell vertex of the subtree, per unit */
    for (int b = 0; b < e->nb; b++) {
        double rot = 0, scl = e->shell;
        for (int f = 0; f < e->n; f++)
            for (int i = 0; i < e->sub_len[b]; i++) {
                const int d = e->sub[e->sub_start[b] + i];
                const double *pd = pose_set_pos(e->orig, f, d), *pb = pose_set_pos(e->orig, f, b),
                             *sd = pose_set_scale(e->orig, f, d);
                const double smax = fmax(fabs(sd[0]), fmax(fabs(sd[1]), fabs(sd[2])));
                const double r = hypot(hypot(pd[0] - pb[0], pd[1] - pb[1]), pd[2] - pb[2]) + e->shell * smax;
                rot = r > rot ? r : rot;
                if (e->rig->parents[d] == b) {
                    const double l = hypot(hypot(clip_pos_channel(clip, d, 0)[f], clip_pos_channel(clip, d, 1)[f]),
                                           clip_pos_channel(clip, d, 2)[f]);
                    scl = l > scl ? l : scl;
                }
            }
        e->lever[b * SP_TYPES + SP_ROT] = rot > e->shell ? rot : e->shell;
        e->lever[b * SP_TYPES + SP_POS] = 1;
        e->lever[b * SP_TYPES + SP_SCL] = scl;
        /* the decoded pose is within the target of the original: distances differ by a little */
        e->move_rot[b] = 1.05 * e->lever[b * SP_TYPES + SP_ROT] + 4 * e->target;
        const int p = e->rig->parents[b];
        double pscale = 1;
        for (int f = 0; p >= 0 && f < e->n; f++)
            for (int a = 0; a < 3; a++)
                pscale = fmax(pscale, fabs(clip_scl_channel(clip, p, a)[f]));
        e->move_pos[b] = 1.01 * pscale;
    }
    int at = 0;
    for (int b = 0; b < e->nb; b++) {
        e->child_start[b] = at;
        for (int d = b + 1; d < e->nb; d++)
            if (e->rig->parents[d] == b)
                e->children[at + e->child_len[b]++] = d;
        at += e->child_len[b];
    }
    return 0;
}

static void encoder_free(encoder *e)
{
    sp_plan_free(&e->plan);
    free(e->val);
    free(e->vtx);
    free(e->loc);
    free(e->world);
    free(e->cand);
    free(e->tmp);
    free(e->best_kept);
    free(e->sub);
    free(e->sub_start);
    free(e->sub_len);
    free(e->lever);
    free(e->move_rot);
    free(e->move_pos);
    free(e->err);
    free(e->err_sub);
    free(e->children);
    free(e->child_start);
    free(e->child_len);
    pose_set_free(e->orig);
}

/* ---- quantisation ---- */

/* The finest step index whose quantisation error (half a step per component)
 * moves a vertex by at most `error` metres through the sub-track's lever. */
static int step_index_for(const encoder *e, int b, int type, double error)
{
    const double lever = e->lever[b * SP_TYPES + type];
    /* a log-map, translation or scale error vector is at most sqrt(3)/2 steps long; a
     * quaternion's sqrt(4)/2, and its angle twice that */
    const double per_step = type == SP_ROT && e->plan.rot_comps == 4 ? 2.0 : sqrt(3.0) / 2;
    const double step = error / (lever * per_step);
    const double idx = ceil(-16 * log2(step));
    return idx < 0 ? 0 : idx > SP_STEP_INDEX_MAX ? SP_STEP_INDEX_MAX : (int)idx;
}

static void set_steps(sp_track *t, int index)
{
    index = index < 0 ? 0 : index > SP_STEP_INDEX_MAX ? SP_STEP_INDEX_MAX : index;
    for (int c = 0; c < SP_MAX_COMPS; c++)
        t->step_index[c] = (uint16_t)index;
}

/* Every component's step finer by d (within the grid). */
static void refine_steps(sp_track *t, int d)
{
    for (int c = 0; c < SP_MAX_COMPS; c++)
        t->step_index[c] = (uint16_t)(t->step_index[c] + d > SP_STEP_INDEX_MAX ? SP_STEP_INDEX_MAX : t->step_index[c] + d);
}

/* Quantises component c of sub-track (b, type) at its step; false when a value is too large for it. */
static bool quantise_comp(encoder *e, int b, int type, int c)
{
    const double step = sp_step(sp_track_at(&e->plan, b, type)->step_index[c]);
    const double *v = val_at(e, b, type, c);
    int32_t *k = sp_curve(&e->plan, b, type, c);
    for (int f = 0; f < e->n; f++) {
        const double x = nearbyint(v[f] / step);
        if (!(fabs(x) < 1073741824.0))
            return false;
        k[f] = (int32_t)x;
    }
    return true;
}

static bool quantise(encoder *e, int b, int type)
{
    for (int c = 0; c < sp_comps(&e->plan, type); c++)
        if (!quantise_comp(e, b, type, c))
            return false;
    return true;
}

/* Sets every animated sub-track's step from the lever model at error `err_m`. */
static bool set_level(encoder *e, double err_m)
{
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(&e->plan, b, type);
            if (t->mode != SP_ANIM)
                continue;
            set_steps(t, step_index_for(e, b, type, err_m));
            if (!quantise(e, b, type))
                return false;
        }
    return true;
}

/* The midrange of each component: the constant closest to every frame. */
static void midrange(const encoder *e, int b, int type, float *out)
{
    for (int c = 0; c < sp_comps(&e->plan, type); c++) {
        const double *v = val_at(e, b, type, c);
        double lo = v[0], hi = v[0];
        for (int f = 1; f < e->n; f++) {
            lo = v[f] < lo ? v[f] : lo;
            hi = v[f] > hi ? v[f] : hi;
        }
        out[c] = (float)(lo + (hi - lo) / 2);
    }
}

/* Tries a change of joint b's sub-track `type` (every sub-track: type < 0)
 * already made in the plan: kept (and committed) when the subtree stays within. */
static bool try_joint(encoder *e, int b, int type)
{
    if (type < 0)
        sp_decode_local(&e->plan, e->rig, b, 0, e->n - 1, e->cand);
    else {
        for (int f = 0; f < e->n; f++)
            memcpy(e->cand + (size_t)f * POSE_STRIDE, loc_at(e, f, b), POSE_STRIDE * sizeof(double));
        sp_decode_track(&e->plan, e->rig, b, type, 0, e->n - 1, e->cand);
    }
    if (!within(e, b, 0, e->n - 1, e->cand))
        return false;
    commit(e, b, 0, e->n - 1, e->cand);
    return true;
}

static bool try_fold(encoder *e, int b, int type, int mode)
{
    sp_track *t = sp_track_at(&e->plan, b, type);
    const sp_track saved = *t;
    t->mode = (uint8_t)mode;
    if (mode == SP_CONST)
        midrange(e, b, type, t->constant);
    if (try_joint(e, b, type))
        return true;
    *t = saved;
    return false;
}

/* Tries component `comp`'s step index (all components: comp < 0) at `index`. */
static bool try_step(encoder *e, int b, int type, int comp, int index)
{
    sp_track *t = sp_track_at(&e->plan, b, type);
    const sp_track saved = *t;
    if (index < 0)
        return false;
    bool ok = true;
    for (int c = 0; c < sp_comps(&e->plan, type); c++)
        if (comp < 0 || c == comp) {
            t->step_index[c] = (uint16_t)index;
            ok = ok && quantise_comp(e, b, type, c);
        }
    if (ok && try_joint(e, b, type))
        return true;
    *t = saved;
    for (int c = 0; c < sp_comps(&e->plan, type); c++)
        if (comp < 0 || c == comp)
            quantise_comp(e, b, type, c);
    return false;
}

/* Phase 2: leaves first, fold or coarsen every sub-track as far as the target allows. */
static void coarsen(encoder *e)
{
    /* folds first: a fold is worth a whole curve, and after a coarsened step has used the slack a
     * sub-track equal to its rest value may no longer fit exactly */
    for (int b = e->nb - 1; b >= 0; b--)
        for (int type = 0; type < SP_TYPES; type++)
            if (sp_track_at(&e->plan, b, type)->mode == SP_ANIM && !try_fold(e, b, type, SP_REST))
                try_fold(e, b, type, SP_CONST);
    /* then every component's step, in rounds: each round offers every component, leaves first, a step
     * d grid points coarser, until none takes it; d = 32, 16, ..., 1.  Taking each sub-track as far as it
     * goes in turn spent the slack on the first ones: rounds gave 2 to 4 % fewer bytes on five Bandai
     * clips.  Starting at 8 instead of 32 was 0.2 to 0.4 % smaller and twice as slow. */
    for (int d = 32; d >= 1; d /= 2) {
        bool moved = true;
        while (moved) {
            moved = false;
            for (int b = e->nb - 1; b >= 0; b--)
                for (int type = 0; type < SP_TYPES; type++) {
                    sp_track *t = sp_track_at(&e->plan, b, type);
                    if (t->mode != SP_ANIM)
                        continue;
                    for (int c = 0; c < sp_comps(&e->plan, type); c++)
                        moved |= try_step(e, b, type, c, t->step_index[c] - d);
                }
        }
    }
}

/* ---- cost estimates ---- */

static uint32_t curve_cost(const encoder *e, int b, int type, int c, int predictor)
{
    const int32_t *k = sp_curve(&e->plan, b, type, c);
    const uint8_t *kept = sp_kept(&e->plan, b);
    residual_model m;
    residual_model_init(&m);
    sp_predictor_state s;
    sp_predictor_reset(&s);
    uint32_t m1 = 0, m2 = 0, cost = 0;
    for (int f = 0; f < e->n; f++) {
        if (!kept[f])
            continue;
        const int32_t r = sp_wrap32((int64_t)k[f] - sp_predict(predictor, &s));
        const uint32_t mm = m1 > m2 ? m1 : m2;
        cost += residual_cost(&e->cost, &m, residual_context(mm), r);
        sp_predictor_update(predictor, &s, k[f], r);
        m2 = m1;
        m1 = r < 0 ? 0u - (uint32_t)r : (uint32_t)r;
    }
    return cost;
}

/* The cheapest predictor of a curve (only "none" without prediction); its cost. */
static uint32_t choose_predictor(const encoder *e, int b, int type, int c, uint8_t *choice)
{
    uint32_t best = UINT32_MAX;
    for (int pr = 0; pr < (e->cfg->predict ? SP_PREDICTORS : 1); pr++) {
        const uint32_t cost = curve_cost(e, b, type, c, pr);
        if (cost < best) {
            best = cost;
            *choice = (uint8_t)pr;
        }
    }
    return best;
}

/* Estimated bits (x RC_COST_SCALE) of joint b's animated values and key mask. */
static uint64_t joint_cost(encoder *e, int b)
{
    uint64_t cost = 0;
    for (int type = 0; type < SP_TYPES; type++) {
        sp_track *t = sp_track_at(&e->plan, b, type);
        if (t->mode == SP_ANIM)
            for (int c = 0; c < sp_comps(&e->plan, type); c++)
                cost += choose_predictor(e, b, type, c, &t->predictor[c]) + 2 * RC_COST_SCALE;
    }
    const uint8_t *kept = sp_kept(&e->plan, b);
    rc_prob has = RC_PROB_INIT, mask[2] = {RC_PROB_INIT, RC_PROB_INIT};
    bool gaps = false;
    for (int f = 0; f < e->n && !gaps; f++)
        gaps = !kept[f];
    cost += rc_bit_cost(&e->cost, &has, gaps);
    for (int f = 1; gaps && f < e->n - 1; f++)
        cost += rc_bit_cost(&e->cost, &mask[kept[f - 1]], kept[f]);
    return cost;
}

/* ---- keys ---- */

/* The per-channel check (the ablation without the closed loop): every
 * component within its own tolerance of the original at frames f0..f1. */
static bool channel_within(const encoder *e, int b, int f0, int f1)
{
    double values[SP_MAX_COMPS * 64];
    for (int type = 0; type < SP_TYPES; type++) {
        if (sp_track_at(&e->plan, b, type)->mode != SP_ANIM)
            continue;
        const int comps = sp_comps(&e->plan, type);
        const double tol = e->target / e->lever[b * SP_TYPES + type];
        for (int g0 = f0; g0 <= f1; g0 += 64) {
            const int g1 = g0 + 63 < f1 ? g0 + 63 : f1;
            sp_track_values(&e->plan, b, type, g0, g1, values);
            for (int f = g0; f <= g1; f++)
                for (int c = 0; c < comps; c++)
                    if (!(fabs(values[(f - g0) * comps + c] - val_at(e, b, type, c)[f]) <= tol))
                        return false;
        }
    }
    return true;
}

static bool gap_within(encoder *e, int b, int f0, int f1)
{
    if (e->cfg->per_channel)
        return channel_within(e, b, f0, f1);
    sp_decode_local(&e->plan, e->rig, b, f0, f1, e->cand);
    return within(e, b, f0, f1, e->cand);
}

/* Greedy forward: from each kept frame, the longest run of left-out frames the target allows. */
static void omit_frames(encoder *e, int b)
{
    uint8_t *kept = sp_kept(&e->plan, b);
    int a = 0;
    while (a < e->n - 1) {
        int best = a + 1;
        for (int z = a + 2; z <= e->n - 1 && z - a <= MAX_GAP; z++) {
            kept[z - 1] = 0;
            if (!gap_within(e, b, a + 1, z - 1)) {
                kept[z - 1] = 1;
                break;
            }
            best = z;
        }
        a = best;
    }
}

/* Phase 3: per joint, the cheapest of "every frame at the current steps" and
 * "steps finer by d, with the frames that then fit in linear gaps left out". */
static void choose_keys(encoder *e)
{
    static const int REFINE[] = {0, 8, 16, 24};
    sp_track saved[SP_TYPES];
    for (int b = e->nb - 1; b >= 0; b--) {
        bool animated = false;
        for (int type = 0; type < SP_TYPES; type++) {
            saved[type] = *sp_track_at(&e->plan, b, type);
            animated |= saved[type].mode == SP_ANIM;
        }
        if (!animated)
            continue;
        uint8_t *kept = sp_kept(&e->plan, b);
        const uint64_t base = joint_cost(e, b);
        uint64_t best = base;
        int best_refine = -1;
        for (size_t r = 0; r < sizeof REFINE / sizeof REFINE[0]; r++) {
            bool ok = true;
            for (int type = 0; type < SP_TYPES && ok; type++) {
                sp_track *t = sp_track_at(&e->plan, b, type);
                if (t->mode != SP_ANIM)
                    continue;
                *t = saved[type];
                refine_steps(t, REFINE[r]);
                ok = quantise(e, b, type);
            }
            memset(kept, 1, (size_t)e->n);
            if (ok && (e->cfg->per_channel || gap_within(e, b, 0, e->n - 1))) {
                omit_frames(e, b);
                const uint64_t cost = joint_cost(e, b);
                if (cost < best) {
                    best = cost;
                    best_refine = (int)r;
                    memcpy(e->best_kept, kept, (size_t)e->n);
                }
            }
        }
        for (int type = 0; type < SP_TYPES; type++)
            *sp_track_at(&e->plan, b, type) = saved[type];
        if (best_refine >= 0)
            for (int type = 0; type < SP_TYPES; type++)
                if (saved[type].mode == SP_ANIM)
                    refine_steps(sp_track_at(&e->plan, b, type), REFINE[best_refine]);
        for (int type = 0; type < SP_TYPES; type++)
            if (saved[type].mode == SP_ANIM)
                quantise(e, b, type);
        if (best_refine >= 0)
            memcpy(kept, e->best_kept, (size_t)e->n);
        else
            memset(kept, 1, (size_t)e->n);
        if (!e->cfg->per_channel) {
            sp_decode_local(&e->plan, e->rig, b, 0, e->n - 1, e->cand);
            commit(e, b, 0, e->n - 1, e->cand);
        }
    }
}

/* ---- the per-channel plan (ablation) ---- */

/* The value of a sub-track folded to its rest pose: identity, rest offset, unit scale. */
static void rest_value(const encoder *e, int b, int type, double *out)
{
    for (int c = 0; c < SP_MAX_COMPS; c++)
        out[c] = type == SP_SCL || (type == SP_ROT && c == 3) ? 1.0 : 0.0;
    if (type == SP_POS)
        for (int c = 0; c < 3; c++)
            out[c] = e->rig->rest_offsets[b * 3 + c];
}

/* Whether every frame of a sub-track is within `slack` of value (per component). */
static bool constant_within(const encoder *e, int b, int type, const double *value, const double *slack)
{
    for (int c = 0; c < sp_comps(&e->plan, type); c++)
        for (int f = 0; f < e->n; f++)
            if (!(fabs(val_at(e, b, type, c)[f] - value[c]) <= slack[c]))
                return false;
    return true;
}


static bool channel_const_within(const encoder *e, int b, int type, const double *value)
{
    const double tol = e->target / e->lever[b * SP_TYPES + type];
    const double slack[SP_MAX_COMPS] = {tol, tol, tol, tol};
    return constant_within(e, b, type, value, slack);
}

static int plan_per_channel(encoder *e, char *err, size_t err_size)
{
    for (int b = 0; b < e->nb; b++) {
        e->lever[b * SP_TYPES + SP_ROT] = STUDY_LEVER_M;
        e->lever[b * SP_TYPES + SP_SCL] = STUDY_LEVER_M;
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(&e->plan, b, type);
            double rest[SP_MAX_COMPS], mid[SP_MAX_COMPS];
            rest_value(e, b, type, rest);
            midrange(e, b, type, t->constant);
            for (int c = 0; c < SP_MAX_COMPS; c++)
                mid[c] = t->constant[c];
            if (channel_const_within(e, b, type, rest))
                t->mode = SP_REST;
            else if (channel_const_within(e, b, type, mid)) {
                t->mode = SP_CONST;
            } else {
                t->mode = SP_ANIM;
                set_steps(t, step_index_for(e, b, type, e->target));
                if (!quantise(e, b, type)) {
                    snprintf(err, err_size,
                             "shellpack: joint %d's values would need more than 2^30 steps of %g (quantised values are "
                             "31-bit integers)",
                             b, sp_step(t->step_index[0]));
                    return -1;
                }
            }
        }
    }
    return 0;
}

/* ---- the closed-loop plan ---- */

static int plan_closed_loop(encoder *e, char *err, size_t err_size)
{
    /* sub-tracks that are their rest value or a constant (to a thousandth of the target through their
     * lever) fold before any step is chosen: quantised, they would spend error that folding them later
     * could not give back */
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(&e->plan, b, type);
            double rest[SP_MAX_COMPS], mid[SP_MAX_COMPS], slack[SP_MAX_COMPS];
            rest_value(e, b, type, rest);
            midrange(e, b, type, t->constant);
            for (int c = 0; c < SP_MAX_COMPS; c++) {
                mid[c] = t->constant[c]; /* as the stream holds it */
                slack[c] = 1e-3 * e->target / e->lever[b * SP_TYPES + type];
            }
            t->mode = constant_within(e, b, type, rest, slack)  ? SP_REST
                      : constant_within(e, b, type, mid, slack) ? SP_CONST
                                                                : SP_ANIM;
        }
    /* the coarsest level of the lever model that meets the target: levels g, error target * 2^(-g/16),
     * tried 32 apart, then one by one where the next would need values past 31 bits */
    int lo = -16, hi = -16; /* lo: known to miss (or the start), hi: to be found meeting it */
    bool found = false;
    for (hi = 0; hi <= 640 && !found; hi += 32) {
        if (!set_level(e, e->target * exp2(-hi / 16.0))) {
            for (hi = lo + 1; hi < lo + 32 && !found; hi++)
                found = set_level(e, e->target * exp2(-hi / 16.0)) && rebuild(e);
            hi -= found;
            break;
        }
        if (rebuild(e)) {
            found = true;
            break;
        }
        lo = hi;
    }
    if (!found) {
        snprintf(err, err_size,
                 "shellpack: no step meets %g mm of shell error on this clip: its values would need more than 2^30 "
                 "steps (quantised values are 31-bit integers)",
                 e->target * 1000);
        return -1;
    }
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        if (set_level(e, e->target * exp2(-mid / 16.0)) && rebuild(e))
            hi = mid;
        else
            lo = mid;
    }
    set_level(e, e->target * exp2(-hi / 16.0));
    rebuild(e);
    coarsen(e);
    return 0;
}

/* ---- the row's ops ---- */

static void choose_predictors(encoder *e)
{
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(&e->plan, b, type);
            if (t->mode == SP_ANIM)
                for (int c = 0; c < sp_comps(&e->plan, type); c++)
                    choose_predictor(e, b, type, c, &t->predictor[c]);
        }
}

/* The largest shell distance of a decoded clip against the original, in metres, and where. */
static int measure_shell(const encoder *e, const anim_clip *decoded, double *worst, int *joint, int *frame)
{
    pose_set *d = pose_set_from_clip(decoded);
    double *dist = d ? malloc((size_t)e->n * e->nb * sizeof *dist) : NULL;
    if (!dist) {
        pose_set_free(d);
        return -1;
    }
    shell_distance_m(e->orig, d, e->shell, dist);
    *worst = -1;
    for (int f = 0; f < e->n; f++)
        for (int b = 0; b < e->nb; b++)
            if (dist[(size_t)f * e->nb + b] > *worst) {
                *worst = dist[(size_t)f * e->nb + b];
                *joint = b;
                *frame = f;
            }
    free(dist);
    pose_set_free(d);
    return 0;
}

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    const shellpack_config *cfg = c->config;
    const double target_mm = codec_param_get(c, p, 0);
    if (!(target_mm > 0) || !isfinite(target_mm)) {
        snprintf(err, err_size, "%s: a target of %g mm cannot be met by quantised values; give one above 0", c->name,
                 target_mm);
        return -1;
    }
    encoder e;
    if (encoder_init(&e, in->clip, cfg, target_mm, err, err_size) != 0) {
        encoder_free(&e);
        return -1;
    }
    int rc = cfg->per_channel ? plan_per_channel(&e, err, err_size) : plan_closed_loop(&e, err, err_size);
    if (rc == 0 && cfg->keys)
        choose_keys(&e);
    const sp_header h = {(uint8_t)((cfg->quaternion ? SP_FLAG_QUATERNION : 0) | (cfg->gzip ? SP_FLAG_GZIP : 0)),
                         in->clip->fps, (float)target_mm, (float)(e.shell * 1000)};
    for (int attempt = 0; rc == 0; attempt++) {
        choose_predictors(&e);
        out->bytes.size = 0;
        rc = sp_write(&e.plan, &h, e.rig, &out->bytes, out->parts, &out->part_count, err, err_size);
        if (rc != 0)
            break;
        /* the contract, on the stream decoded by the decoder alone */
        sp_plan back;
        sp_header hb;
        anim_clip *decoded = NULL;
        if (sp_read(out->bytes.data, out->bytes.size, e.rig, &back, &hb, err, err_size) != 0) {
            rc = -1;
            break;
        }
        decoded = sp_plan_to_clip(&back, e.rig, hb.fps);
        sp_plan_free(&back);
        double worst;
        int joint = 0, frame = 0;
        if (!decoded || measure_shell(&e, decoded, &worst, &joint, &frame) != 0) {
            clip_free(decoded);
            snprintf(err, err_size, "out of memory");
            rc = -1;
            break;
        }
        clip_free(decoded);
        if (cfg->per_channel || worst <= target_mm / 1000) {
            out->has_reported_error = true;
            out->reported_error_mm = worst * 1000;
            out->reported_joint = joint;
            out->reported_frame = frame;
            break;
        }
        if (attempt == 8) {
            snprintf(err, err_size,
                     "shellpack: the decoded stream misses its %g mm target (%.6g mm at joint %d, frame %d) after 8 "
                     "refinements; no stream written",
                     target_mm, worst * 1000, joint, frame);
            rc = -1;
            break;
        }
        for (int b = 0; b < e.nb; b++)
            for (int type = 0; type < SP_TYPES; type++) {
                sp_track *t = sp_track_at(&e.plan, b, type);
                if (t->mode == SP_ANIM) {
                    refine_steps(t, 4);
                    quantise(&e, b, type);
                }
            }
    }
    if (rc == 0) {
        long keys = 0;
        for (int b = 0; b < e.nb; b++)
            for (int type = 0; type < SP_TYPES; type++)
                if (sp_track_at(&e.plan, b, type)->mode == SP_ANIM)
                    for (int f = 0; f < e.n; f++)
                        keys += sp_kept(&e.plan, b)[f] * sp_comps(&e.plan, type);
        out->keys = keys;
        out->key_time_bytes = 0;
        for (int i = 0; i < out->part_count; i++)
            if (strcmp(out->parts[i].name, "key masks") == 0)
                out->key_time_bytes = out->parts[i].bytes;
    }
    encoder_free(&e);
    return rc;
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    (void)c;
    sp_plan p;
    sp_header h;
    if (sp_read(bytes, size, rig, &p, &h, err, err_size) != 0)
        return NULL;
    anim_clip *clip = sp_plan_to_clip(&p, rig, h.fps);
    sp_plan_free(&p);
    if (!clip)
        snprintf(err, err_size, "out of memory");
    return clip;
}

struct codec_sampler {
    anim_clip *clip;
};

static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    anim_clip *clip = decode(c, bytes, size, rig, err, err_size);
    codec_sampler *s = clip ? malloc(sizeof *s) : NULL;
    if (!s) {
        if (clip)
            snprintf(err, err_size, "out of memory");
        clip_free(clip);
        return NULL;
    }
    s->clip = clip;
    return s;
}

static void sample(codec_sampler *s, double t, double *pose)
{
    clip_interpolate_pose(s->clip, t, pose);
}

static void sampler_free(codec_sampler *s)
{
    if (s)
        clip_free(s->clip);
    free(s);
}

const codec_ops SHELLPACK_OPS = {encode, decode, sampler_create, sample, sampler_free};
