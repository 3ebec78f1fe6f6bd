#include "generators/random_clip.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "core/pcg32.h"
#include "core/quat.h"

int random_clip_is_name(const char *name)
{
    return strcmp(name, "random") == 0 || strncmp(name, "random:", 7) == 0;
}

typedef struct key_range {
    const char *key;
    double lo, hi;
    int integer;
} key_range;

static const key_range KEYS[] = {
    {"bones", 1, LIMIT_JOINTS_MAX, 1}, {"frames", LIMIT_FRAMES_MIN, LIMIT_FRAMES_MAX, 1},
    {"rate", LIMIT_RATE_MIN_HZ, LIMIT_RATE_MAX_HZ, 0}, {"seed", 0, 4294967295.0, 1},
    {"branching", 1, 64, 1}, {"depth", 1, LIMIT_DEPTH_MAX, 1},
};

int random_clip_parse(const char *name, random_clip_params *out, char *err, size_t err_size)
{
    *out = (random_clip_params){30, 600, 60.0, 1, 3, 8};
    if (!random_clip_is_name(name)) {
        snprintf(err, err_size, "'%s' is not a random clip (random:bones=N,...)", name);
        return -1;
    }
    const char *p = name[6] == ':' ? name + 7 : name + 6;
    while (*p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        if (!eq || eq > end) {
            snprintf(err, err_size, "%s: expected key=value, found '%.*s'", name, (int)(end - p), p);
            return -1;
        }
        const key_range *k = NULL;
        for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0] && !k; i++)
            if (strlen(KEYS[i].key) == (size_t)(eq - p) && strncmp(KEYS[i].key, p, (size_t)(eq - p)) == 0)
                k = &KEYS[i];
        if (!k) {
            snprintf(err, err_size, "%s: unknown key '%.*s' (bones, frames, rate, seed, branching, depth)", name,
                     (int)(eq - p), p);
            return -1;
        }
        char text[64];
        snprintf(text, sizeof text, "%.*s", (int)(end - eq - 1), eq + 1);
        char *stop;
        errno = 0;
        const double v = strtod(text, &stop);
        const int decimal = text[0] && strspn(text, "0123456789+-.eE") == strlen(text);
        if (!decimal || *stop || errno == ERANGE || !(v >= k->lo && v <= k->hi) || (k->integer && v != floor(v))) {
            snprintf(err, err_size, "%s: %s=%s: expected %s from %.15g to %.15g", name, k->key, text,
                     k->integer ? "an integer" : "a number", k->lo, k->hi);
            return -1;
        }
        if (strcmp(k->key, "bones") == 0)
            out->bones = (int)v;
        else if (strcmp(k->key, "frames") == 0)
            out->frames = (int)v;
        else if (strcmp(k->key, "rate") == 0)
            out->rate = v;
        else if (strcmp(k->key, "seed") == 0)
            out->seed = (uint32_t)v;
        else if (strcmp(k->key, "branching") == 0)
            out->branching = (int)v;
        else
            out->depth = (int)v;
        p = *end ? end + 1 : end;
    }
    return 0;
}

static double uniform(pcg32 *rng, double lo, double hi)
{
    return lo + (hi - lo) * pcg32_unit(rng);
}

#define BUMPS 4 /* aperiodic drift: smooth bumps per axis */

/* One joint axis's motion: three sinusoids within the limit, a drift, snaps. */
typedef struct axis_motion {
    double amp[3], freq[3], phase[3];
    double bump_at[BUMPS], bump_width[BUMPS], bump_height[BUMPS];
    double snap_at, snap_size; /* snap_at < 0: none */
} axis_motion;

static double axis_angle(const axis_motion *m, double t, double limit_deg)
{
    double a = 0;
    for (int i = 0; i < 3; i++)
        a += m->amp[i] * sin(2 * ANIM_PI * m->freq[i] * t + m->phase[i]);
    for (int i = 0; i < BUMPS; i++) {
        const double u = (t - m->bump_at[i]) / m->bump_width[i];
        a += m->bump_height[i] * exp(-u * u);
    }
    if (m->snap_at >= 0 && t >= m->snap_at)
        a += m->snap_size * fmin(1.0, (t - m->snap_at) * 30); /* over about two frames at 60 Hz */
    return fmax(-limit_deg, fmin(limit_deg, a));
}

