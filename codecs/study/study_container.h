/* The study's track container, byte for byte (seeds/000, encodeTracks):
 *
 *   header      16 bytes, all zero
 *   per scalar channel, in id order:
 *     u16 id, u16 count (1 when constant)
 *     quantised and not constant: f32 lo, f32 range
 *     constant: one value (f32; when quantised a u16 that is always 0)
 *     else per key: u16 frame, value (f32, or u16 code when quantised)
 *   per rotation track, in bone order:
 *     u16 bone, u16 count
 *     constant: one quaternion; else per key: u16 frame, quaternion
 *     quaternion: 4 x f32 (x, y, z, w), or a u32 smallest-three code
 *
 * All little-endian.  The layout does not say which interpolation, whether
 * values are quantised, nor how many frames the clip has; and a quantised
 * constant channel stores 0 in place of its value.  See docs/findings.md. */
#ifndef ANIMBENCH_STUDY_CONTAINER_H
#define ANIMBENCH_STUDY_CONTAINER_H

#include "core/bytes.h"
#include "codecs/study/study_plan.h"

#define STUDY_HEADER_BYTES 16

/* The study's layout, or ours: the same records, but the 16 header bytes
 * carry what a decoder needs ("AB", version 1, flags bit 0 cubic, bit 1
 * quantised, bit 2 wide, bit 3 delta times, u32 frame count, f64 frames per second) and a
 * quantised constant channel stores its value as f32 instead of a u16 0.
 * A clip of more than 65,535 frames is written wide: every key frame index
 * and key count is a u32 (the ids stay u16); the study's layout has no
 * room for that flag and refuses such a clip. */
typedef enum container_layout { LAYOUT_STUDY = 0, LAYOUT_SELF_CONTAINED = 1 } container_layout;

#define SC_MAGIC0 'A'
#define SC_MAGIC1 'B'
#define SC_VERSION 1
#define SC_FLAG_CUBIC 1u
#define SC_FLAG_QUANTIZED 2u
#define SC_FLAG_WIDE 4u /* frame indices and key counts are u32: set when the clip has over 65,535 frames */
/* Key times as deltas from the previous key (from -1 for the first): a u8
 * when below 256, else a zero u8 and a u16, and in the wide layout a zero
 * u16 and a u32; always the shortest form (seeds 003, 004). */
#define SC_FLAG_DELTA_TIMES 8u
#define SC_NARROW_FRAMES_MAX 65535

typedef enum container_status {
    CONTAINER_OK = 0,
    CONTAINER_NO_MEMORY,
    CONTAINER_TOO_MANY_FRAMES, /* the study's layout: a frame index or key count above 65535 */
    CONTAINER_TOO_MANY_CHANNELS, /* a channel id above 65535 */
    CONTAINER_NO_DELTA_TIMES     /* delta key times asked of the study's layout */
} container_status;

container_status study_container_write(const study_plan *plan, byte_buffer *out);
container_status study_container_scalar_record(const study_plan *plan, int index, byte_buffer *out);
container_status study_container_rotation_record(const study_plan *plan, int index, byte_buffer *out);
container_status container_write(const study_plan *plan, container_layout layout, byte_buffer *out);
/* The same, with the bytes spent on key times (frame indices or deltas; not
 * counts, ids or values) in *time_bytes when it is not NULL. */
container_status container_write_counted(const study_plan *plan, container_layout layout, byte_buffer *out,
                                         size_t *time_bytes);
const char *container_status_message(container_status s);

/* The study's raw layout: a 16-byte zero header, then per frame, per bone,
 * position (3), rotation (4) and scale (3) as f32. */
container_status study_raw_write(const anim_clip *clip, byte_buffer *out);

#endif
