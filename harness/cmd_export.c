/* `animbench export`: a clip, or what a codec's decoder makes of it, as BVH
 * or as ACL's SJSON clip. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_flags.h"
#include "clip_export.h"
#include "commands.h"
#include "measure.h"
#include "results.h"

static int usage(void)
{
    fprintf(stderr, "usage: animbench export --clip NAME --format bvh|acl-sjson --out FILE\n"
                    "                        [--codec NAME [--tol-mm X] [--lever-m X] [--step N]]  (the decoded clip)\n"
                    "                        [--unit-m X] [--up y|z] [--fps N] [--walk-seconds S] [--jump-seconds S]\n"
                    "                        [--seed N] [--bvh-unit-m X]  (metres per unit written to a BVH, 1)\n");
    return 2;
}

int cmd_export(int argc, char **argv)
{
    const char *clip_name = NULL, *format = NULL, *out_path = NULL, *codec_name = NULL;
    clip_params cp = CLIP_DEFAULTS;
    codec_params params = {1.0, 0.35, 2};
    double bvh_unit = 1.0;
    for (int i = 0; i < argc; i++) {
        if (i + 1 >= argc)
            return usage();
        const char *flag = argv[i], *val = argv[++i];
        double v = 0;
        const int num = cli_number(val, &v) == 0;
        char err[256];
        const int clip_flag = cli_clip_flag(flag, val, &cp, err, sizeof err);
        if (clip_flag < 0) {
            fprintf(stderr, "animbench export: %s\n", err);
            return 2;
        }
        if (clip_flag > 0)
            continue;
        if (strcmp(flag, "--clip") == 0)
            clip_name = val;
        else if (strcmp(flag, "--format") == 0)
            format = val;
        else if (strcmp(flag, "--out") == 0)
            out_path = val;
        else if (strcmp(flag, "--codec") == 0)
            codec_name = val;
        else if (num && v > 0 && strcmp(flag, "--bvh-unit-m") == 0)
            bvh_unit = v;
        else if (num && v > 0 && strcmp(flag, "--tol-mm") == 0)
            params.tol_mm = v;
        else if (num && v > 0 && strcmp(flag, "--lever-m") == 0)
            params.lever_m = v;
        else if (num && v >= 1 && v == floor(v) && strcmp(flag, "--step") == 0)
            params.step = (int)v;
        else {
            fprintf(stderr, "animbench export: %s %s: unknown option or value out of range\n", flag, val);
            return usage();
        }
    }
    if (!clip_name || !format || !out_path)
        return usage();
    if (strcmp(format, "bvh") != 0 && strcmp(format, "acl-sjson") != 0) {
        fprintf(stderr, "animbench export: --format takes bvh or acl-sjson, found '%s'\n", format);
        return 2;
    }
    const codec *c = codec_name ? codec_find(codec_name) : NULL;
    if (codec_name && !c) {
        fprintf(stderr, "animbench export: unknown codec '%s' (animbench list shows them)\n", codec_name);
        return 2;
    }
    char err[512];
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
        const codec_input in = {clip, view};
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
    int rc = !mem ? -1 : strcmp(format, "bvh") == 0 ? export_bvh(what, bvh_unit, mem) : export_acl_sjson(what, src->name, mem);
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
