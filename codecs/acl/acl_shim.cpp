// The one C++ file of the project: ACL behind the C functions of
// acl_shim.h.  No C++ type crosses that line; no exception is thrown
// (ACL throws none), and every buffer handed back is malloc'd.
#include "codecs/acl/acl_shim.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include <stdlib.h>

#include <acl/compression/compress.h>
#include <acl/compression/track_array.h>
#include <acl/compression/track_error.h>
#include <acl/compression/transform_error_metrics.h>
#include <acl/core/ansi_allocator.h>
#include <acl/decompression/decompress.h>
#include <acl/version.h>
#include <rtm/version.h>

namespace {

struct float_writer final : public acl::track_writer {
    float *out;
    const float *rest; // joints * 3: default translations (the bind pose)
    float_writer(float *o, const float *r) : out(o), rest(r) {}
    static constexpr acl::default_sub_track_mode get_default_translation_mode()
    {
        return acl::default_sub_track_mode::variable;
    }
    rtm::vector4f RTM_SIMD_CALL get_variable_default_translation(uint32_t i) const
    {
        const float *t = rest + static_cast<size_t>(i) * 3; // float-aligned: no 8-byte loads
        return rtm::vector_set(t[0], t[1], t[2]);
    }
    void RTM_SIMD_CALL write_rotation(uint32_t i, rtm::quatf_arg0 q)
    {
        float *p = out + static_cast<size_t>(i) * ACL_SHIM_STRIDE;
        p[0] = rtm::quat_get_x(q);
        p[1] = rtm::quat_get_y(q);
        p[2] = rtm::quat_get_z(q);
        p[3] = rtm::quat_get_w(q);
    }
    void RTM_SIMD_CALL write_translation(uint32_t i, rtm::vector4f_arg0 v)
    {
        float *p = out + static_cast<size_t>(i) * ACL_SHIM_STRIDE + 4;
        p[0] = rtm::vector_get_x(v);
        p[1] = rtm::vector_get_y(v);
        p[2] = rtm::vector_get_z(v);
    }
    void RTM_SIMD_CALL write_scale(uint32_t i, rtm::vector4f_arg0 v)
    {
        float *p = out + static_cast<size_t>(i) * ACL_SHIM_STRIDE + 7;
        p[0] = rtm::vector_get_x(v);
        p[1] = rtm::vector_get_y(v);
        p[2] = rtm::vector_get_z(v);
    }
};

using context_t = acl::decompression_context<acl::default_transform_decompression_settings>;

void set_error(char *err, size_t err_size, const char *what, const char *why)
{
    std::snprintf(err, err_size, "%s: %s", what, why);
}

} // namespace

struct acl_shim_reader {
    void *buffer; // the stream, copied to ACL's alignment
    float *rest;  // joints * 3
    const acl::compressed_tracks *tracks;
    context_t context;
    int frames, joints;
    float rate;
};

#define ACL_SHIM_STR2(x) #x
#define ACL_SHIM_STR(x) ACL_SHIM_STR2(x)
extern "C" const char *acl_shim_version(void)
{
    return "ACL " ACL_SHIM_STR(ACL_VERSION_MAJOR) "." ACL_SHIM_STR(ACL_VERSION_MINOR) "." ACL_SHIM_STR(
        ACL_VERSION_PATCH) ", RTM " ACL_SHIM_STR(RTM_VERSION_MAJOR) "." ACL_SHIM_STR(RTM_VERSION_MINOR) "." ACL_SHIM_STR(RTM_VERSION_PATCH);
}

extern "C" int acl_shim_compress(const float *transforms, const int *parents, const float *rest_translations,
                                 int joints, int frames, float sample_rate, const acl_shim_settings *settings,
                                 acl_shim_result *out, char *err, size_t err_size)
{
    std::memset(out, 0, sizeof *out);
    out->reported_joint = -1;
    if (joints < 1 || frames < 1 || !(sample_rate > 0.0F)) {
        set_error(err, err_size, "acl", "needs at least one joint, one frame and a positive rate");
        return -1;
    }
    acl::ansi_allocator allocator;
    acl::track_array_qvvf raw(allocator, static_cast<uint32_t>(joints));
    for (int j = 0; j < joints; j++) {
        acl::track_desc_transformf desc;
        desc.output_index = static_cast<uint32_t>(j);
        desc.parent_index = parents[j] < 0 ? acl::k_invalid_track_index : static_cast<uint32_t>(parents[j]);
        desc.precision = settings->precision_cm;
        desc.shell_distance = settings->shell_distance_cm;
        const float *rest = rest_translations + static_cast<size_t>(j) * 3;
        desc.default_value =
            rtm::qvv_set(rtm::quat_identity(), rtm::vector_set(rest[0], rest[1], rest[2]), rtm::vector_set(1.0F));
        acl::track_qvvf track =
            acl::track_qvvf::make_reserve(desc, allocator, static_cast<uint32_t>(frames), sample_rate);
        for (int f = 0; f < frames; f++) {
            const float *p = transforms + (static_cast<size_t>(f) * joints + j) * ACL_SHIM_STRIDE;
            track[static_cast<uint32_t>(f)] =
                rtm::qvv_set(rtm::quat_set(p[0], p[1], p[2], p[3]), rtm::vector_set(p[4], p[5], p[6]),
                             rtm::vector_set(p[7], p[8], p[9]));
        }
        raw[static_cast<uint32_t>(j)] = std::move(track);
    }

    acl::compression_settings cs = acl::get_default_compression_settings();
    if (settings->highest_level)
        cs.level = acl::compression_level8::highest;
    acl::qvvf_transform_error_metric metric;
    cs.error_metric = &metric;

    acl::output_stats stats;
    acl::compressed_tracks *compressed = nullptr;
    const acl::error_result r = acl::compress_track_list(allocator, raw, cs, compressed, stats);
    if (r.any() || compressed == nullptr) {
        set_error(err, err_size, "acl compression failed", r.c_str());
        return -1;
    }

    context_t context;
    if (!context.initialize(*compressed)) {
        allocator.deallocate(compressed, compressed->get_size());
        set_error(err, err_size, "acl", "its decompression context refused its own buffer");
        return -1;
    }
    const acl::track_error e = acl::calculate_compression_error(allocator, raw, context, metric);
    out->reported_error_cm = e.error;
    out->reported_joint = e.index == acl::k_invalid_track_index ? -1 : static_cast<int>(e.index);
    out->reported_time_s = e.sample_time;

    out->size = compressed->get_size();
    out->bytes = static_cast<uint8_t *>(std::malloc(out->size));
    if (out->bytes)
        std::memcpy(out->bytes, compressed, out->size);
    allocator.deallocate(compressed, compressed->get_size());
    if (!out->bytes) {
        set_error(err, err_size, "acl", "out of memory");
        return -1;
    }
    return 0;
}

