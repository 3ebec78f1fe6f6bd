/* A clip as a glTF 2.0 file (one .gltf, its buffer embedded as base64): a node per joint with its
 * name, each carrying a small cube so that a viewer shows the skeleton moving, and one animation
 * with a linear sampler per joint and property (translation, rotation, scale) at every frame.
 * glTF composes scale down the tree where the harness's forward kinematics applies a joint's scale
 * to its children's offsets only (core/fk.h): each translation is written divided by its
 * grandparent's accumulated scale, so that a glTF reader's world positions are the clip's (the
 * inverse of what generators/scene_import.c does on import).  Numbers are float32, as glTF's. */
#include "harness/report/gltf_export.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void base64(const uint8_t *in, size_t n, char *out)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        const uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = A[v >> 18 & 63];
        out[o++] = A[v >> 12 & 63];
        out[o++] = i + 1 < n ? A[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? A[v & 63] : '=';
    }
    out[o] = '\0';
}

/* An accessor of count elements of `type` ("SCALAR", "VEC3", "VEC4") over floats at offset bytes. */
static void add_accessor(cJSON *accessors, cJSON *views, size_t offset, size_t bytes, int count, const char *type,
                         const float *min, const float *max, int comps, bool indices)
{
    cJSON *v = cJSON_CreateObject();
    cJSON_AddNumberToObject(v, "buffer", 0);
    cJSON_AddNumberToObject(v, "byteOffset", (double)offset);
    cJSON_AddNumberToObject(v, "byteLength", (double)bytes);
    if (indices)
        cJSON_AddNumberToObject(v, "target", 34963);
    cJSON_AddItemToArray(views, v);
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "bufferView", cJSON_GetArraySize(views) - 1);
    cJSON_AddNumberToObject(a, "componentType", indices ? 5123 : 5126);
    cJSON_AddNumberToObject(a, "count", count);
    cJSON_AddStringToObject(a, "type", type);
    if (min && max) {
        cJSON *lo = cJSON_AddArrayToObject(a, "min"), *hi = cJSON_AddArrayToObject(a, "max");
        for (int k = 0; k < comps; k++) {
            cJSON_AddItemToArray(lo, cJSON_CreateNumber(min[k]));
            cJSON_AddItemToArray(hi, cJSON_CreateNumber(max[k]));
        }
    }
    cJSON_AddItemToArray(accessors, a);
}

