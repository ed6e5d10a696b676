#include "yuv420.h"

#include <stdatomic.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FLICK_YUV_AVX2 1
#endif

/// The widest vectors the loops may use (bits): 256 until flick_yuv420_limit_vectors lowers it.
static _Atomic int vector_limit = 256;

/// The vector width the loops use now: the limit, capped by what this CPU and build have.
static int vector_bits(void) {
  const int limit = atomic_load_explicit(&vector_limit, memory_order_relaxed);
#if defined(FLICK_YUV_AVX2)
  static _Atomic int avx2 = -1;
  int has = atomic_load_explicit(&avx2, memory_order_relaxed);
  if (has < 0) {
    has = __builtin_cpu_supports("avx2") ? 1 : 0;
    atomic_store_explicit(&avx2, has, memory_order_relaxed);
  }
  if (limit >= 256 && has) return 256;
#endif
#if defined(__SSE2__)
  if (limit >= 128) return 128;
#endif
  return 0;
}

int flick_yuv420_limit_vectors(int bits) {
  atomic_store_explicit(&vector_limit, bits, memory_order_relaxed);
  return vector_bits();
}

#if defined(FLICK_YUV_AVX2)
// The SSE2 loops' arithmetic on sixteen pixels (values) at a time: the same instructions on
// 256-bit registers, whose two 128-bit lanes each do what the SSE2 loop does, then permutes that
// put the lanes' results back in order. The integers are the SSE2 loop's, so the bytes are too.
#define FLICK_PAIRWISE256(a, b)                                                                  \
  _mm256_add_epi32(                                                                              \
      _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0x88)), \
      _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0xDD)))

/// flick_yuv420_row's vector loop; returns the pixels done (a multiple of 16).
__attribute__((target("avx2"))) static int row_avx2(const uint8_t *restrict pixels, int count,
                                                    flick_yuv_coefficients y, flick_yuv_coefficients u,
                                                    flick_yuv_coefficients v, uint8_t *restrict luma,
                                                    int16_t *restrict cb, int16_t *restrict cr) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i cy = _mm256_setr_epi16(y.b, y.g, y.r, 0, y.b, y.g, y.r, 0, y.b, y.g, y.r, 0, y.b, y.g, y.r, 0);
  const __m256i cu = _mm256_setr_epi16(u.b, u.g, u.r, 0, u.b, u.g, u.r, 0, u.b, u.g, u.r, 0, u.b, u.g, u.r, 0);
  const __m256i cv = _mm256_setr_epi16(v.b, v.g, v.r, 0, v.b, v.g, v.r, 0, v.b, v.g, v.r, 0, v.b, v.g, v.r, 0);
  const __m256i yOffset = _mm256_set1_epi32(0x84100);
  const __m256i cOffset = _mm256_set1_epi32(0x800200);
  // After packing, the chroma of pairs 0 1 4 5 | 2 3 6 7 sits in 32-bit units (two 16-bit values
  // each): this gather puts Cb 0-7 in the low half and Cr 0-7 in the high half.
  const __m256i chromaOrder = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  int x = 0;
  for (; x + 16 <= count; x += 16) {
    const __m256i p0 = _mm256_loadu_si256((const __m256i *)(pixels + 4 * x));       // pixels 0-7
    const __m256i p1 = _mm256_loadu_si256((const __m256i *)(pixels + 4 * x + 32));  // pixels 8-15
    const __m256i w0 = _mm256_unpacklo_epi8(p0, zero);  // pixels 0-1 | 4-5
    const __m256i w1 = _mm256_unpackhi_epi8(p0, zero);  // 2-3 | 6-7
    const __m256i w2 = _mm256_unpacklo_epi8(p1, zero);  // 8-9 | 12-13
    const __m256i w3 = _mm256_unpackhi_epi8(p1, zero);  // 10-11 | 14-15
    __m256i y0 = FLICK_PAIRWISE256(_mm256_madd_epi16(w0, cy), _mm256_madd_epi16(w1, cy));  // 0-3 | 4-7
    __m256i y1 = FLICK_PAIRWISE256(_mm256_madd_epi16(w2, cy), _mm256_madd_epi16(w3, cy));  // 8-11 | 12-15
    y0 = _mm256_srai_epi32(_mm256_add_epi32(y0, yOffset), 15);
    y1 = _mm256_srai_epi32(_mm256_add_epi32(y1, yOffset), 15);
    // packs: 0-3 8-11 | 4-7 12-15; the permute: 0-7 | 8-15.
    const __m256i y16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(y0, y1), 0xD8);
    _mm_storeu_si128((__m128i *)(luma + x),
                     _mm_packus_epi16(_mm256_castsi256_si128(y16), _mm256_extracti128_si256(y16, 1)));
    const __m256i s01 = _mm256_unpacklo_epi64(_mm256_add_epi16(w0, _mm256_srli_si256(w0, 8)),
                                              _mm256_add_epi16(w1, _mm256_srli_si256(w1, 8)));
    const __m256i s23 = _mm256_unpacklo_epi64(_mm256_add_epi16(w2, _mm256_srli_si256(w2, 8)),
                                              _mm256_add_epi16(w3, _mm256_srli_si256(w3, 8)));
    __m256i us = FLICK_PAIRWISE256(_mm256_madd_epi16(s01, cu), _mm256_madd_epi16(s23, cu));
    __m256i vs = FLICK_PAIRWISE256(_mm256_madd_epi16(s01, cv), _mm256_madd_epi16(s23, cv));
    us = _mm256_slli_epi32(_mm256_srai_epi32(_mm256_add_epi32(us, cOffset), 10), 1);
    vs = _mm256_slli_epi32(_mm256_srai_epi32(_mm256_add_epi32(vs, cOffset), 10), 1);
    const __m256i uv = _mm256_permutevar8x32_epi32(_mm256_packs_epi32(us, vs), chromaOrder);
    _mm_storeu_si128((__m128i *)(cb + x / 2), _mm256_castsi256_si128(uv));
    _mm_storeu_si128((__m128i *)(cr + x / 2), _mm256_extracti128_si256(uv, 1));
  }
  return x;
}
#undef FLICK_PAIRWISE256

