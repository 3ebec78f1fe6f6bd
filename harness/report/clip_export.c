#include "harness/report/clip_export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/acl/acl_codec.h"
#include "core/quat.h"

void quat_to_euler_zxy_deg(const double q[4], double *z_deg, double *x_deg, double *y_deg)
{
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w);
    const double r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z);
    const double r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
    const double sb = r21 < -1 ? -1 : r21 > 1 ? 1 : r21;
    const double b = asin(sb);
    double a, c;
    if (fabs(sb) < 0.9999999) {
        a = atan2(-r01, r11);
        c = atan2(-r20, r22);
    } else { /* gimbal lock: put the whole turn about z */
        a = atan2(r10, r00);
        c = 0;
    }
    *z_deg = a * RAD_TO_DEG;
    *x_deg = b * RAD_TO_DEG;
    *y_deg = c * RAD_TO_DEG;
}

/* A joint's translation as written: its local position scaled by its parent's scale. */
static void translation(const anim_clip *c, int b, int f, double out[3])
{
    const int p = c->rig->parents[b];
    for (int a = 0; a < 3; a++)
        out[a] = clip_pos_channel(c, b, a)[f] * (p >= 0 ? clip_scl_channel(c, p, a)[f] : 1.0);
}

static int moves(const anim_clip *c, int b)
{
    if (c->rig->parents[b] < 0)
        return 1;
    for (int f = 0; f < c->frame_count; f++) {
        double t[3];
        translation(c, b, f, t);
        for (int a = 0; a < 3; a++)
            if (t[a] != c->rig->rest_offsets[b * 3 + a])
                return 1;
    }
    return 0;
}

static void indent(FILE *out, int depth)
{
    for (int i = 0; i < depth; i++)
        fputc('\t', out);
}

/* Joints in the order the hierarchy is written: depth first, children in
 * index order.  A BVH's motion lists channels in this order. */
static void depth_first(const anim_rig *rig, int b, int *order, int *n)
{
    order[(*n)++] = b;
    for (int k = b + 1; k < rig->bone_count; k++)
        if (rig->parents[k] == b)
            depth_first(rig, k, order, n);
}

static void write_joint(const anim_clip *c, int b, int depth, double unit, const unsigned char *six, FILE *out)
{
    const anim_rig *rig = c->rig;
    const double *o = rig->rest_offsets + b * 3;
    indent(out, depth);
    fprintf(out, "%s %s\n", rig->parents[b] < 0 ? "ROOT" : "JOINT", rig->names[b]);
    indent(out, depth);
    fprintf(out, "{\n");
    indent(out, depth + 1);
    fprintf(out, "OFFSET %.10g %.10g %.10g\n", o[0] / unit, o[1] / unit, o[2] / unit);
    indent(out, depth + 1);
    if (six[b])
        fprintf(out, "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n");
    else
        fprintf(out, "CHANNELS 3 Zrotation Xrotation Yrotation\n");
    int children = 0;
    for (int k = b + 1; k < rig->bone_count; k++)
        if (rig->parents[k] == b) {
            write_joint(c, k, depth + 1, unit, six, out);
            children++;
        }
    if (children == 0 || (rig->has_end_site && rig->has_end_site[b])) {
        double e[3];
        for (int a = 0; a < 3; a++)
            e[a] = rig->has_end_site && rig->has_end_site[b] ? rig->end_site_offsets[b * 3 + a] : o[a] / 4;
        if (!(rig->has_end_site && rig->has_end_site[b]) && e[0] == 0 && e[1] == 0 && e[2] == 0)
            e[1] = 0.05;
        indent(out, depth + 1);
        fprintf(out, "End Site\n");
        indent(out, depth + 1);
        fprintf(out, "{\n");
        indent(out, depth + 2);
        fprintf(out, "OFFSET %.10g %.10g %.10g\n", e[0] / unit, e[1] / unit, e[2] / unit);
        indent(out, depth + 1);
        fprintf(out, "}\n");
    }
    indent(out, depth);
    fprintf(out, "}\n");
}

