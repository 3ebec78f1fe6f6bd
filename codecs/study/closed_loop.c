#include "codecs/study/closed_loop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/fk.h"
#include "core/quat.h"

/* One animated track: a scalar channel or a rotation, its values as the
 * stream will hold them (float32), and its keys. */
typedef struct cl_track {
    int bone, slot, width; /* slot in a 10-double pose; width 1, or 4 for a rotation */
    bool constant;
    double *values; /* n * width */
    int *keys, count;
} cl_track;

struct closed_loop {
    const channel_view *view;
    const anim_rig *rig;
    int n, joints, substeps, samples; /* samples = (n - 1) * substeps + 1 */
    bool cubic;
    int track_count; /* scalar channels, then rotations (the plan's track order) */
    cl_track *tracks;
    int *joint_tracks, *joint_track_count; /* per joint: up to 7 track indices */
    int *subtree, *subtree_at, *subtree_count; /* per joint: its descendants, parents first */
    double *ref_pos;  /* [sample][joint][3]: the input's interpolation */
    double *floor2;   /* [sample][joint]: squared error with every frame a key */
    double *local;    /* [sample][joint][10]: the decoded state */
    double *wpos, *wrot; /* [sample][joint][3 / 4] */
    double *cand;     /* samples * 4: a track's trial values over a window */
    double *tpos, *trot; /* joints * 3 / 4: one sample's trial world transforms */
    int *kept;        /* n: keys kept while a track is reduced */
    int *key_store;   /* the answer: every track's keys */
    size_t *offset;
    int *counts;
};

static inline double *local_at(const closed_loop *cl, int s, int j)
{
    return cl->local + ((size_t)s * cl->joints + j) * 10;
}

static inline double sample_time(const closed_loop *cl, int s)
{
    return (double)s / cl->substeps;
}

void closed_loop_free(closed_loop *cl)
{
    if (!cl)
        return;
    for (int i = 0; cl->tracks && i < cl->track_count; i++) {
        free(cl->tracks[i].values);
        free(cl->tracks[i].keys);
    }
    free(cl->tracks);
    free(cl->joint_tracks);
    free(cl->joint_track_count);
    free(cl->subtree);
    free(cl->subtree_at);
    free(cl->subtree_count);
    free(cl->ref_pos);
    free(cl->floor2);
    free(cl->local);
    free(cl->wpos);
    free(cl->wrot);
    free(cl->cand);
    free(cl->tpos);
    free(cl->trot);
    free(cl->kept);
    free(cl->key_store);
    free(cl->offset);
    free(cl->counts);
    free(cl);
}

/* Catmull-Rom tangent at key k of keys[0..count-1], core/curve.h's. */
static inline double key_slope(const double *v, int w, int c, const int *keys, int count, int k)
{
    if (k == 0)
        return (v[(size_t)keys[1] * w + c] - v[(size_t)keys[0] * w + c]) / (keys[1] - keys[0]);
    if (k == count - 1)
        return (v[(size_t)keys[k] * w + c] - v[(size_t)keys[k - 1] * w + c]) / (keys[k] - keys[k - 1]);
    return (v[(size_t)keys[k + 1] * w + c] - v[(size_t)keys[k - 1] * w + c]) / (keys[k + 1] - keys[k - 1]);
}

/* The track's value at time t in segment seg of keys, with the decoder's
 * arithmetic (codecs/study/track_sampler.c); a rotation is renormalised. */
static void segment_value(const cl_track *tr, bool cubic, const int *keys, int count, int seg, double t,
                          double *out)
{
    const int w = tr->width, f0 = keys[seg], f1 = keys[seg + 1];
    const double h = f1 - f0, u = (t - f0) * (1.0 / h);
    const double *a = tr->values + (size_t)f0 * w, *b = tr->values + (size_t)f1 * w;
    for (int c = 0; c < w; c++) {
        if (!cubic) {
            out[c] = a[c] + (b[c] - a[c]) * u;
        } else {
            const double m0 = key_slope(tr->values, w, c, keys, count, seg) * h;
            const double m1 = key_slope(tr->values, w, c, keys, count, seg + 1) * h;
            const double u2 = u * u, u3 = u2 * u;
            out[c] = (2 * u3 - 3 * u2 + 1) * a[c] + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * b[c] + (u3 - u2) * m1;
        }
    }
    if (w == 4) {
        const double inv = 1 / sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int c = 0; c < 4; c++)
            out[c] *= inv;
    }
}

/* Writes the track's values at samples s0..s1 (frames keys[first] * S to
 * keys[last] * S) into out (width per sample). */