/// flick_yuv420_filter_row's vector loop; returns the values done (a multiple of 16, 0 for a
/// filter of more than 64 taps, left to the other loops). Each pair of taps' coefficients is
/// broadcast once per row, not once per sixteen values, and a last odd tap is added on its own:
/// the same products and sums, so the same bytes.
__attribute__((target("avx2"))) static int filter_row_avx2(const int16_t *const *rows, int width,
                                                           const int16_t *restrict coefficients, int taps,
                                                           uint8_t *restrict out) {
  enum { most_pairs = 32 };
  if (taps > 2 * most_pairs) return 0;
  __m256i pair_coefficients[most_pairs];
  const int pairs = taps / 2;
  for (int p = 0; p < pairs; p++) {
    const uint16_t c0 = (uint16_t)coefficients[2 * p], c1 = (uint16_t)coefficients[2 * p + 1];
    pair_coefficients[p] = _mm256_set1_epi32((int32_t)((uint32_t)c0 | (uint32_t)c1 << 16));
  }
  const int odd = taps & 1;
  const __m256i last = _mm256_set1_epi32((int32_t)(uint16_t)(odd ? coefficients[taps - 1] : 0));
  const __m256i zero = _mm256_setzero_si256();
  int x = 0;
  for (; x + 16 <= width; x += 16) {
    __m256i low = _mm256_set1_epi32(64 << 12), high = low;
    for (int p = 0; p < pairs; p++) {
      const __m256i a = _mm256_loadu_si256((const __m256i *)(rows[2 * p] + x));
      const __m256i b = _mm256_loadu_si256((const __m256i *)(rows[2 * p + 1] + x));
      // low: values 0-3 | 8-11, high: 4-7 | 12-15.
      low = _mm256_add_epi32(low, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), pair_coefficients[p]));
      high = _mm256_add_epi32(high, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), pair_coefficients[p]));
    }
    if (odd) {
      const __m256i a = _mm256_loadu_si256((const __m256i *)(rows[taps - 1] + x));
      low = _mm256_add_epi32(low, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, zero), last));
      high = _mm256_add_epi32(high, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, zero), last));
    }
    // packs: 0-7 | 8-15, already in order.
    const __m256i packed = _mm256_packs_epi32(_mm256_srai_epi32(low, 19), _mm256_srai_epi32(high, 19));
    _mm_storeu_si128((__m128i *)(out + x),
                     _mm_packus_epi16(_mm256_castsi256_si128(packed), _mm256_extracti128_si256(packed, 1)));
  }
  return x;
}
#endif

