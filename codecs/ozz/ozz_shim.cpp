// ozz-animation v0.16 behind the C functions of ozz_shim.h: the one place the ozz rows touch C++.
//
// The stream is ozz's own: the runtime animation (ozz::animation::Animation) serialized by ozz's
// archive (OArchive on a MemoryStream), nothing added.  Tracks are in the order of the runtime
// skeleton that ozz's SkeletonBuilder makes from the rig (depth first, roots and children by
// index), which the decoder rebuilds from the rig alone.
//
// What ozz's archive checks when it loads, and what this shim checks itself first:
//  - ozz: the type tag ("ozz-animation") when asked (IArchive::TestTag) and the version (7, else it
//    logs and loads nothing).  Reads past the end of the stream are not detected (its primitive
//    reads only assert), counts are trusted (Animation::Load allocates what they say), and the
//    sampling job trusts every index and offset it finds.
//  - the shim, before ozz reads anything: native endianness, the tag, version 7, a finite duration
//    above 0, the track count equal to the rig's, at most 65,535 time points (ozz asserts it), and
//    the exact byte size that the thirteen counts imply equal to the stream's, so that no count
//    can make ozz allocate or read more than the stream holds.
//  - the shim, after ozz has loaded it: time points finite and in [0, 1]; for each of translation,
//    rotation and scale, at least the two keys per (SoA-padded) track that sampling starts from,
//    every key's time point index within the time points, and every key's offset to its track's
//    previous key naming the key the sampling job's cache holds for that track at that moment (a
//    replay of the job's forward walk, so that its unbounded searches always end), each track's
//    first key at time 0 and its second naming the first (the sentinel that ends the job's backward
//    walk), time points ascending; no iframes (the
//    rows never write them); translations and scales finite (half floats), rotations whose three
//    stored components leave room for the fourth.
// A stream that passes is safe to sample at any time; its values are whatever its bytes say.
#include "codecs/ozz/ozz_shim.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>
#include <vector>

#include <ozz/animation/offline/animation_builder.h>
#include <ozz/animation/offline/animation_optimizer.h>
#include <ozz/animation/offline/raw_animation.h>
#include <ozz/animation/offline/raw_skeleton.h>
#include <ozz/animation/offline/skeleton_builder.h>
#include <ozz/animation/runtime/animation.h>
#include <ozz/animation/runtime/sampling_job.h>
#include <ozz/animation/runtime/skeleton.h>
#include <ozz/base/io/archive.h>
#include <ozz/base/io/stream.h>
#include <ozz/base/log.h>
#include <ozz/base/maths/soa_transform.h>
#include <ozz/base/span.h>

// the key formats (ozz's private header, as its own sources include it): the checks read them
#define OZZ_INCLUDE_PRIVATE_HEADER
#include <animation/runtime/animation_keyframe.h>