static void evaluate(const closed_loop *cl, const cl_track *tr, const int *keys, int count, int s0, int s1,
                     double *out)
{
    int seg = 0;
    for (int s = s0; s <= s1; s++) {
        const double t = sample_time(cl, s);
        while (seg < count - 2 && t >= keys[seg + 1])
            seg++;
        segment_value(tr, cl->cubic, keys, count, seg, t, out + (size_t)(s - s0) * tr->width);
    }
}

/* The track's current curve into the decoded state, at every sample. */
static void store_track(closed_loop *cl, const cl_track *tr)
{
    if (tr->constant) {
        double v[4];
        memcpy(v, tr->values, (size_t)tr->width * sizeof *v);
        if (tr->width == 4)
            quat_normalize(tr->values, v);
        for (int s = 0; s < cl->samples; s++)
            memcpy(local_at(cl, s, tr->bone) + tr->slot, v, (size_t)tr->width * sizeof *v);
        return;
    }
    evaluate(cl, tr, tr->keys, tr->count, 0, cl->samples - 1, cl->cand);
    for (int s = 0; s < cl->samples; s++)
        memcpy(local_at(cl, s, tr->bone) + tr->slot, cl->cand + (size_t)s * tr->width,
               (size_t)tr->width * sizeof *cl->cand);
}

/* World transforms of joint j and its subtree at every sample, from the state. */
static void update_world(closed_loop *cl, int j)
{
    const int J = cl->joints;
    for (int s = 0; s < cl->samples; s++)
        for (int i = -1; i < cl->subtree_count[j]; i++) {
            const int b = i < 0 ? j : cl->subtree[cl->subtree_at[j] + i], p = cl->rig->parents[b];
            const double *l = local_at(cl, s, b);
            double *wp = cl->wpos + ((size_t)s * J + b) * 3, *wq = cl->wrot + ((size_t)s * J + b) * 4;
            if (p < 0) {
                memcpy(wp, l, 3 * sizeof *wp);
                memcpy(wq, l + 3, 4 * sizeof *wq);
                continue;
            }
            const double *ps = local_at(cl, s, p) + 7, *pp = cl->wpos + ((size_t)s * J + p) * 3;
            const double *pq = cl->wrot + ((size_t)s * J + p) * 4;
            const double scaled[3] = {l[0] * ps[0], l[1] * ps[1], l[2] * ps[2]};
            double off[3];
            quat_rotate(pq, scaled, off);
            for (int a = 0; a < 3; a++)
                wp[a] = pp[a] + off[a];
            quat_mul(pq, l + 3, wq);
        }
}

static inline double dist2(const double *a, const double *b)
{
    const double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return x * x + y * y + z * z;
}

/* Whether joint j and its subtree stay within the allowance at samples
 * s0..s1 with the track's values there replaced by cand. */
static bool window_ok(closed_loop *cl, const cl_track *tr, int s0, int s1, double target2)
{
    const int J = cl->joints, j = tr->bone, p = cl->rig->parents[j];
    const int *sub = cl->subtree + cl->subtree_at[j], sub_count = cl->subtree_count[j];
    double *tp = cl->tpos, *tq = cl->trot;
    for (int s = s0; s <= s1; s++) {
        double l[10];
        memcpy(l, local_at(cl, s, j), sizeof l);
        memcpy(l + tr->slot, cl->cand + (size_t)(s - s0) * tr->width, (size_t)tr->width * sizeof *l);
        const double *ref = cl->ref_pos + (size_t)s * J * 3, *fl = cl->floor2 + (size_t)s * J;
        if (p < 0) {
            memcpy(tp + j * 3, l, 3 * sizeof *tp);
            memcpy(tq + j * 4, l + 3, 4 * sizeof *tq);
        } else {
            const double *ps = local_at(cl, s, p) + 7, *pp = cl->wpos + ((size_t)s * J + p) * 3;
            const double *pq = cl->wrot + ((size_t)s * J + p) * 4;
            const double scaled[3] = {l[0] * ps[0], l[1] * ps[1], l[2] * ps[2]};
            double off[3];
            quat_rotate(pq, scaled, off);
            for (int a = 0; a < 3; a++)
                tp[j * 3 + a] = pp[a] + off[a];
            quat_mul(pq, l + 3, tq + j * 4);
        }
        const double e = dist2(tp + j * 3, ref + j * 3);
        if (!(e <= target2 || e <= fl[j])) /* NaN fails */
            return false;
        for (int i = 0; i < sub_count; i++) {
            const int b = sub[i], q = cl->rig->parents[b];
            const double *lb = local_at(cl, s, b), *qs = q == j ? l + 7 : local_at(cl, s, q) + 7;
            const double scaled[3] = {lb[0] * qs[0], lb[1] * qs[1], lb[2] * qs[2]};
            double off[3];
            quat_rotate(tq + q * 4, scaled, off);
            for (int a = 0; a < 3; a++)
                tp[b * 3 + a] = tp[q * 3 + a] + off[a];
            quat_mul(tq + q * 4, lb + 3, tq + b * 4);
            const double eb = dist2(tp + b * 3, ref + b * 3);
            if (!(eb <= target2 || eb <= fl[b]))
                return false;
        }
    }
    return true;
}