extern "C" acl_shim_reader *acl_shim_open(const uint8_t *bytes, size_t size, int joints,
                                          const float *rest_translations, char *err, size_t err_size)
{
    // The buffer starts with its own size and a hash of everything after them.
    if (size < 64 || size > 0x7fffffffu) {
        std::snprintf(err, err_size, "acl stream of %zu bytes is too short to be a compressed buffer", size);
        return nullptr;
    }
    uint32_t stated = 0;
    std::memcpy(&stated, bytes, sizeof stated);
    if (stated != size) {
        std::snprintf(err, err_size, "acl stream: its header says %u bytes, the stream has %zu", stated, size);
        return nullptr;
    }
    acl_shim_reader *r = new (std::nothrow) acl_shim_reader();
    if (!r) {
        set_error(err, err_size, "acl", "out of memory");
        return nullptr;
    }
    const size_t alignment = alignof(acl::compressed_tracks) < 16 ? 16 : alignof(acl::compressed_tracks);
    if (posix_memalign(&r->buffer, alignment, (size + alignment - 1) / alignment * alignment) != 0)
        r->buffer = nullptr;
    if (!r->buffer) {
        delete r;
        set_error(err, err_size, "acl", "out of memory");
        return nullptr;
    }
    std::memcpy(r->buffer, bytes, size);
    r->rest = static_cast<float *>(std::malloc(static_cast<size_t>(joints) * 3 * sizeof(float)));
    if (!r->rest) {
        std::free(r->buffer);
        delete r;
        set_error(err, err_size, "acl", "out of memory");
        return nullptr;
    }
    std::memcpy(r->rest, rest_translations, static_cast<size_t>(joints) * 3 * sizeof(float));
    const acl::compressed_tracks *t = static_cast<const acl::compressed_tracks *>(r->buffer);
    const acl::error_result valid = t->is_valid(true);
    const char *why = nullptr;
    if (valid.any())
        why = valid.c_str();
    else if (t->get_track_type() != acl::track_type8::qvvf)
        why = "it holds no transform tracks";
    else if (t->get_num_tracks() != static_cast<uint32_t>(joints))
        why = "its track count is not the rig's joint count";
    else if (t->get_num_samples_per_track() < 1 || t->get_num_samples_per_track() > 0x7ffffffeu)
        why = "its sample count is out of range";
    else if (!(std::isfinite(t->get_sample_rate()) && t->get_sample_rate() > 0.0F))
        why = "its sample rate is not a positive number";
    else if (acl::acl_impl::get_tracks_header(*t).get_rotation_format() != acl::rotation_format8::quatf_drop_w_variable ||
             acl::acl_impl::get_tracks_header(*t).get_translation_format() != acl::vector_format8::vector3f_variable ||
             acl::acl_impl::get_tracks_header(*t).get_scale_format() != acl::vector_format8::vector3f_variable)
        why = "its formats are not the variable bit rates this decoder is built for";
    else if (t->has_database())
        why = "it needs a database";
    else if (!r->context.initialize(*t))
        why = "ACL's decompression context refused it (unsupported format or version)";
    if (why) {
        std::snprintf(err, err_size, "acl stream rejected: %s", why);
        std::free(r->rest);
        std::free(r->buffer);
        delete r;
        return nullptr;
    }
    r->tracks = t;
    r->joints = joints;
    r->rate = t->get_sample_rate();
    r->frames = static_cast<int>(t->get_num_samples_per_track()) +
                (t->get_looping_policy() == acl::sample_looping_policy::wrap ? 1 : 0);
    return r;
}

extern "C" int acl_shim_frames(const acl_shim_reader *r)
{
    return r->frames;
}

extern "C" float acl_shim_sample_rate(const acl_shim_reader *r)
{
    return r->rate;
}

extern "C" void acl_shim_sample(acl_shim_reader *r, double t, float *out)
{
    const double whole = std::floor(t);
    const float seconds = static_cast<float>(t / r->rate);
    r->context.seek(seconds, whole == t ? acl::sample_rounding_policy::nearest : acl::sample_rounding_policy::none);
    float_writer w(out, r->rest);
    r->context.decompress_tracks(w);
}

extern "C" void acl_shim_close(acl_shim_reader *r)
{
    if (!r)
        return;
    std::free(r->rest);
    std::free(r->buffer);
    delete r;
}