namespace {

// The runtime skeleton's joint order: depth first from the roots, roots and children by index.
std::vector<int> skeleton_order(int bones, const int *parents)
{
    std::vector<std::vector<int>> children(bones);
    std::vector<int> roots, order, stack;
    for (int b = 0; b < bones; b++)
        (parents[b] < 0 ? roots : children[parents[b]]).push_back(b);
    for (auto r = roots.rbegin(); r != roots.rend(); ++r)
        stack.push_back(*r);
    while (!stack.empty()) {
        const int b = stack.back();
        stack.pop_back();
        order.push_back(b);
        for (auto c = children[b].rbegin(); c != children[b].rend(); ++c)
            stack.push_back(*c);
    }
    return order;
}

void add_joint(ozz::animation::offline::RawSkeleton::Joint &joint, int b,
               const std::vector<std::vector<int>> &children, const float *rest)
{
    char name[32];
    std::snprintf(name, sizeof name, "b%d", b);
    joint.name = name;
    joint.transform = ozz::math::Transform::identity();
    joint.transform.translation = ozz::math::Float3(rest[b * 3], rest[b * 3 + 1], rest[b * 3 + 2]);
    joint.children.resize(children[b].size());
    for (size_t i = 0; i < children[b].size(); i++)
        add_joint(joint.children[i], children[b][i], children, rest);
}

void set_err(char *err, size_t n, const char *what)
{
    std::snprintf(err, n, "%s", what);
}

// ozz's half float (its Float3Key) as a float, for the finiteness check.
bool half_finite(uint16_t h)
{
    return ((h >> 10) & 0x1f) != 0x1f;
}

struct reader {
    const uint8_t *p;
    size_t left;
    bool u32(uint32_t *v)
    {
        if (left < 4)
            return false;
        std::memcpy(v, p, 4);
        p += 4;
        left -= 4;
        return true;
    }
};

// The byte checks of the header comment, before ozz reads anything.
bool check_bytes(const uint8_t *bytes, size_t size, int bones, char *err, size_t n)
{
    static const char TAG[] = "ozz-animation";
    const size_t tag_len = sizeof TAG; // written with its terminating zero
    uint16_t one = 1;
    uint8_t native;
    std::memcpy(&native, &one, 1);
    if (size < 1 + tag_len + 4 + 4 + 13 * 4) {
        std::snprintf(err, n, "an ozz stream of %zu bytes is shorter than the archive's header", size);
        return false;
    }
    if (bytes[0] != native) {
        set_err(err, n, "not an ozz animation archive of this machine's endianness");
        return false;
    }
    if (std::memcmp(bytes + 1, TAG, tag_len) != 0) {
        set_err(err, n, "not an ozz animation archive (its type tag is not \"ozz-animation\")");
        return false;
    }
    reader r = {bytes + 1 + tag_len, size - 1 - tag_len};
    uint32_t version, counts[13];
    r.u32(&version);
    if (version != 7) {
        std::snprintf(err, n, "ozz animation archive version %u (this build reads version 7)", version);
        return false;
    }
    float duration;
    std::memcpy(&duration, r.p, 4);
    r.p += 4;
    r.left -= 4;
    for (int i = 0; i < 12; i++)
        r.u32(&counts[i]);
    if (!(std::isfinite(duration) && duration > 0)) {
        set_err(err, n, "ozz animation: its duration is not a finite number above 0");
        return false;
    }
    const uint32_t tracks = counts[0], name_len = counts[1], timepoints = counts[2];
    if ((int64_t)tracks != bones) {
        std::snprintf(err, n, "ozz animation of %u tracks for a rig of %d bones", tracks, bones);
        return false;
    }
    if (timepoints > 65535) {
        std::snprintf(err, n, "ozz animation of %u time points (ozz takes at most 65,535)", timepoints);
        return false;
    }
    const uint64_t ratio_size = timepoints <= 255 ? 1 : 2;
    uint64_t expect = (uint64_t)name_len + 4ull * timepoints;
    for (int k = 0; k < 3; k++) {
        const uint64_t keys = counts[3 + k], entries = counts[6 + 2 * k], desc = counts[7 + 2 * k];
        expect += keys * (ratio_size + 2 + 6) + entries + 4 * desc + 4;
    }
    if (expect != r.left) {
        std::snprintf(err, n, "ozz animation: its counts describe %llu bytes after the header, the stream holds %zu",
                      (unsigned long long)expect, r.left);
        return false;
    }
    return true;
}

// The structure checks of the header comment, after ozz has loaded the animation.
bool check_keys(const ozz::animation::Animation::KeyframesCtrlConst &ctrl, size_t values,
                const ozz::span<const float> &timepoint, int soa_tracks, const char *what, char *err, size_t n)
{
    const int timepoints = (int)timepoint.size();
    const size_t tracks = (size_t)soa_tracks * 4;
    const size_t ratio_size = timepoints <= 255 ? 1 : 2;
    if (values < 2 * tracks || ctrl.previouses.size() != values || ctrl.ratios.size() != values * ratio_size) {
        std::snprintf(err, n, "ozz animation: %zu %s keys for %zu tracks (at least two a track)", values, what, tracks);
        return false;
    }
    if (!ctrl.iframe_entries.empty() || !ctrl.iframe_desc.empty()) {
        std::snprintf(err, n, "ozz animation: %s iframes, which these rows never write", what);
        return false;
    }
    for (size_t i = 0; i < values; i++) {
        uint16_t wide = 0;
        if (ratio_size == 2)
            std::memcpy(&wide, &ctrl.ratios[2 * i], 2);
        const size_t at = ratio_size == 1 ? ctrl.ratios[i] : wide;
        if (at >= (size_t)timepoints) {
            std::snprintf(err, n, "ozz animation: %s key %zu names time point %zu of %d", what, i, at, timepoints);
            return false;
        }
    }
    // the keys sampling starts from: each track's first at time 0 (the sentinel that stops the job's
    // backward walk before it leaves them), its second naming the first as its previous
    for (size_t k = 0; k < 2 * tracks; k++) {
        uint16_t at = 0;
        if (ratio_size == 2)
            std::memcpy(&at, &ctrl.ratios[2 * k], 2);
        else
            at = ctrl.ratios[k];
        if ((k < tracks && timepoint[at] != 0.f) || (k >= tracks && ctrl.previouses[k] != tracks)) {
            std::snprintf(err, n, "ozz animation: %s key %zu is not where sampling starts from", what, k);
            return false;
        }
    }
    // the sampling job's forward walk: its cache holds, per track, the key it last reached
    std::vector<uint32_t> cache(tracks), track_of(values);
    for (size_t t = 0; t < tracks; t++) {
        cache[t] = (uint32_t)(tracks + t);
        track_of[t] = track_of[tracks + t] = (uint32_t)t;
    }
    for (size_t k = 2 * tracks; k < values; k++) {
        const size_t back = ctrl.previouses[k];
        if (back == 0 || back > k || cache[track_of[k - back]] != k - back) {
            std::snprintf(err, n, "ozz animation: %s key %zu's previous key (%zu back) is not its track's last", what,
                          k, back);
            return false;
        }
        track_of[k] = track_of[k - back];
        cache[track_of[k]] = (uint32_t)k;
    }
    return true;
}

} // namespace

