/* shellpack-comp: shellpack's closed loop with error feedback down the hierarchy (issue 23).
 *
 * Why.  shellpack quantises each joint's local rotation as the original has it, so a joint's
 * decoded world rotation carries its own rounding error and every ancestor's: an error at the hips
 * turns the whole body, and the lever-arm model and the closed loop give the hips a step in
 * proportion to 1 / (the farthest shell vertex below them, about a metre).  Here a joint's rotation
 * is quantised from its parent's decoded world rotation W'p instead: the value coded is the log map
 * of W'p^-1 Wo (Wo the original world rotation), so the decoded world rotation is the original's
 * up to the joint's own rounding, and an ancestor's error only moves the subtree by its own bone
 * (the joints below keep their directions).  The decoder is shellpack's, unchanged: it cannot tell.
 * What it costs is that a child's curve carries its parent's rounding noise; what it buys is that
 * the closed loop can then give every ancestor a coarser step.
 *
 * How.  shellpack's closed loop plans first (folds, lever-model level, rounds of coarsening).  Then
 * the lever model's level is searched again (levels 32 apart from level 0, then bisection; coarser
 * levels than 0 are left to the rounds) with a rotation's lever the longer of the shell distance and
 * the joint's child offsets, every animated rotation with a parent quantised, joints parents first,
 * against the decoded parent (no level meets the target: the plan is left as shellpack's); then
 * folds and rounds of coarsening as
 * shellpack's (leaves first, d = 32, 16, ..., 1 grid points, until a round changes nothing), where a
 * trial of a rotation quantises its whole subtree again at every frame the joint's decoded rotation
 * changes and checks every joint of it there (its first frames probed before every frame is quantised
 * and decoded: probe_step).  The sign of each target quaternion is chosen next to
 * the original's local rotation at that frame, so a curve stays continuous.  Keys (shellpack-comp)
 * and predictors follow as shellpack's, with the closed loop's own check, then the slack phase where
 * a row asks for it: the rows are the slack encoder's (shellpack_slack.c, `compensate`), which writes
 * the stream, decodes it with shellpack's decoder alone and measures it with the harness's metric.
 * Those later phases move a parent's values with the children's as they are (shellpack's check,
 * exact for what is decoded), so a child then no longer cancels its parent's last moves; a stream
 * that misses its target has every step refined and its rotations quantised against the refined
 * parents again (spe_compensated_requantise) before the slack is spent again.
 *
 * Its own file, with its own copies of the closed loop's forward kinematics and shell distance
 * (shellpack_loop.c's are static), so that every other shellpack row keeps its cache key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/quat.h"
#include "codecs/shellpack/shellpack_comp.h"
#include "codecs/shellpack/shellpack_costs.h"

typedef struct comp_loop {
    sp_encoder *e;
    double *ref;   /* [bone][frame][4]: the original local rotation, sign continuous from frame to frame */
    double *lever; /* [bone]: metres a vertex moves per radian of the joint's world rotation, compensated */
    int *failed_at; /* [bone]: the frame where the joint's last trial failed (within checks it first) */
} comp_loop;

static const double *ref_at(const comp_loop *L, int b, int f)
{
    return L->ref + ((size_t)b * L->e->n + f) * 4;
}

/* As shellpack_loop.c: a joint's world (7) from its parent's (NULL: a root), the parent's scale and its local pose. */
static void child_world(const double *parent_world, const double *parent_scale, const double *local, double *w)
{
    if (!parent_world) {
        memcpy(w, local, 7 * sizeof *w);
        return;
    }
    const double scaled[3] = {local[0] * parent_scale[0], local[1] * parent_scale[1], local[2] * parent_scale[2]};
    double off[3];
    quat_rotate(parent_world + 3, scaled, off);
    for (int i = 0; i < 3; i++)
        w[i] = parent_world[i] + off[i];
    quat_mul(parent_world + 3, local + 3, w + 3);
}