/* Whether the track may go from the kept keys (kept[0..nk-1]) straight to
 * keys[next], dropping the pending keys before it.  The new curve is built
 * from a window of keys wide enough that every tangent it uses sees the
 * neighbours it has in the whole track: kept[nk-3..nk-1], keys[next],
 * keys[next+1], keys[next+2]. */
static bool removal_ok(closed_loop *cl, const cl_track *tr, const int *kept, int nk, int next, double target2)
{
    int win[6], count = 0, first_seg;
    if (!cl->cubic) {
        win[count++] = kept[nk - 1];
        win[count++] = tr->keys[next];
        first_seg = 0;
    } else {
        for (int i = nk - 3 < 0 ? 0 : nk - 3; i < nk; i++)
            win[count++] = kept[i];
        first_seg = count >= 2 ? count - 2 : 0; /* the segment ending at kept[nk - 1], when there is one */
        for (int i = next; i < tr->count && i <= next + 2; i++)
            win[count++] = tr->keys[i];
    }
    /* segments first_seg .. last_seg change: linear the one; cubic up to the one after keys[next] */
    const int new_seg = cl->cubic ? (nk - 3 < 0 ? nk : 3) - 1 : 0;
    const int last_seg = cl->cubic && next + 1 < tr->count ? new_seg + 1 : new_seg;
    const int s0 = win[first_seg] * cl->substeps, s1 = win[last_seg + 1] * cl->substeps;
    int seg = first_seg;
    for (int s = s0; s <= s1; s++) {
        const double t = sample_time(cl, s);
        while (seg < last_seg && t >= win[seg + 1])
            seg++;
        segment_value(tr, cl->cubic, win, count, seg, t, cl->cand + (size_t)(s - s0) * tr->width);
    }
    return window_ok(cl, tr, s0, s1, target2);
}

/* Removes keys of one track, left to right: from each kept key, the longest
 * run of following keys whose removal the check allows, found by doubling
 * its length and bisecting the last step (a run that fails does not stop a
 * shorter one from being tried). */
static void reduce_track(closed_loop *cl, cl_track *tr, double target2)
{
    int *kept = cl->kept, nk = 0;
    kept[nk++] = tr->keys[0];
    for (int idx = 1; idx < tr->count;) {
        /* m keys advanced: keys[idx + m - 1] is kept, the m - 1 before it dropped */
        const int most = tr->count - idx;
        int ok = 1, step = 2;
        while (step <= most && removal_ok(cl, tr, kept, nk, idx + step - 1, target2)) {
            ok = step;
            step *= 2;
        }
        int bad = step <= most ? step : most + 1;
        while (bad - ok > 1) {
            const int mid = ok + (bad - ok) / 2;
            if (removal_ok(cl, tr, kept, nk, idx + mid - 1, target2))
                ok = mid;
            else
                bad = mid;
        }
        kept[nk++] = tr->keys[idx + ok - 1];
        idx += ok;
    }
    memcpy(tr->keys, kept, (size_t)nk * sizeof *kept);
    tr->count = nk;
}

/* Every animated track keyed at every frame, and the state that gives. */
static void reset_state(closed_loop *cl)
{
    for (int i = 0; i < cl->track_count; i++) {
        cl_track *tr = &cl->tracks[i];
        if (!tr->constant)
            for (int f = 0; f < cl->n; f++)
                tr->keys[f] = f;
        tr->count = tr->constant ? 1 : cl->n;
        store_track(cl, tr);
    }
    for (int j = 0; j < cl->joints; j++)
        if (cl->rig->parents[j] < 0)
            update_world(cl, j);
}