struct ozz_shim_sampler {
    ozz::animation::Animation animation;
    ozz::animation::SamplingJob::Context context;
    std::vector<ozz::math::SoaTransform> soa;
    std::vector<int> order;
    double fps;
    float inv_duration;
};

extern "C" const char *ozz_shim_version(void)
{
    return "ozz-animation 0.16.0";
}

extern "C" int ozz_shim_encode(const ozz_shim_clip *clip, int optimize, float tolerance_m, float distance_m,
                               uint8_t **bytes, size_t *size, char *err, size_t err_size)
{
    using namespace ozz::animation::offline;
    ozz::log::SetLevel(ozz::log::kSilent);
    *bytes = nullptr;
    *size = 0;
    if (clip->frames < 2 || clip->frames > 65535) {
        std::snprintf(err, err_size, "ozz: %d frames (its runtime animation takes 2 to 65,535 time points)",
                      clip->frames);
        return -1;
    }
    try {
        const int nb = clip->bones, n = clip->frames;
        const std::vector<int> order = skeleton_order(nb, clip->parents);
        RawAnimation raw;
        raw.duration = (float)((n - 1) / clip->fps);
        char name[64];
        std::snprintf(name, sizeof name, "fps %.17g", clip->fps);
        raw.name = name;
        raw.tracks.resize(nb);
        for (int k = 0; k < nb; k++) {
            RawAnimation::JointTrack &track = raw.tracks[k];
            const int b = order[k];
            track.translations.resize(n);
            track.rotations.resize(n);
            track.scales.resize(n);
            for (int f = 0; f < n; f++) {
                const float *v = clip->transforms + ((size_t)f * nb + b) * 10;
                const float time = (float)(f / clip->fps);
                track.translations[f] = {time, ozz::math::Float3(v[0], v[1], v[2])};
                track.rotations[f] = {time, ozz::math::Quaternion(v[3], v[4], v[5], v[6])};
                track.scales[f] = {time, ozz::math::Float3(v[7], v[8], v[9])};
            }
        }
        if (!raw.Validate()) {
            set_err(err, err_size, "ozz: its RawAnimation::Validate refused the clip (key times)");
            return -1;
        }
        RawAnimation optimized;
        if (optimize) {
            std::vector<std::vector<int>> children(nb);
            RawSkeleton raw_skeleton;
            for (int b = 0; b < nb; b++)
                if (clip->parents[b] >= 0)
                    children[clip->parents[b]].push_back(b);
            for (int b = 0; b < nb; b++)
                if (clip->parents[b] < 0) {
                    raw_skeleton.roots.emplace_back();
                    add_joint(raw_skeleton.roots.back(), b, children, clip->rest);
                }
            SkeletonBuilder skeleton_builder;
            const ozz::unique_ptr<ozz::animation::Skeleton> skeleton = skeleton_builder(raw_skeleton);
            if (!skeleton) {
                set_err(err, err_size, "ozz: its SkeletonBuilder refused the rig");
                return -1;
            }
            AnimationOptimizer optimizer;
            optimizer.setting.tolerance = tolerance_m;
            optimizer.setting.distance = distance_m;
            if (!optimizer(raw, *skeleton, &optimized)) {
                set_err(err, err_size, "ozz: its AnimationOptimizer failed");
                return -1;
            }
        }
        AnimationBuilder builder;
        const ozz::unique_ptr<ozz::animation::Animation> animation = builder(optimize ? optimized : raw);
        if (!animation) {
            set_err(err, err_size, "ozz: its AnimationBuilder refused the animation");
            return -1;
        }
        ozz::io::MemoryStream stream;
        ozz::io::OArchive archive(&stream);
        archive << *animation;
        const int length = stream.Size();
        uint8_t *out = static_cast<uint8_t *>(std::malloc(length > 0 ? (size_t)length : 1));
        if (!out || stream.Seek(0, ozz::io::Stream::kSet) != 0 ||
            stream.Read(out, (size_t)length) != (size_t)length) {
            std::free(out);
            set_err(err, err_size, "ozz: out of memory writing the archive");
            return -1;
        }
        *bytes = out;
        *size = (size_t)length;
        return 0;
    } catch (const std::bad_alloc &) {
        set_err(err, err_size, "ozz: out of memory");
        return -1;
    }
}