/* As shellpack_loop.c: the squared shell distance of joint b at frame f, world w and local scale. */
static double shell_error2(const sp_encoder *e, int f, int b, const double *w, const double *scale)
{
    const double *ov = e->vtx + ((size_t)f * e->nb + b) * 9;
    const double x = w[3], y = w[4], z = w[5], s = w[6];
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

static void gather_err(sp_encoder *e, int f, int b)
{
    double m = *err_at(e, f, b);
    for (int i = 0; i < e->child_len[b]; i++) {
        const double c = *err_sub_at(e, f, e->children[e->child_start[b] + i]);
        m = c > m ? c : m;
    }
    *err_sub_at(e, f, b) = m;
}

/* The log map of q, as shellpack_loop.c turns the original rotations into values. */
static void log_map(const double q[4], double v[3])
{
    const double s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    const double k = s > 1e-300 ? 2 * atan2(s, q[3]) / s : 2 / q[3];
    for (int i = 0; i < 3; i++)
        v[i] = q[i] * k;
}

/* Joint d's rotation at frame f quantised against its parent's decoded world rotation pw: the target
 * value (v), its integers (k) and the rotation they decode to (q, as shellpack's decoder has it).
 * False when a value is too large for 31-bit integers. */
static bool target_rotation(const comp_loop *L, int d, int f, const double pw[4], double v[3], int32_t k[3],
                            double q[4])
{
    const sp_encoder *e = L->e;
    const double *wo = pose_set_rot(e->orig, f, d), *r = ref_at(L, d, f);
    const double inv[4] = {-pw[0], -pw[1], -pw[2], pw[3]};
    double t[4];
    quat_mul(inv, wo, t);
    if (t[0] * r[0] + t[1] * r[1] + t[2] * r[2] + t[3] * r[3] < 0)
        for (int i = 0; i < 4; i++)
            t[i] = -t[i];
    log_map(t, v);
    const sp_track *tr = sp_track_at(&e->plan, d, SP_ROT);
    double back[3];
    for (int c = 0; c < 3; c++) {
        const double step = sp_step(tr->step_index[c]);
        const double x = nearbyint(v[c] / step);
        if (!(fabs(x) < 1073741824.0))
            return false;
        k[c] = (int32_t)x;
        back[c] = (double)k[c] * step; /* sp_track_values' value of a kept frame */
    }
    sp_to_rotation(&e->plan, back, q);
    return true;
}

static bool compensated(const sp_encoder *e, int d)
{
    return e->rig->parents[d] >= 0 && sp_track_at(&e->plan, d, SP_ROT)->mode == SP_ANIM;
}

/* Every joint's decoded state, rotations with a parent quantised against it (plan and values
 * updated); whether the clip meets the target. */
static bool rebuild_from(comp_loop *L, int first);
static bool rebuild(comp_loop *L)
{
    return rebuild_from(L, 0);
}

/* The same for joints `first` on (rig order: a joint's state depends only on joints before it),
 * those before it as they are; whether the joints rebuilt meet the target. */
static bool rebuild_from(comp_loop *L, int first)
{
    sp_encoder *e = L->e;
    bool ok = true;
    for (int b = first; b < e->nb; b++) {
        const int p = e->rig->parents[b];
        if (compensated(e, b))
            for (int f = 0; f < e->n; f++) {
                double v[3], q[4];
                int32_t k[3] = {0, 0, 0};
                ok &= target_rotation(L, b, f, world_at(e, f, p) + 3, v, k, q);
                for (int c = 0; c < 3; c++) {
                    val_at(e, b, SP_ROT, c)[f] = v[c];
                    sp_curve(&e->plan, b, SP_ROT, c)[f] = k[c];
                }
            }
        sp_decode_local(&e->plan, e->rig, b, 0, e->n - 1, e->cand);
        for (int f = 0; f < e->n; f++) {
            double *l = loc_at(e, f, b);
            memcpy(l, e->cand + (size_t)f * POSE_STRIDE, POSE_STRIDE * sizeof *l);
            child_world(p < 0 ? NULL : world_at(e, f, p), p < 0 ? NULL : loc_at(e, f, p) + 7, l, world_at(e, f, b));
            const double e2 = shell_error2(e, f, b, world_at(e, f, b), l + 7);
            *err_at(e, f, b) = sqrt(e2);
            ok &= e2 <= e->target2;
        }
    }
    for (int f = 0; f < e->n; f++)
        for (int b = e->nb - 1; b >= 0; b--)
            gather_err(e, f, b);
    return ok;
}

#define WORST_FIRST 16 /* frames a trial checks first */

/* Whether joint j's candidate local poses at frame f keep its subtree within the target there, every
 * compensated joint below it quantised again against it. */
static bool within_at(comp_loop *L, int j, int f, const double *lj)
{
    sp_encoder *e = L->e;
    const int p = e->rig->parents[j];
    double *wj = e->tmp + (size_t)j * 7;
    child_world(p < 0 ? NULL : world_at(e, f, p), p < 0 ? NULL : loc_at(e, f, p) + 7, lj, wj);
    if (!(shell_error2(e, f, j, wj, lj + 7) <= e->target2))
        return false;
    for (int i = 1; i < e->sub_len[j]; i++) {
        const int d = e->sub[e->sub_start[j] + i], pd = e->rig->parents[d];
        double ld[POSE_STRIDE];
        memcpy(ld, loc_at(e, f, d), sizeof ld);
        if (compensated(e, d)) {
            double v[3];
            int32_t k[3];
            if (!target_rotation(L, d, f, e->tmp + (size_t)pd * 7 + 3, v, k, ld + 3))
                return false;
        }
        const double *pscale = pd == j ? lj + 7 : loc_at(e, f, pd) + 7;
        double *wd = e->tmp + (size_t)d * 7;
        child_world(e->tmp + (size_t)pd * 7, pscale, ld, wd);
        if (!(shell_error2(e, f, d, wd, ld + 7) <= e->target2))
            return false;
    }
    return true;
}

/* The frames within() checks first: the WORST_FIRST where joint j's subtree is nearest the target, then
 * where its last trial failed. */
static int first_frames(const comp_loop *L, int j, int first[WORST_FIRST + 1])
{
    double worst[WORST_FIRST];
    int count = spe_worst_frames(L->e, j, first, worst, WORST_FIRST);
    first[count++] = L->failed_at[j];
    return count;
}

/* Whether joint j's candidate local poses (every frame; only the rotation differs) keep its subtree
 * within the target, every compensated joint below it quantised again at each frame j changes.  A
 * trial that fails mostly fails where the subtree is nearest its target now, or where the joint's
 * last trial failed, so those frames are checked first (the answer does not depend on the order:
 * 2.5 times fewer frames checked on cmu_01_01 at 0.1 mm for shellpack-comp-exchange). */
static bool within(comp_loop *L, int j, const double *cand)
{
    sp_encoder *e = L->e;
    int first[WORST_FIRST + 1];
    const int count = first_frames(L, j, first);
    for (int i = -count; i < e->n; i++) {
        const int f = i < 0 ? first[count + i] : i;
        bool checked = false;
        for (int q = 0; i >= 0 && q < count; q++)
            checked |= first[q] == f;
        const double *lj = cand + (size_t)f * POSE_STRIDE;
        if (checked || memcmp(lj, loc_at(e, f, j), POSE_STRIDE * sizeof *lj) == 0)
            continue; /* nothing below it changes either: each joint is quantised against its decoded parent */
        if (!within_at(L, j, f, lj)) {
            L->failed_at[j] = f;
            return false;
        }
    }
    return true;
}

/* Makes the candidate joint j's decoded state, its compensated subtree quantised again (within's terms). */
static void commit(comp_loop *L, int j, const double *cand)
{
    sp_encoder *e = L->e;
    const int p = e->rig->parents[j];
    for (int f = 0; f < e->n; f++) {
        const double *lj = cand + (size_t)f * POSE_STRIDE;
        if (memcmp(lj, loc_at(e, f, j), POSE_STRIDE * sizeof *lj) == 0)
            continue;
        memcpy(loc_at(e, f, j), lj, POSE_STRIDE * sizeof *lj);
        for (int i = 0; i < e->sub_len[j]; i++) {
            const int d = e->sub[e->sub_start[j] + i], pd = d == j ? p : e->rig->parents[d];
            double *ld = loc_at(e, f, d);
            if (d != j && compensated(e, d)) {
                double v[3];
                int32_t k[3] = {0, 0, 0}; /* within() made this call first and it succeeded */
                target_rotation(L, d, f, world_at(e, f, pd) + 3, v, k, ld + 3);
                for (int c = 0; c < 3; c++) {
                    val_at(e, d, SP_ROT, c)[f] = v[c];
                    sp_curve(&e->plan, d, SP_ROT, c)[f] = k[c];
                }
            }
            child_world(pd < 0 ? NULL : world_at(e, f, pd), pd < 0 ? NULL : loc_at(e, f, pd) + 7, ld, world_at(e, f, d));
            *err_at(e, f, d) = sqrt(shell_error2(e, f, d, world_at(e, f, d), ld + 7));
        }
        for (int i = e->sub_len[j] - 1; i >= 0; i--)
            gather_err(e, f, e->sub[e->sub_start[j] + i]);
        for (int a = p; a >= 0; a = e->rig->parents[a])
            gather_err(e, f, a);
    }
}

/* Tries a change of joint b's sub-track `type` already made in the plan: kept when the subtree stays
 * within.  A translation or scale does not turn anything, so nothing below is quantised again and
 * shellpack's own check applies. */
static bool try_change(comp_loop *L, int b, int type)
{
    sp_encoder *e = L->e;
    for (int f = 0; f < e->n; f++)
        memcpy(e->cand + (size_t)f * POSE_STRIDE, loc_at(e, f, b), POSE_STRIDE * sizeof(double));
    sp_decode_track(&e->plan, e->rig, b, type, 0, e->n - 1, e->cand);
    if (type != SP_ROT) {
        if (!spe_within(e, b, 0, e->n - 1, e->cand))
            return false;
        spe_commit(e, b, 0, e->n - 1, e->cand);
        return true;
    }
    if (!within(L, b, e->cand))
        return false;
    commit(L, b, e->cand);
    return true;
}

static bool try_fold(comp_loop *L, int b, int type, int mode)
{
    sp_track *t = sp_track_at(&L->e->plan, b, type);
    const sp_track saved = *t;
    t->mode = (uint8_t)mode;
    if (mode == SP_CONST)
        spe_midrange(L->e, b, type, t->constant);
    if (try_change(L, b, type))
        return true;
    *t = saved;
    return false;
}

/* try_step's answer where it can be had from within's first frames alone: false when the trial fails
 * there (failed_at set as within would set it), true when the whole trial must say.  A rotation's frames
 * are within's, checked in its order with its checks, so a trial fails at the frame it would; a
 * translation's or scale's are spe_within's (spe_probe_step). */
static bool probe_step(comp_loop *L, int b, int type, int c, int index)
{
    sp_encoder *e = L->e;
    if (type != SP_ROT)
        return spe_probe_step(e, b, type, 1u << c, index);
    if (memchr(sp_kept(&e->plan, b), 0, (size_t)e->n)) /* keys: a frame's value is its neighbours' too */
        return true;
    int first[WORST_FIRST + 1];
    const int count = first_frames(L, b, first);
    double lj[POSE_STRIDE];
    for (int i = 0; i < count; i++) {
        const int f = first[i];
        if (!spe_candidate_at(e, b, type, 1u << c, index, f, lj))
            return false; /* spe_quantise_comp would fail, before within */
        if (memcmp(lj, loc_at(e, f, b), sizeof lj) == 0 || within_at(L, b, f, lj))
            continue;
        /* the whole trial fails at f, unless a value elsewhere is too large for the step first */
        const double step = sp_step(index), *v = val_at(e, b, type, c);
        bool fits = true;
        for (int g = 0; g < e->n; g++)
            fits &= fabs(nearbyint(v[g] / step)) < 1073741824.0;
        if (fits)
            L->failed_at[b] = f;
        return false;
    }
    return true;
}

static bool try_step(comp_loop *L, int b, int type, int c, int index)
{
    sp_encoder *e = L->e;
    sp_track *t = sp_track_at(&e->plan, b, type);
    if (index < 0 || !probe_step(L, b, type, c, index))
        return false;
    const uint16_t saved = t->step_index[c];
    t->step_index[c] = (uint16_t)index;
    if (spe_quantise_comp(e, b, type, c) && try_change(L, b, type))
        return true;
    t->step_index[c] = saved;
    spe_quantise_comp(e, b, type, c);
    return false;
}

/* shellpack's folds and rounds (shellpack_steps.c), each trial in compensated terms. */
static void coarsen(comp_loop *L)
{
    sp_encoder *e = L->e;
    for (int b = e->nb - 1; b >= 0; b--)
        for (int type = 0; type < SP_TYPES; type++)
            if (sp_track_at(&e->plan, b, type)->mode == SP_ANIM && !try_fold(L, b, type, SP_REST))
                try_fold(L, b, type, SP_CONST);
    for (int d = 32; d >= 1; d /= 2) {
        bool moved = true;
        while (moved) {
            moved = false;
            for (int b = e->nb - 1; b >= 0; b--)
                for (int type = 0; type < SP_TYPES; type++) {
                    const sp_track *t = sp_track_at(&e->plan, b, type);
                    if (t->mode != SP_ANIM)
                        continue;
                    for (int c = 0; c < sp_comps(&e->plan, type); c++)
                        moved |= try_step(L, b, type, c, t->step_index[c] - d);
                }
        }
    }
}

static bool quantise_all(sp_encoder *e)
{
    bool ok = true;
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++)
            if (sp_track_at(&e->plan, b, type)->mode == SP_ANIM)
                ok &= spe_quantise(e, b, type);
    return ok;
}

