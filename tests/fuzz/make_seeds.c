/* Writes the decoder fuzz target's seeds: a real stream of every codec on
 * a short walk (the study's rig) and on a short imported clip (the fuzz
 * target's 7-joint rig), each prefixed with the byte that makes the target
 * pick that codec and rig, and shellpack-match's match stream of a short jump (and
 * shellpack-comp-trained's, a match stream with sign contexts: flags 5).
 * `make fuzz-seeds`; the files are kept in tests/fuzz/corpus/decode.  A row
 * added before others changes their selector bytes: test_codecs.c checks the
 * kept seeds against the table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/codec.h"
#include "core/channels.h"
#include "generators/bvh.h"
#include "generators/clip_library.h"

static const char IMPORTED[] =
    "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
    "JOINT Spine\n{\nOFFSET 0 10 0\nCHANNELS 3 Zrotation Yrotation Xrotation\nJOINT Head\n{\nOFFSET 0 20 0\n"
    "CHANNELS 3 Zrotation Yrotation Xrotation\nEnd Site\n{\nOFFSET 0 5 0\n}\n}\n}\nJOINT Leg\n{\nOFFSET 8 -5 0\n"
    "CHANNELS 3 Zrotation Yrotation Xrotation\nJOINT Knee\n{\nOFFSET 0 -40 0\nCHANNELS 3 Zrotation Yrotation Xrotation\n"
    "JOINT Foot\n{\nOFFSET 0 -40 0\nCHANNELS 3 Zrotation Yrotation Xrotation\nJOINT Toe\n{\nOFFSET 0 0 10\n"
    "CHANNELS 1 Xrotation\nEnd Site\n{\nOFFSET 0 0 3\n}\n}\n}\n}\n}\n}\nMOTION\nFrames: 6\nFrame Time: 0.033333\n"
    "0 90 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n1 91 0 5 0 0 3 0 0 1 0 0 10 0 0 20 0 0 5 0 0 7\n"
    "2 92 1 10 0 0 6 0 0 2 0 0 20 0 0 40 0 0 10 0 0 14\n3 91 1 15 0 0 9 0 0 3 0 0 30 0 0 60 0 0 15 0 0 21\n"
    "4 90 2 20 0 0 12 0 0 4 0 0 40 0 0 40 0 0 20 0 0 28\n5 90 2 25 0 0 15 0 0 5 0 0 50 0 0 20 0 0 25 0 0 35\n";

/* Every row's stream of clip (only `only`'s when given), named ROW_LABEL. */
static int write_seeds(const char *folder, const anim_clip *clip, int rig_index, const char *label, const char *only)
{
    channel_view *view = channels_create(clip);
    const codec_input in = {clip, view, false};
    for (int i = 0; i < codec_count(); i++) {
        const codec *c = codec_at(i);
        if ((c->flags & CODEC_UNAVAILABLE) || strncmp(c->name, "acl", 3) == 0 || (only && strcmp(c->name, only) != 0))
            continue; /* the fuzz targets are built without ACL (C++): its rows are not fuzzed */
        codec_params p; /* each row's declared defaults, at the study's tolerance */
        codec_params_init(c, &p);
        p.tol_mm = 1.0;
        p.lever_m = 0.35;
        p.step = 2;
        codec_output out;
        codec_output_init(&out);
        char err[256], path[512];
        if (c->ops->encode(c, &in, &p, &out, err, sizeof err) != 0) {
            fprintf(stderr, "make_seeds: %s: %s\n", c->name, err);
            return -1;
        }
        snprintf(path, sizeof path, "%s/%s_%s", folder, c->name, label);
        FILE *f = fopen(path, "wb");
        const unsigned char first = (unsigned char)(i + rig_index * codec_count());
        if (!f || fputc(first, f) == EOF || fwrite(out.bytes.data, 1, out.bytes.size, f) != out.bytes.size ||
            fclose(f) != 0) {
            fprintf(stderr, "make_seeds: cannot write %s\n", path);
            return -1;
        }
        codec_output_free(&out);
    }
    channels_free(view);
    return 0;
}

int main(int argc, char **argv)
{
    const char *folder = argc > 1 ? argv[1] : "tests/fuzz/corpus/decode";
    if (2 * codec_count() > 256) {
        fprintf(stderr, "make_seeds: more codecs than one selector byte can name\n");
        return 1;
    }
    clip_params p = CLIP_DEFAULTS;
    p.walk_seconds = 0.25;
    char err[512];
    clip_source *walk = clip_source_load("walk", &p, err, sizeof err);
    const bvh_options o = {0.01};
    bvh_result r;
    if (!walk || bvh_parse(IMPORTED, sizeof IMPORTED - 1, "imported", &o, &r, err, sizeof err) != 0) {
        fprintf(stderr, "make_seeds: %s\n", err);
        return 1;
    }
    /* shellpack-match writes the short walk as shellpack's stream; the jump repeats, a match stream (and
     * shellpack-comp-trained's walk is a sign stream without the match model, its jump one with it) */
    p.jump_seconds = 0.5;
    clip_source *jump = clip_source_load("jump", &p, err, sizeof err);
    if (!jump) {
        fprintf(stderr, "make_seeds: %s\n", err);
        return 1;
    }
    const int rc = write_seeds(folder, walk->clip, 0, "study", NULL) || write_seeds(folder, r.clip, 1, "imported", NULL) ||
                   write_seeds(folder, jump->clip, 0, "study_jump", "shellpack-match") ||
                   write_seeds(folder, jump->clip, 0, "study_jump", "shellpack-comp-trained");
    clip_source_free(walk);
    clip_source_free(jump);
    bvh_result_free(&r);
    return rc ? 1 : 0;
}