static inline uint8_t flick_clamp_byte(int32_t value) {
  return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

void flick_yuv420_row(const uint8_t *restrict pixels, int count, flick_yuv_coefficients y, flick_yuv_coefficients u,
                      flick_yuv_coefficients v, uint8_t *restrict luma, int16_t *restrict cb, int16_t *restrict cr) {
  const int bits = vector_bits();
  int x = 0;
#if defined(FLICK_YUV_AVX2)
  if (bits >= 256) x = row_avx2(pixels, count, y, u, v, luma, cb, cr);
#endif
#if defined(__SSE2__)
  // Eight pixels at a time. Bytes widen to 16 bits (b, g, r, a per pixel); pmaddwd against
  // (B, G, R, 0) gives b·B + g·G and r·R per pixel, and the even and odd 32-bit lanes added
  // make each pixel's sum. A pair's chroma comes from the pair's summed channels the same way.
  const __m128i zero = _mm_setzero_si128();
  const __m128i cy = _mm_setr_epi16(y.b, y.g, y.r, 0, y.b, y.g, y.r, 0);
  const __m128i cu = _mm_setr_epi16(u.b, u.g, u.r, 0, u.b, u.g, u.r, 0);
  const __m128i cv = _mm_setr_epi16(v.b, v.g, v.r, 0, v.b, v.g, v.r, 0);
  const __m128i yOffset = _mm_set1_epi32(0x84100);
  const __m128i cOffset = _mm_set1_epi32(0x800200);
  for (; bits >= 128 && x + 8 <= count; x += 8) {
    const __m128i p0 = _mm_loadu_si128((const __m128i *)(pixels + 4 * x));
    const __m128i p1 = _mm_loadu_si128((const __m128i *)(pixels + 4 * x + 16));
    const __m128i w0 = _mm_unpacklo_epi8(p0, zero), w1 = _mm_unpackhi_epi8(p0, zero);  // pixels 0-1, 2-3
    const __m128i w2 = _mm_unpacklo_epi8(p1, zero), w3 = _mm_unpackhi_epi8(p1, zero);  // pixels 4-5, 6-7
#define FLICK_PAIRWISE(a, b)                                                                          \
  _mm_add_epi32(_mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), 0x88)), \
                _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), 0xDD)))
    __m128i y0 = FLICK_PAIRWISE(_mm_madd_epi16(w0, cy), _mm_madd_epi16(w1, cy));
    __m128i y1 = FLICK_PAIRWISE(_mm_madd_epi16(w2, cy), _mm_madd_epi16(w3, cy));
    y0 = _mm_srai_epi32(_mm_add_epi32(y0, yOffset), 15);
    y1 = _mm_srai_epi32(_mm_add_epi32(y1, yOffset), 15);
    const __m128i y16 = _mm_packs_epi32(y0, y1);
    _mm_storel_epi64((__m128i *)(luma + x), _mm_packus_epi16(y16, y16));
    // Pair sums: the low four lanes plus the high four of each widened pair of pixels.
    const __m128i s01 = _mm_unpacklo_epi64(_mm_add_epi16(w0, _mm_srli_si128(w0, 8)), _mm_add_epi16(w1, _mm_srli_si128(w1, 8)));
    const __m128i s23 = _mm_unpacklo_epi64(_mm_add_epi16(w2, _mm_srli_si128(w2, 8)), _mm_add_epi16(w3, _mm_srli_si128(w3, 8)));
    __m128i us = FLICK_PAIRWISE(_mm_madd_epi16(s01, cu), _mm_madd_epi16(s23, cu));
    __m128i vs = FLICK_PAIRWISE(_mm_madd_epi16(s01, cv), _mm_madd_epi16(s23, cv));
#undef FLICK_PAIRWISE
    us = _mm_slli_epi32(_mm_srai_epi32(_mm_add_epi32(us, cOffset), 10), 1);
    vs = _mm_slli_epi32(_mm_srai_epi32(_mm_add_epi32(vs, cOffset), 10), 1);
    const __m128i uv = _mm_packs_epi32(us, vs);
    _mm_storel_epi64((__m128i *)(cb + x / 2), uv);
    _mm_storel_epi64((__m128i *)(cr + x / 2), _mm_srli_si128(uv, 8));
  }
#endif
  for (; x + 1 < count; x += 2) {
    const uint8_t *p = pixels + 4 * x;
    const int32_t b0 = p[0], g0 = p[1], r0 = p[2], b1 = p[4], g1 = p[5], r1 = p[6];
    luma[x] = (uint8_t)((y.r * r0 + y.g * g0 + y.b * b0 + 0x84100) >> 15);
    luma[x + 1] = (uint8_t)((y.r * r1 + y.g * g1 + y.b * b1 + 0x84100) >> 15);
    const int32_t bs = b0 + b1, gs = g0 + g1, rs = r0 + r1;
    cb[x / 2] = (int16_t)(((u.r * rs + u.g * gs + u.b * bs + 0x800200) >> 10) * 2);
    cr[x / 2] = (int16_t)(((v.r * rs + v.g * gs + v.b * bs + 0x800200) >> 10) * 2);
  }
}