/* The lever model's steps (shellpack_steps.c) at level g, error target * 2^(-g/16), a rotation's
 * through its compensated lever, every sub-track quantised (compensated) and decoded; whether the
 * clip meets the target. */
static bool set_level(comp_loop *L, int g)
{
    sp_encoder *e = L->e;
    const double error = e->target * exp2(-g / 16.0);
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(&e->plan, b, type);
            if (t->mode != SP_ANIM)
                continue;
            const double lever = type == SP_ROT ? L->lever[b] : e->lever[b * SP_TYPES + type];
            const double idx = ceil(-16 * log2(error / (lever * (sqrt(3.0) / 2))));
            for (int c = 0; c < SP_MAX_COMPS; c++)
                t->step_index[c] = (uint16_t)(idx < 0 ? 0 : idx > SP_STEP_INDEX_MAX ? SP_STEP_INDEX_MAX : idx);
        }
    return quantise_all(e) && rebuild(L);
}

/* The sign references and compensated levers of e's clip; false when out of memory (freed). */
static bool comp_loop_init(comp_loop *L, sp_encoder *e)
{
    *L = (comp_loop){e, malloc((size_t)e->nb * (size_t)e->n * 4 * sizeof(double)), malloc((size_t)e->nb * sizeof(double)),
                     calloc((size_t)e->nb, sizeof(int))};
    if (!L->ref || !L->lever || !L->failed_at) {
        free(L->ref);
        free(L->lever);
        free(L->failed_at);
        return false;
    }
    for (int b = 0; b < e->nb; b++) { /* the sign continuity of shellpack_loop.c's original rotations */
        const double *rot = clip_rot_track(e->clip, b);
        double prev[4] = {0, 0, 0, 1};
        for (int f = 0; f < e->n; f++) {
            double *q = L->ref + ((size_t)b * e->n + f) * 4;
            const double len = sqrt(rot[f * 4] * rot[f * 4] + rot[f * 4 + 1] * rot[f * 4 + 1] +
                                    rot[f * 4 + 2] * rot[f * 4 + 2] + rot[f * 4 + 3] * rot[f * 4 + 3]);
            for (int i = 0; i < 4; i++)
                q[i] = len > 0 ? rot[f * 4 + i] / len : i == 3;
            if (q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0)
                for (int i = 0; i < 4; i++)
                    q[i] = -q[i];
            memcpy(prev, q, sizeof prev);
        }
    }
    /* A joint's world rotation error now moves its own shell vertices and its children (and with them,
     * unturned, their subtrees): the lever is the longer of the shell distance and its child offsets,
     * through its scale, not the farthest vertex below it.  Starting the level search there instead of
     * at shellpack's levers gave 2 % to 8 % fewer bytes on six Bandai clips at 0.1 and 1 mm (the rounds
     * that follow are greedy, so the start matters); halfway between the two (geometrically), or 1.25
     * and 1.5 times as far past it, were larger. */
    for (int b = 0; b < e->nb; b++) {
        double lever = e->shell;
        for (int f = 0; f < e->n; f++) {
            const double *sb = pose_set_scale(e->orig, f, b);
            const double smax = fmax(fabs(sb[0]), fmax(fabs(sb[1]), fabs(sb[2])));
            lever = fmax(lever, e->shell * smax);
            for (int i = 0; i < e->child_len[b]; i++) {
                const int d = e->children[e->child_start[b] + i];
                const double l = hypot(hypot(clip_pos_channel(e->clip, d, 0)[f], clip_pos_channel(e->clip, d, 1)[f]),
                                       clip_pos_channel(e->clip, d, 2)[f]);
                lever = fmax(lever, l * smax);
            }
        }
        L->lever[b] = lever;
    }
    return true;
}

