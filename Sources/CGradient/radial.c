#include "gradient.h"
#include "vectors.h"

#include <math.h>

// pixman's double expressions, term by term; no fused multiply-add.
#pragma STDC FP_CONTRACT OFF

// pixman's `(pixman_fixed_48_16_t) t`: x86-64's truncating conversion, whose result for NaN and
// values out of range is INT64_MIN (C leaves it undefined, so it is spelled out here).
static inline int64_t truncate_parameter(double t) {
  if (!(t > -9.2e18 && t < 9.2e18)) return INT64_MIN;
  return (int64_t)t;
}

static inline uint32_t color_of(const flick_radial_colors *colors, int64_t t) {
  if (t < colors->low) return colors->below;
  if (t > colors->high) return colors->above;
  return colors->table[t - colors->low];
}

// radial_write_color for the pad extend (a != 0): the colour, or 0 where no circle reaches.
static inline uint32_t radial_color(const flick_radial_gradient *g, const flick_radial_colors *colors, double b,
                                    double c) {
  // fdot (b, a, 0, b, -c, 0), term by term.
  double discr = b * b + g->a * -c + 0.0 * 0.0;
  if (discr >= 0) {
    double sqrtdiscr = sqrt(discr);
    double t0 = (b + sqrtdiscr) * g->inva;
    double t1 = (b - sqrtdiscr) * g->inva;
    if (t0 * g->dr >= g->mindr) return color_of(colors, truncate_parameter(t0));
    if (t1 * g->dr >= g->mindr) return color_of(colors, truncate_parameter(t1));
  }
  return 0;
}

// pixman's UN8x4_MUL_UN8_ADD_UN8x4 (pixman-combine32.h): d · (255 − αs) / 255 rounded, plus s,
// saturated, two channels at a time.
static inline uint32_t over(uint32_t s, uint32_t d) {
  uint32_t ia = 255 - (s >> 24);
  uint32_t result = 0;
  for (int shift = 0; shift < 16; shift += 8) {
    uint32_t t = ((d >> shift) & 0x00ff00ff) * ia + 0x00800080;
    t = ((t + ((t >> 8) & 0x00ff00ff)) >> 8) & 0x00ff00ff;
    t += (s >> shift) & 0x00ff00ff;
    t |= 0x10000100 - ((t >> 8) & 0x00ff00ff);
    result |= (t & 0x00ff00ff) << shift;
  }
  return result;
}

#if defined(FLICK_GRADIENT_AVX2)
/// Four int64 lanes as doubles, exactly, when every lane is in [−2^51, 2^51) (then the integer
/// added to the bits of 1.5 · 2^52 is that double's offset from it); *fits is cleared otherwise.
__attribute__((target("avx2"))) static inline __m256d exact_doubles(__m256i x, int *fits) {
  const __m256i bias = _mm256_set1_epi64x((int64_t)1 << 51);
  __m256i high = _mm256_srli_epi64(_mm256_add_epi64(x, bias), 52);
  if (!_mm256_testz_si256(high, high)) *fits = 0;
  const __m256i magic = _mm256_set1_epi64x(0x4338000000000000);
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(x, magic)), _mm256_castsi256_pd(magic));
}

/// over() on four pixels: pixman's exact per-channel arithmetic in 16-bit lanes (d · (255 − αs)
/// + 0x80, plus its high byte, over 256; then a saturated add of s).
__attribute__((target("avx2"))) static inline __m128i over4(__m128i s, __m128i d) {
  const __m128i zero = _mm_setzero_si128(), c255 = _mm_set1_epi16(255), c80 = _mm_set1_epi16(0x80);
  __m128i s_lo = _mm_unpacklo_epi8(s, zero), s_hi = _mm_unpackhi_epi8(s, zero);
  __m128i ia_lo = _mm_sub_epi16(c255, _mm_shufflehi_epi16(_mm_shufflelo_epi16(s_lo, 0xff), 0xff));
  __m128i ia_hi = _mm_sub_epi16(c255, _mm_shufflehi_epi16(_mm_shufflelo_epi16(s_hi, 0xff), 0xff));
  __m128i t_lo = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(d, zero), ia_lo), c80);
  __m128i t_hi = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(d, zero), ia_hi), c80);
  t_lo = _mm_srli_epi16(_mm_add_epi16(t_lo, _mm_srli_epi16(t_lo, 8)), 8);
  t_hi = _mm_srli_epi16(_mm_add_epi16(t_hi, _mm_srli_epi16(t_hi, 8)), 8);
  return _mm_adds_epu8(_mm_packus_epi16(t_lo, t_hi), s);
}