int export_bvh(const anim_clip *c, double unit, FILE *out)
{
    const anim_rig *rig = c->rig;
    unsigned char *six = calloc((size_t)rig->bone_count, 1);
    int *order = malloc((size_t)rig->bone_count * sizeof *order), n = 0;
    if (!six || !order) {
        free(six);
        free(order);
        return -1;
    }
    for (int b = 0; b < rig->bone_count; b++)
        if (rig->parents[b] < 0)
            depth_first(rig, b, order, &n);
    for (int b = 0; b < rig->bone_count; b++)
        six[b] = (unsigned char)moves(c, b);
    fprintf(out, "HIERARCHY\n");
    for (int b = 0; b < rig->bone_count; b++)
        if (rig->parents[b] < 0)
            write_joint(c, b, 0, unit, six, out);
    fprintf(out, "MOTION\nFrames: %d\nFrame Time: %.17g\n", c->frame_count, 1.0 / c->fps);
    for (int f = 0; f < c->frame_count; f++) {
        for (int i = 0; i < n; i++) {
            const int b = order[i];
            if (six[b]) {
                double t[3];
                translation(c, b, f, t);
                fprintf(out, "%.10g %.10g %.10g ", t[0] / unit, t[1] / unit, t[2] / unit);
            }
            double q[4], z, x, y;
            quat_normalize(clip_rot_track(c, b) + (size_t)f * 4, q);
            quat_to_euler_zxy_deg(q, &z, &x, &y);
            fprintf(out, "%.10g %.10g %.10g%s", z, x, y, i + 1 < n ? " " : "");
        }
        fputc('\n', out);
    }
    free(six);
    free(order);
    return ferror(out) ? -1 : 0;
}

/* A name as an SJSON string: quotes and backslashes escaped, control bytes
 * as \uXXXX, so that a joint called 'a"b' cannot end the string early. */
static const char *sjson_string(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && k + 7 < n; p++) {
        if (*p == '"' || *p == '\\') {
            out[k++] = '\\';
            out[k++] = (char)*p;
        } else if (*p < 0x20) {
            k += (size_t)snprintf(out + k, n - k, "\\u%04x", *p);
        } else {
            out[k++] = (char)*p;
        }
    }
    out[k] = '\0';
    return out;
}

int export_acl_sjson(const anim_clip *c, const char *name, FILE *out)
{
    const anim_rig *rig = c->rig;
    const double cm = 100.0;
    char esc[1600];
    fprintf(out, "// Written by animbench: the transforms the acl codec rows give ACL (codecs/acl/acl_codec.c):\n"
                 "// lengths in centimetres; scale s(bone) / s(parent) so that ACL's composed scale equals the\n"
                 "// study's (a joint's scale moves its children's offsets only).\n"
                 "version = 5\n\nclip =\n{\n\tname = \"%s\"\n\tnum_samples = %d\n\tsample_rate = %.17g\n"
                 "\tis_binary_exact = false\n\tadditive_format = \"none\"\n}\n\nbones =\n[\n",
            sjson_string(name, esc, sizeof esc), c->frame_count, c->fps);
    for (int b = 0; b < rig->bone_count; b++) {
        const double *o = rig->rest_offsets + b * 3;
        char esc_parent[RIG_NAME_MAX * 6 + 8];
        fprintf(out,
                "\t{\n\t\tname = \"%s\"\n\t\tparent = \"%s\"\n\t\tvertex_distance = 3.0\n"
                "\t\tbind_rotation = [ 0.0, 0.0, 0.0, 1.0 ]\n\t\tbind_translation = [ %.17g, %.17g, %.17g ]\n"
                "\t\tbind_scale = [ 1.0, 1.0, 1.0 ]\n\t}\n",
                sjson_string(rig->names[b], esc, sizeof esc),
                sjson_string(rig->parents[b] < 0 ? "" : rig->names[rig->parents[b]], esc_parent, sizeof esc_parent),
                o[0] * cm, o[1] * cm, o[2] * cm);
    }
    fprintf(out, "]\n\ntracks =\n[\n");
    double *t = malloc((size_t)c->frame_count * 10 * sizeof *t);
    if (!t)
        return -1;
    for (int b = 0; b < rig->bone_count; b++) {
        for (int f = 0; f < c->frame_count; f++)
            acl_local_transform(c, b, f, t + (size_t)f * 10);
        fprintf(out, "\t{\n\t\tname = \"%s\"\n\t\trotations =\n\t\t[\n", sjson_string(rig->names[b], esc, sizeof esc));
        for (int f = 0; f < c->frame_count; f++) {
            const double *q = t + (size_t)f * 10;
            fprintf(out, "\t\t\t[ %.17g, %.17g, %.17g, %.17g ]\n", q[0], q[1], q[2], q[3]);
        }
        fprintf(out, "\t\t]\n\t\ttranslations =\n\t\t[\n");
        for (int f = 0; f < c->frame_count; f++) {
            const double *v = t + (size_t)f * 10 + 4;
            fprintf(out, "\t\t\t[ %.17g, %.17g, %.17g ]\n", v[0], v[1], v[2]);
        }
        fprintf(out, "\t\t]\n\t\tscales =\n\t\t[\n");
        for (int f = 0; f < c->frame_count; f++) {
            const double *v = t + (size_t)f * 10 + 7;
            fprintf(out, "\t\t\t[ %.17g, %.17g, %.17g ]\n", v[0], v[1], v[2]);
        }
        fprintf(out, "\t\t]\n\t}\n");
    }
    free(t);
    fprintf(out, "]\n");
    return ferror(out) ? -1 : 0;
}