static void comp_loop_free(comp_loop *L)
{
    free(L->ref);
    free(L->lever);
    free(L->failed_at);
}

int spe_compensated_requantise(sp_encoder *e, char *err, size_t err_size)
{
    if (e->plan.rot_comps != 3)
        return 0;
    comp_loop L;
    if (!comp_loop_init(&L, e)) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    /* keys chosen for the old values do not hold for the new ones (a left-out frame of a child is
     * interpolated from values that compensate other parents): every frame is kept again */
    memset(e->plan.kept, 1, (size_t)e->nb * (size_t)e->n);
    rebuild(&L);
    comp_loop_free(&L);
    return 0;
}

int spe_compensate(sp_encoder *e, char *err, size_t err_size)
{
    if (e->plan.rot_comps != 3)
        return 0;
    const size_t tracks = (size_t)e->nb * SP_TYPES;
    comp_loop L;
    sp_track *saved = malloc(tracks * sizeof *saved);
    if (!saved || !comp_loop_init(&L, e)) {
        free(saved);
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    memcpy(saved, e->plan.tracks, tracks * sizeof *saved);
    /* the coarsest level of the lever model whose compensated plan meets the target, as shellpack's
     * search: levels 32 apart from level 0 (coarser ones are left to the rounds), then bisection */
    int lo = -1, hi = 0;
    bool ok = false;
    for (; hi <= 640 && !(ok = set_level(&L, hi)); hi += 32)
        lo = hi;
    while (ok && hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        if (set_level(&L, mid))
            hi = mid;
        else
            lo = mid;
    }
    ok = ok && set_level(&L, hi);
    if (ok)
        coarsen(&L);
    else { /* shellpack's plan as it was, from the original values */
        memcpy(e->plan.tracks, saved, tracks * sizeof *saved);
        for (int b = 0; b < e->nb; b++)
            for (int f = 0; f < e->n; f++) {
                double v[3];
                log_map(ref_at(&L, b, f), v);
                for (int c = 0; c < 3; c++)
                    val_at(e, b, SP_ROT, c)[f] = v[c];
            }
        quantise_all(e);
        spe_rebuild(e);
    }
    comp_loop_free(&L);
    free(saved);
    return 0;
}

/* ---- the step exchange in compensated terms (issue 23) ----
 *
 * shellpack_exchange.c's search, with every trial a compensated one (try_step: a rotation's subtree
 * quantised again against it), so that a finer step on one joint lets its ancestors and its subtree
 * coarsen as the compensated loop measures them.  A trial's changes reach every compensated joint
 * below a changed rotation, so an exchange is put back from a copy of the plan's steps and integers
 * (48 bytes a joint-sample), the decoded state then rebuilt from them: before the slack phase every
 * compensated integer is its target against its decoded parent, so the rebuild gives the state back
 * bit for bit (tests/test_shellpack_comp.c checks it). */
typedef struct comp_state {
    sp_track *tracks;
    int32_t *q;
} comp_state;

static size_t state_values(const sp_encoder *e)
{
    return (size_t)e->nb * SP_TYPES * SP_MAX_COMPS * (size_t)e->n;
}

static bool comp_state_alloc(comp_state *s, const sp_encoder *e)
{
    *s = (comp_state){malloc((size_t)e->nb * SP_TYPES * sizeof(sp_track)), malloc(state_values(e) * sizeof(int32_t))};
    return s->tracks && s->q;
}

static void comp_state_free(comp_state *s)
{
    free(s->tracks);
    free(s->q);
}

static void comp_state_save(const sp_encoder *e, comp_state *to)
{
    memcpy(to->tracks, e->plan.tracks, (size_t)e->nb * SP_TYPES * sizeof(sp_track));
    memcpy(to->q, e->plan.q, state_values(e) * sizeof(int32_t));
}

/* The saved steps and integers back into the plan; the first joint (rig order) whose differed. */
static int comp_state_put_back(sp_encoder *e, const comp_state *from)
{
    const size_t per_joint = (size_t)SP_TYPES * SP_MAX_COMPS * (size_t)e->n;
    int first = e->nb;
    for (int b = 0; b < e->nb && first == e->nb; b++)
        if (memcmp(e->plan.tracks + (size_t)b * SP_TYPES, from->tracks + (size_t)b * SP_TYPES,
                   SP_TYPES * sizeof(sp_track)) != 0 ||
            memcmp(e->plan.q + (size_t)b * per_joint, from->q + (size_t)b * per_joint, per_joint * sizeof(int32_t)) != 0)
            first = b;
    memcpy(e->plan.tracks, from->tracks, (size_t)e->nb * SP_TYPES * sizeof(sp_track));
    memcpy(e->plan.q, from->q, state_values(e) * sizeof(int32_t));
    return first;
}

/* Estimated bits of every curve that differs between the saved state and now: before and now. */
static void comp_changed_costs(const sp_encoder *e, const comp_state *s, const sp_residual_costs *costs,
                               uint64_t *before, uint64_t *now)
{
    *before = *now = 0;
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            const sp_track *t = sp_track_at(&e->plan, b, type);
            if (t->mode != SP_ANIM)
                continue;
            for (int c = 0; c < sp_comps(&e->plan, type); c++) {
                const int32_t *k = sp_curve(&e->plan, b, type, c), *old = s->q + (k - e->plan.q);
                if (memcmp(k, old, (size_t)e->n * sizeof *k) == 0)
                    continue;
                *before += sp_curve_estimate(e, &costs[type], b, type, c, old);
                *now += sp_curve_estimate(e, &costs[type], b, type, c, k);
            }
        }
}