int random_clip_make(const random_clip_params *p, anim_rig **rig_out, anim_clip **clip_out, char *err,
                     size_t err_size)
{
    *rig_out = NULL;
    *clip_out = NULL;
    char why[300];
    if (clip_limits_check(p->frames, p->bones, p->rate, why, sizeof why) != 0) {
        snprintf(err, err_size, "random clip: %s", why);
        return -1;
    }
    pcg32 rng;
    pcg32_seed(&rng, p->seed, 0x616e696d62656e63ull); /* the stream: "animbenc" */
    anim_rig *rig = rig_create(p->bones);
    int *children = calloc((size_t)p->bones, sizeof *children), *level = calloc((size_t)p->bones, sizeof *level);
    axis_motion *motion = malloc((size_t)p->bones * 3 * sizeof *motion);
    double *limit = malloc((size_t)p->bones * 3 * sizeof *limit);
    int *room = malloc((size_t)p->bones * sizeof *room);
    anim_clip *clip = NULL;
    if (!rig || !children || !level || !motion || !limit || !room) {
        snprintf(err, err_size, "random clip: out of memory");
        goto fail;
    }
    /* the tree: each bone hangs from an earlier one that has room */
    for (int b = 0; b < p->bones; b++) {
        snprintf(rig->names[b], RIG_NAME_MAX, "bone%d", b);
        rig->parents[b] = -1;
        if (b > 0) {
            int candidates = 0;
            for (int a = 0; a < b; a++)
                if (children[a] < p->branching && level[a] + 1 < p->depth)
                    room[candidates++] = a;
            /* a full tree (every bone at its limits) starts a new root */
            const int parent = candidates ? room[pcg32_next(&rng) % (uint32_t)candidates] : -1;
            rig->parents[b] = parent;
            if (parent >= 0) {
                children[parent]++;
                level[b] = level[parent] + 1;
            }
        }
        const double length = uniform(&rng, 0.05, 0.40), theta = uniform(&rng, 0, 2 * ANIM_PI),
                     z = uniform(&rng, -1, 1), r = sqrt(1 - z * z);
        rig->rest_offsets[b * 3 + 0] = rig->parents[b] < 0 ? 0 : length * r * cos(theta);
        rig->rest_offsets[b * 3 + 1] = rig->parents[b] < 0 ? 1.0 : length * z;
        rig->rest_offsets[b * 3 + 2] = rig->parents[b] < 0 ? 0 : length * r * sin(theta);
        for (int a = 0; a < 3; a++) {
            axis_motion *m = &motion[b * 3 + a];
            limit[b * 3 + a] = uniform(&rng, 5, 60);
            for (int i = 0; i < 3; i++) {
                m->amp[i] = limit[b * 3 + a] * uniform(&rng, 0.05, 0.5);
                m->freq[i] = uniform(&rng, 0.2, 3.0);
                m->phase[i] = uniform(&rng, 0, 2 * ANIM_PI);
            }
            const double seconds = p->frames / p->rate;
            for (int i = 0; i < BUMPS; i++) {
                m->bump_at[i] = uniform(&rng, 0, seconds);
                m->bump_width[i] = uniform(&rng, 0.2, 2.0);
                m->bump_height[i] = limit[b * 3 + a] * uniform(&rng, -0.3, 0.3);
            }
            const double snap = pcg32_unit(&rng);
            m->snap_at = snap < 0.1 ? uniform(&rng, 0, seconds) : -1;
            m->snap_size = snap < 0.1 ? limit[b * 3 + a] * uniform(&rng, -0.5, 0.5) : 0;
        }
    }
    const double speed = uniform(&rng, 0.5, 2.0), bob = uniform(&rng, 0.02, 0.08), step_hz = uniform(&rng, 0.8, 2.0);
    clip = clip_create_rest(rig, p->frames, p->rate);
    if (!clip) {
        snprintf(err, err_size, "random clip: out of memory for %d frames of %d bones", p->frames, p->bones);
        goto fail;
    }
    for (int f = 0; f < p->frames; f++) {
        const double t = f / p->rate;
        for (int b = 0; b < p->bones; b++) {
            double q[4];
            quat_from_euler_deg(axis_angle(&motion[b * 3 + 0], t, limit[b * 3 + 0]),
                                axis_angle(&motion[b * 3 + 1], t, limit[b * 3 + 1]),
                                axis_angle(&motion[b * 3 + 2], t, limit[b * 3 + 2]), q);
            memcpy(clip_rot_track(clip, b) + (size_t)f * 4, q, sizeof q);
            if (rig->parents[b] < 0) {
                /* forward at a steady speed, bobbing; the lowest third of each bob held flat: a contact */
                const double s = sin(2 * ANIM_PI * step_hz * t);
                clip_pos_channel(clip, b, 0)[f] = speed * t;
                clip_pos_channel(clip, b, 1)[f] = rig->rest_offsets[b * 3 + 1] + bob * fmax(s, -0.5);
            }
        }
    }
    free(children);
    free(level);
    free(motion);
    free(limit);
    free(room);
    *rig_out = rig;
    *clip_out = clip;
    return 0;
fail:
    clip_free(clip);
    rig_free(rig);
    free(children);
    free(level);
    free(motion);
    free(limit);
    free(room);
    return -1;
}
