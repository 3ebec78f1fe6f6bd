/* Hot decode loops are compiled twice, for AVX2 and for the baseline, and
 * the loader picks the one the CPU runs.  The results do not change: the
 * operations are elementwise IEEE arithmetic and no multiply-add is fused
 * (-ffp-contract=off).  Sanitizer builds keep one version. */
#ifndef ANIMBENCH_HOT_H
#define ANIMBENCH_HOT_H

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ANIMBENCH_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ANIMBENCH_SANITIZED 1
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(ANIMBENCH_SANITIZED) && \
    !defined(ANIMBENCH_NO_CLONES)
#define HOT_KERNEL __attribute__((target_clones("avx2", "default")))
/* Streaming kernels gain from 512-bit vectors too. */
#define WIDE_KERNEL __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define HOT_KERNEL
#define WIDE_KERNEL
#endif

#endif