int spe_compensated_exchange(sp_encoder *e, int largest, char *err, size_t err_size)
{
    if (largest <= 0 || e->plan.rot_comps != 3)
        return 0;
    comp_loop L;
    comp_state saved;
    sp_residual_costs *costs = malloc(SP_TYPES * sizeof *costs);
    uint8_t *related = malloc((size_t)e->nb);
    const bool have_state = comp_state_alloc(&saved, e);
    if (!costs || !related || !have_state || !comp_loop_init(&L, e)) {
        free(costs);
        free(related);
        comp_state_free(&saved);
        snprintf(err, err_size, "out of memory (the compensated step exchange's copy of the plan)");
        return -1;
    }
    /* A plan spe_compensate left as shellpack's (no compensated level met the target) is not
     * compensated, and quantised against its parents at its steps it may miss: then no exchange, and
     * the plan as it came (its values the original rotations again, as that fallback has them). */
    comp_state_save(e, &saved);
    if (!rebuild(&L)) {
        comp_state_put_back(e, &saved);
        for (int b = 0; b < e->nb; b++)
            for (int f = 0; f < e->n; f++) {
                double v[3];
                log_map(ref_at(&L, b, f), v);
                for (int c = 0; c < 3; c++)
                    val_at(e, b, SP_ROT, c)[f] = v[c];
            }
        spe_rebuild(e);
        largest = 0;
    } else
        spe_choose_predictors(e);
    for (int type = 0; type < SP_TYPES && largest > 0; type++)
        if (sp_type_animated(&e->plan, type))
            sp_tabulate_costs(e, type, &costs[type]);
    for (int d = largest; d >= 1 && d >= largest / 8; d /= 2)
        for (int b = 0; b < e->nb; b++)
            for (int type = 0; type < SP_TYPES; type++) {
                if (sp_track_at(&e->plan, b, type)->mode != SP_ANIM)
                    continue;
                for (int c = 0; c < sp_comps(&e->plan, type); c++) {
                    const int finer = sp_track_at(&e->plan, b, type)->step_index[c] + d;
                    if (finer > SP_STEP_INDEX_MAX)
                        continue;
                    comp_state_save(e, &saved);
                    if (!try_step(&L, b, type, c, finer))
                        continue;
                    memset(related, 0, (size_t)e->nb);
                    for (int j = b; j >= 0; j = e->rig->parents[j])
                        related[j] = 1;
                    for (int i = 0; i < e->sub_len[b]; i++)
                        related[e->sub[e->sub_start[b] + i]] = 1;
                    for (int dd = d; dd >= 1; dd /= 2) {
                        bool moved = true;
                        while (moved) {
                            moved = false;
                            for (int j = e->nb - 1; j >= 0; j--) {
                                if (!related[j])
                                    continue;
                                for (int ty = 0; ty < SP_TYPES; ty++) {
                                    const sp_track *t = sp_track_at(&e->plan, j, ty);
                                    if (t->mode != SP_ANIM)
                                        continue;
                                    for (int cc = 0; cc < sp_comps(&e->plan, ty); cc++)
                                        if (!(j == b && ty == type && cc == c))
                                            moved |= try_step(&L, j, ty, cc, t->step_index[cc] - dd);
                                }
                            }
                        }
                    }
                    uint64_t before, now;
                    comp_changed_costs(e, &saved, costs, &before, &now);
                    if (now >= before)
                        rebuild_from(&L, comp_state_put_back(e, &saved));
                }
            }
    comp_loop_free(&L);
    comp_state_free(&saved);
    free(costs);
    free(related);
    return 0;
}
