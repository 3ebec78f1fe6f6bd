#include "generators/study_clips.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsmath.h"
#include "core/limits.h"
#include "core/quat.h"
#include "generators/study_rig.h"

const clip_params CLIP_DEFAULTS = {60.0, 3.0, 2.0, 20260905u, 1.0, 1, false, false};

enum study_bone {
    HIPS, SPINE, CHEST, NECK, HEAD, SHOULDER_L, UPPERARM_L, FOREARM_L, HAND_L,
    SHOULDER_R, UPPERARM_R, FOREARM_R, HAND_R, THIGH_L, SHIN_L, FOOT_L, TOE_L,
    THIGH_R, SHIN_R, FOOT_R, TOE_R, CAPE = 29
};

double study_lcg_next(study_lcg *lcg)
{
    lcg->state = lcg->state * 1664525u + 1013904223u;
    return lcg->state / 4294967296.0 * 2 - 1;
}

int study_frame_count(double seconds, double fps)
{
    const double frames = js_round(seconds * fps);
    return frames >= 0 && frames <= LIMIT_FRAMES_MAX ? (int)frames : -1;
}

int study_clip_check(const char *name, const clip_params *p, char *err, size_t err_size)
{
    const double seconds = strcmp(name, "jump") == 0 ? p->jump_seconds : p->walk_seconds;
    char why[300];
    if (!(seconds > 0) || !isfinite(seconds) || !(p->fps > 0) || !isfinite(p->fps)) {
        snprintf(err, err_size, "clip '%s': %g s at %g fps: both must be numbers above 0", name, seconds, p->fps);
        return -1;
    }
    if (clip_limits_check(js_round(seconds * p->fps), STUDY_BONE_COUNT, p->fps, why, sizeof why) != 0) {
        snprintf(err, err_size, "clip '%s': %g s at %g fps: %s", name, seconds, p->fps, why);
        return -1;
    }
    return 0;
}

