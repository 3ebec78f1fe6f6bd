#include "codecs/study/study_container.h"

static bool put_rotation(byte_buffer *out, const double *q, bool quantize)
{
    if (quantize)
        return bytes_u32(out, quant_rotation_encode(q));
    for (int i = 0; i < 4; i++)
        if (!bytes_f32(out, q[i]))
            return false;
    return true;
}

static bool is_wide(const study_plan *plan, container_layout layout)
{
    return layout == LAYOUT_SELF_CONTAINED && plan->view->frame_count > SC_NARROW_FRAMES_MAX;
}

/* A frame index or a key count: u16, or u32 in the wide layout. */
static void put_index(byte_buffer *out, int v, bool wide)
{
    if (wide)
        bytes_u32(out, (uint32_t)v);
    else
        bytes_u16(out, (uint16_t)v);
}

/* A key's frame: an index, or with delta times the distance d >= 1 from
 * the previous key (from -1 for the first): a u8 when d < 256, else a zero
 * u8 and a u16; in the wide layout a zero u16 escapes once more to a u32.
 * Adds what it wrote to *time_bytes. */
static void put_key_time(byte_buffer *out, const study_plan *plan, const int *keys, int k, bool wide,
                         size_t *time_bytes)
{
    const size_t before = out->size;
    if (!plan->options.delta_times) {
        put_index(out, keys[k], wide);
    } else {
        const uint32_t d = (uint32_t)(keys[k] - (k > 0 ? keys[k - 1] : -1));
        if (d < 256) {
            bytes_u8(out, (uint8_t)d);
        } else {
            bytes_u8(out, 0);
            if (d < 65536) {
                bytes_u16(out, (uint16_t)d);
            } else {
                bytes_u16(out, 0);
                bytes_u32(out, d);
            }
        }
    }
    if (time_bytes)
        *time_bytes += out->size - before;
}

static container_status check_fits(const study_plan *plan, container_layout layout, int id, const int *keys,
                                   int key_count)
{
    if (id > 0xFFFF)
        return CONTAINER_TOO_MANY_CHANNELS;
    if (!is_wide(plan, layout) && (key_count > 0xFFFF || keys[key_count - 1] > 0xFFFF))
        return CONTAINER_TOO_MANY_FRAMES;
    return CONTAINER_OK;
}

static container_status scalar_record(const study_plan *plan, int index, container_layout layout,
                                      byte_buffer *out, size_t *time_bytes)
{
    const planned_scalar *t = &plan->scalars[index];
    const bool quant = plan->options.quantize, wide = is_wide(plan, layout);
    const double *v = t->channel->values;
    const container_status fits = check_fits(plan, layout, t->channel->id, t->keys, t->key_count);
    if (fits != CONTAINER_OK)
        return fits;
    bytes_u16(out, (uint16_t)t->channel->id);
    put_index(out, t->is_constant ? 1 : t->key_count, wide);
    if (t->is_constant) {
        if (quant && layout == LAYOUT_STUDY)
            bytes_u16(out, 0); /* the study's defect: the value is not stored */
        else
            bytes_f32(out, v[0]);
    } else {
        if (quant) {
            bytes_f32(out, t->range.lo);
            bytes_f32(out, t->range.range);
        }
        for (int k = 0; k < t->key_count; k++) {
            put_key_time(out, plan, t->keys, k, wide, time_bytes);
            if (quant)
                bytes_u16(out, t->codes[k]);
            else
                bytes_f32(out, v[t->keys[k]]);
        }
    }
    return out->failed ? CONTAINER_NO_MEMORY : CONTAINER_OK;
}

static container_status rotation_record(const study_plan *plan, int index, container_layout layout,
                                        byte_buffer *out, size_t *time_bytes)
{
    const planned_rotation *t = &plan->rotations[index];
    const bool quant = plan->options.quantize, wide = is_wide(plan, layout);
    const double *q = t->track->quats;
    const container_status fits = check_fits(plan, layout, t->track->bone, t->keys, t->key_count);
    if (fits != CONTAINER_OK)
        return fits;
    bytes_u16(out, (uint16_t)t->track->bone);
    put_index(out, t->is_constant ? 1 : t->key_count, wide);
    if (t->is_constant) {
        put_rotation(out, q, quant);
    } else {
        for (int k = 0; k < t->key_count; k++) {
            put_key_time(out, plan, t->keys, k, wide, time_bytes);
            put_rotation(out, q + (size_t)t->keys[k] * 4, quant);
        }
    }
    return out->failed ? CONTAINER_NO_MEMORY : CONTAINER_OK;
}