extern "C" ozz_shim_sampler *ozz_shim_sampler_create(const uint8_t *bytes, size_t size, int bones, const int *parents,
                                                     int *frames, double *fps, char *err, size_t err_size)
{
    ozz::log::SetLevel(ozz::log::kSilent);
    if (!check_bytes(bytes, size, bones, err, err_size))
        return nullptr;
    ozz_shim_sampler *s = new (std::nothrow) ozz_shim_sampler();
    if (!s) {
        set_err(err, err_size, "out of memory");
        return nullptr;
    }
    try {
        ozz::io::MemoryStream stream;
        if (stream.Write(bytes, size) != size || stream.Seek(0, ozz::io::Stream::kSet) != 0) {
            delete s;
            set_err(err, err_size, "out of memory");
            return nullptr;
        }
        ozz::io::IArchive archive(&stream);
        if (!archive.TestTag<ozz::animation::Animation>()) {
            delete s;
            set_err(err, err_size, "not an ozz animation archive");
            return nullptr;
        }
        archive >> s->animation;
    } catch (const std::bad_alloc &) {
        delete s;
        set_err(err, err_size, "out of memory");
        return nullptr;
    }
    const ozz::animation::Animation &a = s->animation;
    const char *name = a.name();
    double rate = 0;
    char tail = 0;
    if (!name || std::sscanf(name, "fps %lf%c", &rate, &tail) != 1 || !(rate >= 0.1 && rate <= 10000)) {
        delete s;
        set_err(err, err_size, "ozz animation: its name does not give a frame rate (\"fps N\", 0.1 to 10,000)");
        return nullptr;
    }
    // the duration is ozz's float32 of (frames - 1) / fps: a span of 1 can come back as 0.99999994
    const double duration = a.duration(), span = duration * rate;
    if (!(span >= 0.5 && span < 65534.5)) {
        delete s;
        std::snprintf(err, err_size, "ozz animation: %g s at %g fps is not a clip of 2 to 65,535 frames", duration,
                      rate);
        return nullptr;
    }
    const ozz::span<const float> tp = a.timepoints();
    for (size_t i = 0; i < tp.size(); i++)
        if (!(tp[i] >= 0 && tp[i] <= 1) || (i > 0 && !(tp[i] > tp[i - 1]))) {
            delete s;
            std::snprintf(err, err_size, "ozz animation: time point %zu is not within [0, 1] after the one before", i);
            return nullptr;
        }
    const int soa = a.num_soa_tracks();
    if (!check_keys(a.translations_ctrl(), a.translations_values().size(), tp, soa, "translation", err, err_size) ||
        !check_keys(a.rotations_ctrl(), a.rotations_values().size(), tp, soa, "rotation", err, err_size) ||
        !check_keys(a.scales_ctrl(), a.scales_values().size(), tp, soa, "scale", err, err_size)) {
        delete s;
        return nullptr;
    }
    for (const auto &k : a.translations_values())
        for (uint16_t h : k.values)
            if (!half_finite(h)) {
                delete s;
                set_err(err, err_size, "ozz animation: a translation is not finite");
                return nullptr;
            }
    for (const auto &k : a.scales_values())
        for (uint16_t h : k.values)
            if (!half_finite(h)) {
                delete s;
                set_err(err, err_size, "ozz animation: a scale is not finite");
                return nullptr;
            }
    for (const auto &k : a.rotations_values()) {
        const uint32_t packed = uint32_t(k.values[0]) >> 3 | uint32_t(k.values[1]) << 13 | uint32_t(k.values[2]) << 29;
        const int c[3] = {(int)(packed & 0x7fff), (int)((packed >> 15) & 0x7fff), k.values[2] >> 1};
        double sum = 0;
        for (int i = 0; i < 3; i++) {
            const double x = (c[i] / 32767.0 * 2 - 1) / std::sqrt(2.0);
            sum += x * x;
        }
        if (sum > 1.0 + 1e-3) {
            delete s;
            set_err(err, err_size, "ozz animation: a rotation's stored components leave no room for the fourth");
            return nullptr;
        }
    }
    try {
        s->context.Resize(bones);
        s->soa.resize((size_t)soa);
        s->order = skeleton_order(bones, parents);
    } catch (const std::bad_alloc &) {
        delete s;
        set_err(err, err_size, "out of memory");
        return nullptr;
    }
    s->fps = rate;
    s->inv_duration = 1.f / a.duration();
    *frames = (int)std::lround(span) + 1;
    *fps = rate;
    return s;
}