/// flick_radial_over_row's loop on four pixels at a time, while b and c stay below 2^51 in
/// magnitude and the colours below and above the table are its end entries (then a parameter
/// clamped to [low, high] before truncation has the colour the scalar code looks up). The same
/// double operations as radial_color per lane, no fused multiply-add. Returns the pixels done (a
/// multiple of 4) and leaves *ub, *uc, *udc at the state after them.
__attribute__((target("avx2"))) static int radial_row_avx2(uint32_t *row, int width, uint64_t *ub, uint64_t db,
                                                            uint64_t *uc, uint64_t *udc, uint64_t ddc,
                                                            const flick_radial_gradient *g,
                                                            const flick_radial_colors *colors, int clear) {
  if (width < 4 || colors->low <= INT32_MIN || colors->high >= INT32_MAX || colors->below != colors->table[0] ||
      colors->above != colors->table[colors->high - colors->low])
    return 0;
  // Lanes i = 0…3: b + i·db; c and dc after i steps. Every step below is mod 2^64, like pixman's.
  uint64_t b0 = *ub, c0 = *uc, dc0 = *udc;
  uint64_t bl[4], cl[4], dcl[4];
  for (int i = 0; i < 4; i++) {
    bl[i] = b0;
    cl[i] = c0;
    dcl[i] = dc0;
    b0 += db;
    c0 += dc0;
    dc0 += ddc;
  }
  __m256i vb = _mm256_loadu_si256((const __m256i *)bl), vc = _mm256_loadu_si256((const __m256i *)cl);
  __m256i vdc = _mm256_loadu_si256((const __m256i *)dcl);
  const __m256i db4 = _mm256_set1_epi64x((int64_t)(db * 4)), ddc4 = _mm256_set1_epi64x((int64_t)(ddc * 4));
  const __m256i ddc6 = _mm256_set1_epi64x((int64_t)(ddc * 6));
  const __m256d a = _mm256_set1_pd(g->a), inva = _mm256_set1_pd(g->inva), dr = _mm256_set1_pd(g->dr);
  const __m256d mindr = _mm256_set1_pd(g->mindr), zero = _mm256_setzero_pd();
  const __m256d sign = _mm256_set1_pd(-0.0);
  const __m256d low = _mm256_set1_pd((double)colors->low), high = _mm256_set1_pd((double)colors->high);
  const __m256d limit_low = _mm256_set1_pd(-9.2e18), limit_high = _mm256_set1_pd(9.2e18);
  const __m128i lowi = _mm_set1_epi32((int32_t)colors->low);
  const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  int done = 0;
  for (; done + 4 <= width; done += 4) {
    int fits = 1;
    __m256d b = exact_doubles(vb, &fits), c = exact_doubles(vc, &fits);
    if (!fits) break;
    // fdot (b, a, 0, b, -c, 0): b·b + a·(−c) + 0·0.
    __m256d discr = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(b, b), _mm256_mul_pd(a, _mm256_xor_pd(c, sign))), zero);
    __m256d has = _mm256_cmp_pd(discr, zero, _CMP_GE_OQ);
    __m256d root = _mm256_sqrt_pd(discr);
    __m256d t0 = _mm256_mul_pd(_mm256_add_pd(b, root), inva);
    __m256d t1 = _mm256_mul_pd(_mm256_sub_pd(b, root), inva);
    __m256d ok0 = _mm256_cmp_pd(_mm256_mul_pd(t0, dr), mindr, _CMP_GE_OQ);
    __m256d ok1 = _mm256_cmp_pd(_mm256_mul_pd(t1, dr), mindr, _CMP_GE_OQ);
    __m256d t = _mm256_blendv_pd(t1, t0, ok0);
    __m256d valid = _mm256_and_pd(has, _mm256_or_pd(ok0, ok1));
    // truncate_parameter gives INT64_MIN, whose colour is the one below low, to a NaN and to
    // anything outside ±9.2e18: those become low. The rest is clamped into [low, high], which
    // moves no truncated value across either end, then truncated.
    __m256d converts = _mm256_and_pd(_mm256_cmp_pd(t, limit_low, _CMP_GT_OQ), _mm256_cmp_pd(t, limit_high, _CMP_LT_OQ));
    t = _mm256_min_pd(_mm256_max_pd(_mm256_blendv_pd(low, t, converts), low), high);
    __m128i index = _mm_sub_epi32(_mm256_cvttpd_epi32(t), lowi);
    __m128i color = _mm_i32gather_epi32((const int *)colors->table, index, 4);
    __m128i keep = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(valid), pick));
    color = _mm_and_si128(color, keep);
    __m128i *out = (__m128i *)(row + done);
    _mm_storeu_si128(out, clear ? color : over4(color, _mm_loadu_si128(out)));
    vb = _mm256_add_epi64(vb, db4);
    vc = _mm256_add_epi64(vc, _mm256_add_epi64(_mm256_slli_epi64(vdc, 2), ddc6));
    vdc = _mm256_add_epi64(vdc, ddc4);
  }
  // The state after `done` pixels is lane 0's.
  *ub = (uint64_t)_mm256_extract_epi64(vb, 0);
  *uc = (uint64_t)_mm256_extract_epi64(vc, 0);
  *udc = (uint64_t)_mm256_extract_epi64(vdc, 0);
  return done;
}
#endif

void flick_radial_over_row(uint32_t *row, int width, int64_t b, int64_t db, int64_t c, int64_t dc, int64_t ddc,
                           flick_radial_gradient gradient, flick_radial_colors colors, int clear) {
  // pixman keeps b, c and dc in 64-bit integers and lets them wrap; unsigned arithmetic here.
  uint64_t ub = (uint64_t)b, uc = (uint64_t)c, udc = (uint64_t)dc;
#if defined(FLICK_GRADIENT_AVX2)
  if (flick_gradient_uses_avx2()) {
    int done = radial_row_avx2(row, width, &ub, (uint64_t)db, &uc, &udc, (uint64_t)ddc, &gradient, &colors, clear);
    row += done;
    width -= done;
  }
#endif
  if (clear) {
    for (int i = 0; i < width; i++) {
      row[i] = radial_color(&gradient, &colors, (double)(int64_t)ub, (double)(int64_t)uc);
      ub += (uint64_t)db;
      uc += udc;
      udc += (uint64_t)ddc;
    }
    return;
  }
  for (int i = 0; i < width; i++) {
    uint32_t s = radial_color(&gradient, &colors, (double)(int64_t)ub, (double)(int64_t)uc);
    uint32_t alpha = s >> 24;
    if (alpha == 0xff) {
      row[i] = s;
    } else if (s != 0) {
      row[i] = over(s, row[i]);
    }
    ub += (uint64_t)db;
    uc += udc;
    udc += (uint64_t)ddc;
  }
}