closed_loop *closed_loop_create(const channel_view *view, int substeps, bool cubic, closed_loop_reference reference)
{
    closed_loop *cl = calloc(1, sizeof *cl);
    if (!cl)
        return NULL;
    const anim_clip *clip = view->clip;
    const int J = clip->rig->bone_count, n = view->frame_count;
    cl->view = view;
    cl->rig = clip->rig;
    cl->n = n;
    cl->joints = J;
    cl->substeps = substeps < 1 ? 1 : substeps;
    cl->samples = (n - 1) * cl->substeps + 1;
    cl->cubic = cubic;
    cl->track_count = view->scalar_count + view->rotation_count;
    const size_t S = (size_t)cl->samples;
    cl->tracks = calloc((size_t)cl->track_count, sizeof *cl->tracks);
    cl->joint_tracks = malloc((size_t)J * 7 * sizeof *cl->joint_tracks);
    cl->joint_track_count = calloc((size_t)J, sizeof *cl->joint_track_count);
    size_t descendants = 0; /* every joint counted once per ancestor */
    for (int b = 0; b < J; b++)
        for (int a = clip->rig->parents[b]; a >= 0; a = clip->rig->parents[a])
            descendants++;
    cl->subtree = malloc((descendants + 1) * sizeof *cl->subtree);
    cl->subtree_at = malloc((size_t)J * sizeof *cl->subtree_at);
    cl->subtree_count = calloc((size_t)J, sizeof *cl->subtree_count);
    cl->ref_pos = malloc(S * J * 3 * sizeof *cl->ref_pos);
    cl->floor2 = malloc(S * J * sizeof *cl->floor2);
    cl->local = malloc(S * J * 10 * sizeof *cl->local);
    cl->wpos = malloc(S * J * 3 * sizeof *cl->wpos);
    cl->wrot = malloc(S * J * 4 * sizeof *cl->wrot);
    cl->cand = malloc(S * 4 * sizeof *cl->cand);
    cl->tpos = malloc((size_t)J * 3 * sizeof *cl->tpos);
    cl->trot = malloc((size_t)J * 4 * sizeof *cl->trot);
    cl->kept = malloc((size_t)n * sizeof *cl->kept);
    cl->key_store = malloc((size_t)cl->track_count * (size_t)n * sizeof *cl->key_store);
    cl->offset = malloc((size_t)cl->track_count * sizeof *cl->offset);
    cl->counts = malloc((size_t)cl->track_count * sizeof *cl->counts);
    double *pose = malloc((size_t)J * 10 * sizeof *pose), *lp = malloc((size_t)J * 10 * sizeof *lp);
    if (!cl->tracks || !cl->joint_tracks || !cl->joint_track_count || !cl->subtree || !cl->subtree_at ||
        !cl->subtree_count || !cl->ref_pos || !cl->floor2 || !cl->local || !cl->wpos || !cl->wrot || !cl->cand ||
        !cl->tpos || !cl->trot || !cl->kept || !cl->key_store || !cl->offset || !cl->counts || !pose || !lp) {
        free(pose);
        free(lp);
        closed_loop_free(cl);
        return NULL;
    }
    /* descendants of each joint, parents first (bones are ordered so) */
    for (int j = 0, at = 0; j < J; j++) {
        cl->subtree_at[j] = at;
        for (int b = j + 1; b < J; b++) {
            int a = cl->rig->parents[b];
            while (a > j)
                a = cl->rig->parents[a];
            if (a == j)
                cl->subtree[at + cl->subtree_count[j]++] = b;
        }
        at += cl->subtree_count[j];
    }
    bool ok = true;
    for (int i = 0; i < cl->track_count && ok; i++) {
        cl_track *tr = &cl->tracks[i];
        const bool rotation = i >= view->scalar_count;
        const double *src;
        if (rotation) {
            const rotation_track *rt = &view->rotations[i - view->scalar_count];
            tr->bone = rt->bone;
            tr->slot = 3;
            tr->width = 4;
            tr->constant = rt->is_constant;
            src = rt->quats;
        } else {
            const scalar_channel *ch = &view->scalars[i];
            tr->bone = ch->bone;
            tr->slot = ch->kind == CHANNEL_POSITION ? ch->axis : 7 + ch->axis;
            tr->width = 1;
            tr->constant = ch->is_constant;
            src = ch->values;
        }
        cl->joint_tracks[tr->bone * 7 + cl->joint_track_count[tr->bone]++] = i;
        const size_t len = tr->constant ? (size_t)tr->width : (size_t)n * tr->width;
        tr->values = malloc(len * sizeof *tr->values);
        tr->keys = malloc((size_t)n * sizeof *tr->keys);
        ok = tr->values && tr->keys;
        for (size_t k = 0; ok && k < len; k++)
            tr->values[k] = (float)src[k]; /* what the stream holds */
    }
    if (ok) {
        for (int s = 0; s < cl->samples; s++) {
            clip_interpolate_pose(clip, sample_time(cl, s), pose);
            for (int b = 0; b < J; b++) {
                memcpy(lp + b * 3, pose + b * 10, 3 * sizeof *lp);
                memcpy(lp + J * 3 + b * 4, pose + b * 10 + 3, 4 * sizeof *lp);
                memcpy(lp + J * 7 + b * 3, pose + b * 10 + 7, 3 * sizeof *lp);
            }
            double *wq = cl->wrot + (size_t)s * J * 4; /* scratch until reset_state */
            fk_pose(cl->rig, lp, lp + J * 3, lp + J * 7, cl->ref_pos + (size_t)s * J * 3, wq);
        }
        reset_state(cl);
        if (reference == REFERENCE_OWN) /* between frames: the state with every frame a key */
            for (int s = 0; s < cl->samples; s++)
                if (s % cl->substeps != 0)
                    memcpy(cl->ref_pos + (size_t)s * J * 3, cl->wpos + (size_t)s * J * 3, (size_t)J * 3 * sizeof *cl->wpos);
        for (int s = 0; s < cl->samples; s++)
            for (int j = 0; j < J; j++)
                cl->floor2[(size_t)s * J + j] =
                    dist2(cl->wpos + ((size_t)s * J + j) * 3, cl->ref_pos + ((size_t)s * J + j) * 3);
    }
    free(pose);
    free(lp);
    if (!ok) {
        closed_loop_free(cl);
        return NULL;
    }
    return cl;
}

