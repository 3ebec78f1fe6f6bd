/* `animbench export`: a clip, or what a codec's decoder makes of it, as BVH, as ACL's SJSON clip
 * or as glTF 2.0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/commands/commands.h"
#include "harness/commands/cli_flags.h"
#include "harness/report/clip_export.h"
#include "harness/report/gltf_export.h"
#include "harness/sweep/results.h"

#define EXPORT_USAGE                                                                                       \
    "usage: animbench export --clip NAME --format bvh|acl-sjson|gltf --out FILE\n"                         \
    "                        [--codec NAME [--param NAME=VALUE ...] [--tol-mm X] [--lever-m X] [--step N]]\n"  \
    "                        (--codec: the clip decoded from that codec's bytes)\n"                         \
    "                        " CLI_CLIP_FLAGS_USAGE "\n"                                                   \
    "                        [--bvh-unit-m X]  (metres per unit written to a BVH, 1)\n"

int cmd_export(int argc, char **argv)
{
    const char *clip_name = NULL, *format = NULL, *out_path = NULL, *codec_name = NULL;
    clip_params cp = CLIP_DEFAULTS;
    cli_codec_params given = CLI_CODEC_PARAMS_INIT;
    codec_params params;
    double bvh_unit = 1.0;
    const cli_option options[] = {
        {"--clip", CLI_TEXT, &clip_name, 0, 0, 0},
        {"--format", CLI_TEXT, &format, 0, 0, 0},
        {"--out", CLI_TEXT, &out_path, 0, 0, 0},
        {"--codec", CLI_TEXT, &codec_name, 0, 0, 0},
        {"--bvh-unit-m", CLI_REAL, &bvh_unit, 0, INFINITY, 1},
        CLI_CODEC_PARAM_OPTIONS(&given),
    };
    const int parsed =
        cli_parse("export", argc, argv, options, (int)(sizeof options / sizeof options[0]), &cp, EXPORT_USAGE);
    if (parsed != 0)
        return parsed == 1 ? 0 : 2;
    if (!clip_name || !format || !out_path) {
        fprintf(stderr, "animbench export: needs --clip, --format and --out\n%s", EXPORT_USAGE);
        return 2;
    }
    if (results_check_output("export", out_path, 0) != 0)
        return 2;
    if (strcmp(format, "bvh") != 0 && strcmp(format, "acl-sjson") != 0 && strcmp(format, "gltf") != 0) {
        fprintf(stderr, "animbench export: --format takes bvh, acl-sjson or gltf, found '%s'\n", format);
        return 2;
    }
    const codec *c = codec_name ? codec_find(codec_name) : NULL;
    if (codec_name && !c) {
        fprintf(stderr, "animbench export: unknown codec '%s' (animbench list shows them)\n", codec_name);
        return 2;
    }
    char err[512];
    if (c && cli_codec_params_apply(&given, c, &params, err, sizeof err) != 0) {
        fprintf(stderr, "animbench export: %s\n", err);
        return 2;
    }
    clip_source *src = clip_source_load(clip_name, &cp, err, sizeof err);
    if (src && src->warning[0])
        fprintf(stderr, "animbench export: warning: %s\n", src->warning);
    if (!src) {
        fprintf(stderr, "animbench export: %s\n", err);
        return 2;
    }
    const anim_clip *clip = src->clip;
    anim_clip *decoded = NULL;
    channel_view *view = NULL;
    if (c) {
        view = channels_create(clip);
        codec_output enc;
        codec_output_init(&enc);
        const codec_input in = {clip, view, false};
        if (!view || c->ops->encode(c, &in, &params, &enc, err, sizeof err) != 0 ||
            !(decoded = c->ops->decode(c, enc.bytes.data, enc.bytes.size, clip->rig, err, sizeof err))) {
            fprintf(stderr, "animbench export: %s: %s\n", codec_name, err);
            codec_output_free(&enc);
            channels_free(view);
            clip_source_free(src);
            return 1;
        }
        codec_output_free(&enc);
        if (decoded->fps == 0) /* the study's layouts do not store the rate */
            decoded->fps = clip->fps;
    }
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    const anim_clip *what = decoded ? decoded : clip;
    int rc = !mem                          ? -1
             : strcmp(format, "bvh") == 0  ? export_bvh(what, bvh_unit, mem)
             : strcmp(format, "gltf") == 0 ? export_gltf(what, src->name, mem)
                                           : export_acl_sjson(what, src->name, mem);
    if (mem)
        fclose(mem);
    if (rc != 0)
        fprintf(stderr, "animbench export: out of memory writing %s\n", format);
    else if ((rc = write_file_atomic(out_path, text, size, err, sizeof err)) != 0)
        fprintf(stderr, "animbench export: %s\n", err);
    else
        fprintf(stderr, "animbench export: %s%s%s -> %s (%s, %d frames, %d joints)\n", src->name,
                c ? " decoded by " : "", c ? c->name : "", out_path, format, what->frame_count, what->rig->bone_count);
    free(text);
    clip_free(decoded);
    channels_free(view);
    clip_source_free(src);
    return rc == 0 ? 0 : 1;
}