void flick_yuv420_filter_row(const int16_t *const *rows, int width, const int16_t *restrict coefficients, int taps,
                             uint8_t *restrict out) {
  const int bits = vector_bits();
  int x = 0;
#if defined(FLICK_YUV_AVX2)
  if (bits >= 256) x = filter_row_avx2(rows, width, coefficients, taps, out);
#endif
#if defined(__SSE2__)
  // Eight values at a time, two taps per pmaddwd: the two rows interleaved, against the two
  // coefficients (libswscale's yuv2planeX_8 does the same; its taps come in pairs on x86).
  for (; bits >= 128 && x + 8 <= width; x += 8) {
    __m128i low = _mm_set1_epi32(64 << 12), high = low;
    for (int t = 0; t < taps; t += 2) {
      const __m128i a = _mm_loadu_si128((const __m128i *)(rows[t] + x));
      const int pair = t + 1 < taps;
      const __m128i b = pair ? _mm_loadu_si128((const __m128i *)(rows[t + 1] + x)) : _mm_setzero_si128();
      const uint16_t c0 = (uint16_t)coefficients[t], c1 = pair ? (uint16_t)coefficients[t + 1] : 0;
      const __m128i c = _mm_set1_epi32((int32_t)((uint32_t)c0 | (uint32_t)c1 << 16));
      low = _mm_add_epi32(low, _mm_madd_epi16(_mm_unpacklo_epi16(a, b), c));
      high = _mm_add_epi32(high, _mm_madd_epi16(_mm_unpackhi_epi16(a, b), c));
    }
    const __m128i packed = _mm_packs_epi32(_mm_srai_epi32(low, 19), _mm_srai_epi32(high, 19));
    _mm_storel_epi64((__m128i *)(out + x), _mm_packus_epi16(packed, packed));
  }
#endif
  for (; x < width; x++) {
    uint32_t sum = 64u << 12;
    for (int t = 0; t < taps; t++) sum += (uint32_t)(coefficients[t] * rows[t][x]);
    out[x] = flick_clamp_byte((int32_t)sum >> 19);
  }
}

/// Source row `row` of a frame through the horizontal stage: its luma into `out`, its chroma
/// into the rings' slot for it.
static inline void frame_row(const uint8_t *pixels, int width, int row, flick_yuv_coefficients y,
                             flick_yuv_coefficients u, flick_yuv_coefficients v, const flick_yuv_chroma_filter *filter,
                             int16_t *cb_ring, int16_t *cr_ring, uint8_t *out) {
  const long slot = (long)(row % filter->ring_rows) * (width / 2);
  flick_yuv420_row(pixels + (long)row * width * 4, width, y, u, v, out + (long)row * width, cb_ring + slot,
                   cr_ring + slot);
}

void flick_yuv420_frame(const uint8_t *pixels, int width, int height, flick_yuv_coefficients y,
                        flick_yuv_coefficients u, flick_yuv_coefficients v, const flick_yuv_chroma_filter *filter,
                        int16_t *cb_ring, int16_t *cr_ring, uint8_t *out) {
  enum { most_taps = 64 };
  if (filter->taps > most_taps) return;  // the caller's contract (YUV420Converter checks it)
  const int half = width / 2, ring = filter->ring_rows, taps = filter->taps;
  uint8_t *const planes[2] = {out + (long)width * height, out + (long)width * height + (long)half * (height / 2)};
  int16_t *const rings[2] = {cb_ring, cr_ring};
  const int16_t *rows[most_taps];
  int converted = 0;
  for (int row = 0; row < height / 2; row++) {
    const int first = filter->start[row], count = filter->available[row];
    // Every source row up to the last tap of this output row, through the horizontal stage.
    for (; converted < first + count; converted++) {
      frame_row(pixels, width, converted, y, u, v, filter, cb_ring, cr_ring, out);
    }
    for (int plane = 0; plane < 2; plane++) {
      for (int tap = 0; tap < count; tap++) rows[tap] = rings[plane] + (long)((first + tap) % ring) * half;
      flick_yuv420_filter_row(rows, half, filter->coefficients + (long)row * taps, count,
                              planes[plane] + (long)row * half);
    }
  }
  // Luma of the rows no chroma row reached.
  for (; converted < height; converted++) {
    frame_row(pixels, width, converted, y, u, v, filter, cb_ring, cr_ring, out);
  }
}