int closed_loop_select(closed_loop *cl, double target_m, preset_keys *out)
{
    static const double PASSES[] = {0.5, 0.75, 1.0};
    reset_state(cl);
    for (size_t p = 0; p < sizeof PASSES / sizeof *PASSES; p++) {
        const double t = target_m * PASSES[p], target2 = t * t;
        for (int j = 0; j < cl->joints; j++) {
            for (int k = 0; k < cl->joint_track_count[j]; k++) {
                cl_track *tr = &cl->tracks[cl->joint_tracks[j * 7 + k]];
                if (tr->constant || tr->count <= 2)
                    continue;
                reduce_track(cl, tr, target2);
                store_track(cl, tr);
            }
            update_world(cl, j);
        }
    }
    size_t at = 0;
    for (int i = 0; i < cl->track_count; i++) {
        const cl_track *tr = &cl->tracks[i];
        cl->offset[i] = at;
        cl->counts[i] = tr->constant ? 1 : tr->count;
        if (tr->constant)
            cl->key_store[at] = 0;
        else
            memcpy(cl->key_store + at, tr->keys, (size_t)tr->count * sizeof *tr->keys);
        at += (size_t)cl->counts[i];
    }
    *out = (preset_keys){cl->key_store, cl->offset, cl->counts};
    return 0;
}

double closed_loop_excess(const closed_loop *cl, const track_sampler *decoded, double target_m, double *worst_m,
                          int *joint, double *t)
{
    const int J = cl->joints;
    double *pose = malloc((size_t)J * 10 * sizeof *pose), *lp = malloc((size_t)J * 10 * sizeof *lp);
    double *wp = malloc((size_t)J * 3 * sizeof *wp), *wq = malloc((size_t)J * 4 * sizeof *wq);
    double excess = -INFINITY;
    *worst_m = 0;
    *joint = -1;
    *t = 0;
    if (!pose || !lp || !wp || !wq) {
        excess = INFINITY;
    } else {
        for (int s = 0; s < cl->samples; s++) {
            track_sampler_sample(decoded, sample_time(cl, s), pose);
            for (int b = 0; b < J; b++) {
                memcpy(lp + b * 3, pose + b * 10, 3 * sizeof *lp);
                memcpy(lp + J * 3 + b * 4, pose + b * 10 + 3, 4 * sizeof *lp);
                memcpy(lp + J * 7 + b * 3, pose + b * 10 + 7, 3 * sizeof *lp);
            }
            fk_pose(cl->rig, lp, lp + J * 3, lp + J * 7, wp, wq);
            for (int b = 0; b < J; b++) {
                const double e = sqrt(dist2(wp + b * 3, cl->ref_pos + ((size_t)s * J + b) * 3));
                const double floor = sqrt(cl->floor2[(size_t)s * J + b]);
                const double over = e - (floor > target_m ? floor * (1 + 1e-9) : target_m);
                if (!(over <= excess)) /* NaN is the largest excess */
                    excess = isnan(over) ? INFINITY : over;
                if (e > *worst_m) {
                    *worst_m = e;
                    *joint = b;
                    *t = sample_time(cl, s);
                }
            }
        }
    }
    free(pose);
    free(lp);
    free(wp);
    free(wq);
    return excess;
}
