/* shellpack's closed loop: the decoded clip held joint by joint (local pose, world transform, shell
 * distance and its maximum over the subtree), so that a trial change of one sub-track is checked
 * exactly by forward kinematics of that joint's subtree, at the frames where it can matter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_shell.h"
#include "core/quat.h"
#include "codecs/shellpack/shellpack_encoder.h"

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
static double shell_error2(const sp_encoder *e, int f, int b, const double *w, const double *scale)
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
static double move_bound(const sp_encoder *e, int j, const double *now, const double *next)
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
/* spe_within at one frame f, lj the candidate local pose there. */
static bool within_frame(sp_encoder *e, int j, int f, const double *lj)
{
    if (*err_sub_at(e, f, j) + move_bound(e, j, loc_at(e, f, j), lj) <= e->target)
        return true;
    const int p = e->rig->parents[j];
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
    return true;
}

bool spe_within(sp_encoder *e, int j, int f0, int f1, const double *cand)
{
    for (int f = f0; f <= f1; f++)
        if (!within_frame(e, j, f, cand + (size_t)(f - f0) * POSE_STRIDE))
            return false;
    return true;
}

int spe_worst_frames(const sp_encoder *e, int j, int *frames, double *worst, int max)
{
    int count = 0;
    for (int f = 0; f < e->n; f++) {
        const double v = *err_sub_at(e, f, j);
        if (count < max || v > worst[count - 1]) {
            int i = count < max ? count++ : count - 1;
            for (; i > 0 && worst[i - 1] < v; i--) {
                worst[i] = worst[i - 1];
                frames[i] = frames[i - 1];
            }
            worst[i] = v;
            frames[i] = f;
        }
    }
    return count;
}

bool spe_candidate_at(sp_encoder *e, int b, int type, unsigned comps, int index, int f, double *lj)
{
    const double step = sp_step(index);
    int32_t next[SP_MAX_COMPS] = {0}, old[SP_MAX_COMPS] = {0};
    for (int c = 0; c < sp_comps(&e->plan, type); c++)
        if (comps >> c & 1) {
            const double x = nearbyint(val_at(e, b, type, c)[f] / step); /* spe_quantise_comp's value */
            if (!(fabs(x) < 1073741824.0))
                return false;
            next[c] = (int32_t)x;
        }
    memcpy(lj, loc_at(e, f, b), POSE_STRIDE * sizeof *lj);
    sp_track *t = sp_track_at(&e->plan, b, type);
    const sp_track saved = *t;
    for (int c = 0; c < sp_comps(&e->plan, type); c++)
        if (comps >> c & 1) {
            old[c] = sp_curve(&e->plan, b, type, c)[f];
            sp_curve(&e->plan, b, type, c)[f] = next[c];
            t->step_index[c] = (uint16_t)index;
        }
    sp_decode_track(&e->plan, e->rig, b, type, f, f, lj);
    *t = saved;
    for (int c = 0; c < sp_comps(&e->plan, type); c++)
        if (comps >> c & 1)
            sp_curve(&e->plan, b, type, c)[f] = old[c];
    return true;
}

bool spe_probe_step(sp_encoder *e, int b, int type, unsigned comps, int index)
{
    int frames[SPE_PROBE_FRAMES];
    double worst[SPE_PROBE_FRAMES];
    const int count = spe_worst_frames(e, b, frames, worst, SPE_PROBE_FRAMES);
    const uint8_t *kept = sp_kept(&e->plan, b);
    double lj[POSE_STRIDE];
    for (int i = 0; i < count; i++) {
        const int f = frames[i];
        if (!kept[f]) /* decoded from its neighbours' values, which the trial changes too */
            continue;
        if (!spe_candidate_at(e, b, type, comps, index, f, lj) || !within_frame(e, b, f, lj))
            return false;
    }
    return true;
}

/* err_sub of joint b at frame f from its own error and its children's. */
static void gather_err(sp_encoder *e, int f, int b)
{
    double m = *err_at(e, f, b);
    for (int i = 0; i < e->child_len[b]; i++) {
        const double c = *err_sub_at(e, f, e->children[e->child_start[b] + i]);
        m = c > m ? c : m;
    }
    *err_sub_at(e, f, b) = m;
}

/* Makes cand (frames f0..f1) joint j's decoded state: its subtree's world and errors, its ancestors' maxima. */
void spe_commit(sp_encoder *e, int j, int f0, int f1, const double *cand)
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
bool spe_rebuild(sp_encoder *e)
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

/* Log-map vectors (or quaternion components) with the sign of each quaternion
 * chosen next to the previous frame's, so a curve does not jump. */
static void original_rotations(sp_encoder *e, int b)
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

int spe_init(sp_encoder *e, const anim_clip *clip, const shellpack_config *cfg, double target_mm, char *err,
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

void spe_free(sp_encoder *e)
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