extern "C" void ozz_shim_sample(ozz_shim_sampler *s, double t, float *out)
{
    // the builder's own arithmetic for a key's ratio: its time in float, times 1 / duration
    const float time = (float)(t / s->fps);
    ozz::animation::SamplingJob job;
    job.animation = &s->animation;
    job.context = &s->context;
    job.ratio = time * s->inv_duration;
    job.output = ozz::make_span(s->soa);
    job.Run();
    alignas(16) float lane[10][4];
    const size_t bones = s->order.size();
    for (size_t i = 0; i < s->soa.size(); i++) {
        const ozz::math::SoaTransform &x = s->soa[i];
        ozz::math::StorePtr(x.translation.x, lane[0]);
        ozz::math::StorePtr(x.translation.y, lane[1]);
        ozz::math::StorePtr(x.translation.z, lane[2]);
        ozz::math::StorePtr(x.rotation.x, lane[3]);
        ozz::math::StorePtr(x.rotation.y, lane[4]);
        ozz::math::StorePtr(x.rotation.z, lane[5]);
        ozz::math::StorePtr(x.rotation.w, lane[6]);
        ozz::math::StorePtr(x.scale.x, lane[7]);
        ozz::math::StorePtr(x.scale.y, lane[8]);
        ozz::math::StorePtr(x.scale.z, lane[9]);
        for (size_t j = 0; j < 4 && i * 4 + j < bones; j++) {
            float *o = out + (size_t)s->order[i * 4 + j] * 10;
            for (int v = 0; v < 10; v++)
                o[v] = lane[v][j];
        }
    }
}

extern "C" void ozz_shim_sampler_free(ozz_shim_sampler *s)
{
    delete s;
}