int export_gltf(const anim_clip *clip, const char *name, FILE *out)
{
    const anim_rig *rig = clip->rig;
    const int nb = rig->bone_count, nf = clip->frame_count;
    /* the buffer: the cube (8 positions, 36 indices), the times, then per joint T, R, S of every frame */
    const size_t cube = 8 * 3 * sizeof(float) + 36 * sizeof(uint16_t), times = (size_t)nf * sizeof(float);
    const size_t per_joint = (size_t)nf * 10 * sizeof(float);
    const size_t size = cube + times + (size_t)nb * per_joint;
    uint8_t *buf = calloc(size + 4, 1);
    double *ws = malloc(((size_t)nb * 3 + 1) * sizeof *ws);
    char *text = buf ? malloc(size / 3 * 4 + 8) : NULL;
    if (!buf || !ws || !text) {
        free(buf);
        free(ws);
        free(text);
        return -1;
    }
    /* a cube a fiftieth of the skeleton's reach across, at least 5 mm */
    double reach = 0;
    for (int j = 0; j < nb; j++)
        reach = fmax(reach, sqrt(rig->rest_offsets[j * 3] * rig->rest_offsets[j * 3] +
                                 rig->rest_offsets[j * 3 + 1] * rig->rest_offsets[j * 3 + 1] +
                                 rig->rest_offsets[j * 3 + 2] * rig->rest_offsets[j * 3 + 2]));
    const float h = (float)fmax(0.005, reach / 20);
    float *pos = (float *)(void *)buf;
    for (int i = 0; i < 8; i++) {
        pos[i * 3] = i & 1 ? h : -h;
        pos[i * 3 + 1] = i & 2 ? h : -h;
        pos[i * 3 + 2] = i & 4 ? h : -h;
    }
    static const uint16_t FACES[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                       2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    memcpy(buf + 8 * 3 * sizeof(float), FACES, sizeof FACES);
    float *t = (float *)(void *)(buf + cube);
    for (int f = 0; f < nf; f++)
        t[f] = (float)(f / clip->fps);
    for (int f = 0; f < nf; f++)
        for (int j = 0; j < nb; j++) {
            const int p = rig->parents[j], g = p >= 0 ? rig->parents[p] : -1;
            for (int a = 0; a < 3; a++)
                ws[j * 3 + a] = clip_scl_channel(clip, j, a)[f] * (p >= 0 ? ws[p * 3 + a] : 1);
            float *o = (float *)(void *)(buf + cube + times + (size_t)j * per_joint) + (size_t)f * 3;
            for (int a = 0; a < 3; a++) {
                const double s = g >= 0 ? ws[g * 3 + a] : 1;
                o[a] = (float)(s != 0 ? clip_pos_channel(clip, j, a)[f] / s : 0);
            }
            float *r = (float *)(void *)(buf + cube + times + (size_t)j * per_joint) + (size_t)nf * 3 + (size_t)f * 4;
            for (int k = 0; k < 4; k++)
                r[k] = (float)clip_rot_track(clip, j)[(size_t)f * 4 + k];
            float *s = (float *)(void *)(buf + cube + times + (size_t)j * per_joint) + (size_t)nf * 7 + (size_t)f * 3;
            for (int a = 0; a < 3; a++)
                s[a] = (float)clip_scl_channel(clip, j, a)[f];
        }
    cJSON *root = cJSON_CreateObject();
    cJSON *asset = cJSON_AddObjectToObject(root, "asset");
    cJSON_AddStringToObject(asset, "version", "2.0");
    cJSON_AddStringToObject(asset, "generator", "animbench export --format gltf");
    cJSON_AddNumberToObject(root, "scene", 0);
    cJSON *scenes = cJSON_AddArrayToObject(root, "scenes"), *scene = cJSON_CreateObject();
    cJSON_AddStringToObject(scene, "name", name);
    cJSON *scene_nodes = cJSON_AddArrayToObject(scene, "nodes");
    cJSON_AddItemToArray(scenes, scene);
    cJSON *nodes = cJSON_AddArrayToObject(root, "nodes");
    for (int j = 0; j < nb; j++) {
        cJSON *n = cJSON_CreateObject();
        cJSON_AddStringToObject(n, "name", rig->names[j]);
        cJSON_AddNumberToObject(n, "mesh", 0);
        const float *o = (const float *)(const void *)(buf + cube + times + (size_t)j * per_joint);
        cJSON *tr = cJSON_AddArrayToObject(n, "translation"), *ro = cJSON_AddArrayToObject(n, "rotation"),
              *sc = cJSON_AddArrayToObject(n, "scale");
        for (int k = 0; k < 3; k++) {
            cJSON_AddItemToArray(tr, cJSON_CreateNumber(o[k]));
            cJSON_AddItemToArray(sc, cJSON_CreateNumber(o[(size_t)nf * 7 + k]));
        }
        for (int k = 0; k < 4; k++)
            cJSON_AddItemToArray(ro, cJSON_CreateNumber(o[(size_t)nf * 3 + k]));
        cJSON *children = NULL;
        for (int c = 0; c < nb; c++)
            if (rig->parents[c] == j) {
                if (!children)
                    children = cJSON_AddArrayToObject(n, "children");
                cJSON_AddItemToArray(children, cJSON_CreateNumber(c));
            }
        cJSON_AddItemToArray(nodes, n);
        if (rig->parents[j] < 0)
            cJSON_AddItemToArray(scene_nodes, cJSON_CreateNumber(j));
    }
    cJSON *accessors = cJSON_AddArrayToObject(root, "accessors"), *views = cJSON_AddArrayToObject(root, "bufferViews");
    const float lo[3] = {-h, -h, -h}, hi[3] = {h, h, h};
    add_accessor(accessors, views, 0, 8 * 3 * sizeof(float), 8, "VEC3", lo, hi, 3, false);
    add_accessor(accessors, views, 8 * 3 * sizeof(float), 36 * sizeof(uint16_t), 36, "SCALAR", NULL, NULL, 1, true);
    const float tmin = 0, tmax = t[nf - 1];
    add_accessor(accessors, views, cube, times, nf, "SCALAR", &tmin, &tmax, 1, false);
    cJSON *meshes = cJSON_AddArrayToObject(root, "meshes"), *mesh = cJSON_CreateObject();
    cJSON *prims = cJSON_AddArrayToObject(mesh, "primitives"), *prim = cJSON_CreateObject();
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(prim, "attributes"), "POSITION", 0);
    cJSON_AddNumberToObject(prim, "indices", 1);
    cJSON_AddItemToArray(prims, prim);
    cJSON_AddStringToObject(mesh, "name", "joint");
    cJSON_AddItemToArray(meshes, mesh);
    cJSON *anims = cJSON_AddArrayToObject(root, "animations"), *anim = cJSON_CreateObject();
    cJSON_AddStringToObject(anim, "name", name);
    cJSON *samplers = cJSON_AddArrayToObject(anim, "samplers"), *channels = cJSON_AddArrayToObject(anim, "channels");
    static const char *const PATHS[3] = {"translation", "rotation", "scale"};
    for (int j = 0; j < nb; j++)
        for (int k = 0; k < 3; k++) {
            const size_t at = cube + times + (size_t)j * per_joint + (size_t)nf * (k == 0 ? 0 : k == 1 ? 3 : 7) * sizeof(float);
            add_accessor(accessors, views, at, (size_t)nf * (k == 1 ? 4 : 3) * sizeof(float), nf, k == 1 ? "VEC4" : "VEC3",
                         NULL, NULL, 0, false);
            cJSON *s = cJSON_CreateObject();
            cJSON_AddNumberToObject(s, "input", 2);
            cJSON_AddNumberToObject(s, "output", cJSON_GetArraySize(accessors) - 1);
            cJSON_AddStringToObject(s, "interpolation", "LINEAR");
            cJSON_AddItemToArray(samplers, s);
            cJSON *c = cJSON_CreateObject();
            cJSON_AddNumberToObject(c, "sampler", cJSON_GetArraySize(samplers) - 1);
            cJSON *target = cJSON_AddObjectToObject(c, "target");
            cJSON_AddNumberToObject(target, "node", j);
            cJSON_AddStringToObject(target, "path", PATHS[k]);
            cJSON_AddItemToArray(channels, c);
        }
    cJSON_AddItemToArray(anims, anim);
    base64(buf, size, text);
    cJSON *buffers = cJSON_AddArrayToObject(root, "buffers"), *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "byteLength", (double)size);
    char *uri = malloc(strlen(text) + 64);
    int rc = -1;
    if (uri) {
        snprintf(uri, strlen(text) + 64, "data:application/octet-stream;base64,%s", text);
        cJSON_AddStringToObject(b, "uri", uri);
        free(uri);
        cJSON_AddItemToArray(buffers, b);
        char *json = cJSON_PrintUnformatted(root);
        if (json) {
            rc = fputs(json, out) < 0 || fputc('\n', out) == EOF ? -1 : 0;
            free(json);
        }
    } else
        cJSON_Delete(b);
    cJSON_Delete(root);
    free(buf);
    free(ws);
    free(text);
    return rc;
}