container_status study_container_scalar_record(const study_plan *plan, int index, byte_buffer *out)
{
    return scalar_record(plan, index, LAYOUT_STUDY, out, NULL);
}

container_status study_container_rotation_record(const study_plan *plan, int index, byte_buffer *out)
{
    return rotation_record(plan, index, LAYOUT_STUDY, out, NULL);
}

static void write_header(const study_plan *plan, container_layout layout, byte_buffer *out)
{
    if (layout == LAYOUT_STUDY) {
        bytes_zeros(out, STUDY_HEADER_BYTES);
        return;
    }
    const plan_options *o = &plan->options;
    bytes_u8(out, SC_MAGIC0);
    bytes_u8(out, SC_MAGIC1);
    bytes_u8(out, SC_VERSION);
    bytes_u8(out, (uint8_t)((o->cubic ? SC_FLAG_CUBIC : 0) | (o->quantize ? SC_FLAG_QUANTIZED : 0) |
                            (is_wide(plan, layout) ? SC_FLAG_WIDE : 0) |
                            (o->delta_times ? SC_FLAG_DELTA_TIMES : 0)));
    bytes_u32(out, (uint32_t)plan->view->frame_count);
    bytes_f64(out, plan->view->clip->fps);
}

container_status study_container_write(const study_plan *plan, byte_buffer *out)
{
    return container_write(plan, LAYOUT_STUDY, out);
}

container_status container_write(const study_plan *plan, container_layout layout, byte_buffer *out)
{
    return container_write_counted(plan, layout, out, NULL);
}

container_status container_write_counted(const study_plan *plan, container_layout layout, byte_buffer *out,
                                         size_t *time_bytes)
{
    if (plan->options.delta_times && layout != LAYOUT_SELF_CONTAINED)
        return CONTAINER_NO_DELTA_TIMES;
    if (time_bytes)
        *time_bytes = 0;
    write_header(plan, layout, out);
    if (out->failed)
        return CONTAINER_NO_MEMORY;
    for (int i = 0; i < plan->view->scalar_count; i++) {
        container_status s = scalar_record(plan, i, layout, out, time_bytes);
        if (s != CONTAINER_OK)
            return s;
    }
    for (int i = 0; i < plan->view->rotation_count; i++) {
        container_status s = rotation_record(plan, i, layout, out, time_bytes);
        if (s != CONTAINER_OK)
            return s;
    }
    return CONTAINER_OK;
}

container_status study_raw_write(const anim_clip *clip, byte_buffer *out)
{
    const int nb = clip->rig->bone_count;
    if (!bytes_reserve(out, STUDY_HEADER_BYTES + (size_t)clip->frame_count * (size_t)nb * 40))
        return CONTAINER_NO_MEMORY;
    bytes_zeros(out, STUDY_HEADER_BYTES);
    for (int f = 0; f < clip->frame_count; f++)
        for (int b = 0; b < nb; b++) {
            for (int a = 0; a < 3; a++)
                bytes_f32(out, clip_pos_channel(clip, b, a)[f]);
            const double *q = clip_rot_track(clip, b) + (size_t)f * 4;
            for (int i = 0; i < 4; i++)
                bytes_f32(out, q[i]);
            for (int a = 0; a < 3; a++)
                bytes_f32(out, clip_scl_channel(clip, b, a)[f]);
        }
    return out->failed ? CONTAINER_NO_MEMORY : CONTAINER_OK;
}

const char *container_status_message(container_status s)
{
    switch (s) {
    case CONTAINER_OK:
        return "ok";
    case CONTAINER_NO_MEMORY:
        return "out of memory";
    case CONTAINER_TOO_MANY_FRAMES:
        return "a frame index or key count above 65,535 does not fit the study's 16-bit fields (a clip of over "
               "65,535 frames, or 65,536 frames all kept)";
    case CONTAINER_NO_DELTA_TIMES:
        return "delta key times exist only in the self-contained layout (its header has the flag)";
    case CONTAINER_TOO_MANY_CHANNELS:
        return "a channel id does not fit the container's 16-bit field (rig over 10,922 bones)";
    }
    return "unknown container status";
}
