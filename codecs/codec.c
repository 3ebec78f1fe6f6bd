#include "codec.h"

#include <stdlib.h>
#include <string.h>

void codec_output_init(codec_output *o)
{
    memset(o, 0, sizeof *o);
    bytes_init(&o->bytes);
    o->keys = -1;
}

void codec_output_free(codec_output *o)
{
    bytes_free(&o->bytes);
    clip_free(o->encoder_recon);
    free(o->key_frames);
    codec_output_init(o);
}
