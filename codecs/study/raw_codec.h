#ifndef ANIMBENCH_RAW_CODEC_H
#define ANIMBENCH_RAW_CODEC_H

#include "codecs/codec.h"

extern const codec_ops RAW_CODEC_OPS;

#endif