static void set_rot(double *rot, int bone, double x, double y, double z)
{
    quat_from_euler_deg(x, y, z, rot + bone * 4);
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Math.max(0, v): +0 for -0, unlike fmax, which may return either zero.
 * The sign of a zero reaches the float32 bytes and so the gzip sizes. */
static double max0(double v)
{
    return v > 0 ? v : 0.0;
}

static double smooth(double u)
{
    u = clampd(u, 0, 1);
    return u * u * (3 - 2 * u);
}

void study_walk_pose(const anim_rig *rig, double t, const double *jitter, double *pos,
                     double *rot, double *scl)
{
    (void)rig;
    (void)scl;
    static const double NO_JITTER[WALK_JITTER_DRAWS];
    const double *j = jitter ? jitter : NO_JITTER;
    const double PI = ANIM_PI;
    const double p = 2 * PI * 1.0 * t; /* 1 Hz cycle = 2 steps/s */
    /* The script adds j()*k even without jitter (j() is then 0); so do we,
     * because x + 0 and x differ for x = -0 and the figures must agree. */
    pos[HIPS * 3 + 0] = 0.020 * sin(p) + j[0] * 0.0004;
    pos[HIPS * 3 + 1] = 0.95 + 0.025 * sin(2 * p) + j[1] * 0.0004;
    pos[HIPS * 3 + 2] = 1.40 * t + j[2] * 0.0004;
    set_rot(rot, HIPS, -4 + 1.5 * sin(2 * p) + j[3] * 0.12, 3 * sin(p) + j[4] * 0.12, 2 * sin(p));
    set_rot(rot, SPINE, 2 * sin(2 * p) + j[5] * 0.12, -2 * sin(p), 0);
    set_rot(rot, CHEST, 1.5 * sin(2 * p), 4 * sin(p + PI) + j[6] * 0.12, 0);
    set_rot(rot, NECK, 0, -2 * sin(p) + j[7] * 0.12, 0);
    set_rot(rot, HEAD, 1.5 * sin(2 * p) + j[8] * 0.12, 2 * sin(p), 0);
    set_rot(rot, UPPERARM_L, -8 + 25 * sin(p) + j[9] * 0.12, 0, 8);
    set_rot(rot, UPPERARM_R, -8 + 25 * sin(p + PI) + j[10] * 0.12, 0, -8);
    set_rot(rot, FOREARM_L, -(20 + 15 * sin(p + 0.6)) + j[11] * 0.12, 0, 0);
    set_rot(rot, FOREARM_R, -(20 + 15 * sin(p + 0.6 + PI)) + j[12] * 0.12, 0, 0);
    set_rot(rot, HAND_L, 5 * sin(p) + j[13] * 0.12, 0, 0);
    set_rot(rot, HAND_R, 5 * sin(p + PI) + j[14] * 0.12, 0, 0);
    set_rot(rot, THIGH_L, 28 * sin(p) + j[15] * 0.12, 0, 0);
    set_rot(rot, THIGH_R, 28 * sin(p + PI) + j[16] * 0.12, 0, 0);
    /* knee lock: max() puts a genuine corner in the curve, as in real gait */
    set_rot(rot, SHIN_L, -(4 + 46 * max0(sin(p + 1.2))) + j[17] * 0.12, 0, 0);
    set_rot(rot, SHIN_R, -(4 + 46 * max0(sin(p + 1.2 + PI))) + j[18] * 0.12, 0, 0);
    set_rot(rot, FOOT_L, 12 * sin(p + 2.0) + j[19] * 0.12, 0, 0);
    set_rot(rot, FOOT_R, 12 * sin(p + 2.0 + PI) + j[20] * 0.12, 0, 0);
    set_rot(rot, TOE_L, 30 * max0(sin(p + 2.6)), 0, 0);
    set_rot(rot, TOE_R, 30 * max0(sin(p + 2.6 + PI)), 0, 0);
    set_rot(rot, CAPE, 6 * sin(p - 0.8) + j[21] * 0.12, 0, 3 * sin(2 * p));
}

double study_jump_height(double t)
{
    if (t < 0.30)
        return 0;
    if (t < 0.48)
        return -0.18 * smooth((t - 0.30) / 0.18); /* crouch */
    if (t < 0.54)
        return -0.18 + 0.18 * ((t - 0.48) / 0.06); /* launch (linear, fast) */
    if (t < 1.10) {
        const double u = (t - 0.54) / 0.56; /* airborne parabola */
        return 4 * 0.55 * u * (1 - u);
    }
    if (t < 1.18)
        return -0.22 * ((t - 1.10) / 0.08); /* impact */
    if (t < 1.45)
        return -0.22 * (1 - smooth((t - 1.18) / 0.27)); /* recover */
    return 0;
}

void study_jump_pose(const anim_rig *rig, double t, double *pos, double *rot, double *scl)
{
    (void)rig;
    const double h = study_jump_height(t), hc = study_jump_height(max0(t - 0.08));
    const double cr = clampd(-h / 0.22, 0, 1);  /* crouch amount 0..1 */
    const double air = clampd(h / 0.55, 0, 1);  /* airborne amount 0..1 */
    pos[HIPS * 3 + 0] = 0;
    pos[HIPS * 3 + 1] = 0.95 + h;
    pos[HIPS * 3 + 2] = 0.9 * clampd((t - 0.48) / 0.62, 0, 1) * 1.0; /* forward hop */
    /* squash and stretch on the root, volume preserving */
    const double sy = 1 - 0.10 * cr + 0.07 * air;
    scl[HIPS * 3 + 1] = sy;
    scl[HIPS * 3 + 0] = scl[HIPS * 3 + 2] = 1 / sqrt(sy);
    set_rot(rot, HIPS, -4 - 22 * cr + 6 * air, 0, 0);
    set_rot(rot, SPINE, 25 * cr - 8 * air, 0, 0);
    set_rot(rot, CHEST, 10 * cr - 5 * air, 0, 0);
    set_rot(rot, NECK, -6 * cr, 0, 0);
    set_rot(rot, HEAD, -8 * cr + 4 * air, 0, 0);
    set_rot(rot, UPPERARM_L, -70 * cr + 100 * air, 0, 8);
    set_rot(rot, UPPERARM_R, -70 * cr + 100 * air, 0, -8);
    set_rot(rot, FOREARM_L, -(15 + 45 * air), 0, 0);
    set_rot(rot, FOREARM_R, -(15 + 45 * air), 0, 0);
    set_rot(rot, HAND_L, -10 * cr + 15 * air, 0, 0);
    set_rot(rot, HAND_R, -10 * cr + 15 * air, 0, 0);
    set_rot(rot, THIGH_L, 55 * cr + 35 * air, 0, 0);
    set_rot(rot, THIGH_R, 55 * cr + 35 * air, 0, 0);
    set_rot(rot, SHIN_L, -(70 * cr + 60 * air), 0, 0);
    set_rot(rot, SHIN_R, -(70 * cr + 60 * air), 0, 0);
    set_rot(rot, FOOT_L, 20 * cr - 30 * air, 0, 0);
    set_rot(rot, FOOT_R, 20 * cr - 30 * air, 0, 0);
    set_rot(rot, TOE_L, 25 * cr, 0, 0);
    set_rot(rot, TOE_R, 25 * cr, 0, 0);
    set_rot(rot, CAPE, 20 * clampd(-study_jump_height(0) + (hc - h) * 40, -1, 1), 0, 0);
}

/* Writes a flat pose into frame f of the clip. */
static void store_pose(anim_clip *c, int f, const double *pos, const double *rot,
                       const double *scl)
{
    for (int b = 0; b < c->rig->bone_count; b++) {
        for (int a = 0; a < 3; a++) {
            clip_pos_channel(c, b, a)[f] = pos[b * 3 + a];
            clip_scl_channel(c, b, a)[f] = scl[b * 3 + a];
        }
        double *q = clip_rot_track(c, b) + (size_t)f * 4;
        for (int i = 0; i < 4; i++)
            q[i] = rot[b * 4 + i];
    }
}

static void rest_pose(const anim_rig *rig, double *pos, double *rot, double *scl)
{
    for (int b = 0; b < rig->bone_count; b++) {
        for (int a = 0; a < 3; a++) {
            pos[b * 3 + a] = rig->rest_offsets[b * 3 + a];
            scl[b * 3 + a] = 1.0;
        }
        rot[b * 4 + 0] = rot[b * 4 + 1] = rot[b * 4 + 2] = 0.0;
        rot[b * 4 + 3] = 1.0;
    }
}

anim_clip *study_walk_clip(const anim_rig *rig, const clip_params *p, bool jitter)
{
    const int frames = study_frame_count(p->walk_seconds, p->fps);
    anim_clip *c = clip_create_rest(rig, frames, p->fps);
    if (!c)
        return NULL;
    double pos[STUDY_BONE_COUNT * 3], rot[STUDY_BONE_COUNT * 4], scl[STUDY_BONE_COUNT * 3];
    double draws[WALK_JITTER_DRAWS];
    study_lcg lcg = {p->seed};
    for (int f = 0; f < frames; f++) {
        if (jitter)
            for (int i = 0; i < WALK_JITTER_DRAWS; i++)
                draws[i] = study_lcg_next(&lcg);
        rest_pose(rig, pos, rot, scl);
        study_walk_pose(rig, f / p->fps, jitter ? draws : NULL, pos, rot, scl);
        store_pose(c, f, pos, rot, scl);
    }
    return c;
}

anim_clip *study_jump_clip(const anim_rig *rig, const clip_params *p)
{
    const int frames = study_frame_count(p->jump_seconds, p->fps);
    anim_clip *c = clip_create_rest(rig, frames, p->fps);
    if (!c)
        return NULL;
    double pos[STUDY_BONE_COUNT * 3], rot[STUDY_BONE_COUNT * 4], scl[STUDY_BONE_COUNT * 3];
    for (int f = 0; f < frames; f++) {
        rest_pose(rig, pos, rot, scl);
        study_jump_pose(rig, f / p->fps, pos, rot, scl);
        store_pose(c, f, pos, rot, scl);
    }
    return c;
}
