#include "gradient.h"
#include "vectors.h"

#include <float.h>

// pixman's float expressions, term by term; no fused multiply-add.
#pragma STDC FP_CONTRACT OFF

static void reset(flick_gradient_walker *w, int64_t pos) {
  // Index 0 is the lower sentinel: search the real stops, then step back one.
  int n = 1;
  while (n < w->count + 1 && pos >= w->x[n]) n++;
  int left = n - 1, right = n;
  const float inv = 1.0f / 257.0f;
  float la = (float)w->alpha[left] * inv, ra = (float)w->alpha[right] * inv;
  float lr = (float)w->red[left] * inv, rr = (float)w->red[right] * inv;
  float lg = (float)w->green[left] * inv, rg = (float)w->green[right] * inv;
  float lb = (float)w->blue[left] * inv, rb = (float)w->blue[right] * inv;
  const float inv65536 = 1.0f / 65536.0f;
  float lx = (float)w->x[left] * inv65536;
  float rx = (float)w->x[right] * inv65536;
  float width = rx - lx;
  if ((-FLT_MIN < width && width < FLT_MIN) || w->x[left] == INT32_MIN || w->x[right] == INT32_MAX) {
    w->a_s = w->r_s = w->g_s = w->b_s = 0;
    w->a_b = (la + ra) / 510.0f;
    w->r_b = (lr + rr) / 510.0f;
    w->g_b = (lg + rg) / 510.0f;
    w->b_b = (lb + rb) / 510.0f;
  } else {
    float w_rec = 1.0f / width;
    const float inv255 = 1.0f / 255.0f;
    w->a_b = (la * rx - ra * lx) * w_rec * inv255;
    w->r_b = (lr * rx - rr * lx) * w_rec * inv255;
    w->g_b = (lg * rx - rg * lx) * w_rec * inv255;
    w->b_b = (lb * rx - rb * lx) * w_rec * inv255;
    w->a_s = (ra - la) * w_rec * inv255;
    w->r_s = (rr - lr) * w_rec * inv255;
    w->g_s = (rg - lg) * w_rec * inv255;
    w->b_s = (rb - lb) * w_rec * inv255;
  }
  w->left_x = w->x[left];
  w->right_x = w->x[right];
  w->needs_reset = 0;
}

static inline uint32_t byte(float v) { return (uint32_t)(int32_t)(v + 0.5f) & 0xff; }

uint32_t flick_gradient_walker_pixel(flick_gradient_walker *w, int64_t t) {
  if (w->needs_reset || t < w->left_x || t >= w->right_x) reset(w, t);
  float y = (float)t * (1.0f / 65536.0f);
  float fa = 255 * (w->a_s * y + w->a_b);
  float fr = fa * (w->r_s * y + w->r_b);
  float fg = fa * (w->g_s * y + w->g_b);
  float fb = fa * (w->b_s * y + w->b_b);
  return byte(fa) << 24 | byte(fr) << 16 | byte(fg) << 8 | byte(fb);
}

#if defined(FLICK_GRADIENT_AVX2)
/// flick_gradient_walker_pixel for `count` consecutive t from `first`, all between the walker's
/// current stops: the same float operations on eight t at a time (each t converts to float
/// exactly, as |t| < 2^24; no fused multiply-add), truncated to bytes as the scalar code does.
/// Returns the values done (a multiple of 8).
__attribute__((target("avx2"))) static int64_t segment_avx2(const flick_gradient_walker *w, int64_t first,
                                                            int64_t count, uint32_t *out) {
  const __m256 k = _mm256_set1_ps(1.0f / 65536.0f), c255 = _mm256_set1_ps(255.0f), half = _mm256_set1_ps(0.5f);
  const __m256 as = _mm256_set1_ps(w->a_s), ab = _mm256_set1_ps(w->a_b);
  const __m256 rs = _mm256_set1_ps(w->r_s), rb = _mm256_set1_ps(w->r_b);
  const __m256 gs = _mm256_set1_ps(w->g_s), gb = _mm256_set1_ps(w->g_b);
  const __m256 bs = _mm256_set1_ps(w->b_s), bb = _mm256_set1_ps(w->b_b);
  const __m256i mask = _mm256_set1_epi32(0xff), step = _mm256_set1_epi32(8);
  __m256i t = _mm256_add_epi32(_mm256_set1_epi32((int32_t)first), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  int64_t done = 0;
  for (; done + 8 <= count; done += 8) {
    __m256 y = _mm256_mul_ps(_mm256_cvtepi32_ps(t), k);
    __m256 fa = _mm256_mul_ps(c255, _mm256_add_ps(_mm256_mul_ps(as, y), ab));
    __m256 fr = _mm256_mul_ps(fa, _mm256_add_ps(_mm256_mul_ps(rs, y), rb));
    __m256 fg = _mm256_mul_ps(fa, _mm256_add_ps(_mm256_mul_ps(gs, y), gb));
    __m256 fb = _mm256_mul_ps(fa, _mm256_add_ps(_mm256_mul_ps(bs, y), bb));
    __m256i a = _mm256_and_si256(_mm256_cvttps_epi32(_mm256_add_ps(fa, half)), mask);
    __m256i r = _mm256_and_si256(_mm256_cvttps_epi32(_mm256_add_ps(fr, half)), mask);
    __m256i g = _mm256_and_si256(_mm256_cvttps_epi32(_mm256_add_ps(fg, half)), mask);
    __m256i b = _mm256_and_si256(_mm256_cvttps_epi32(_mm256_add_ps(fb, half)), mask);
    __m256i argb = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32(a, 24), _mm256_slli_epi32(r, 16)),
                                   _mm256_or_si256(_mm256_slli_epi32(g, 8), b));
    _mm256_storeu_si256((__m256i *)(out + done), argb);
    t = _mm256_add_epi32(t, step);
  }
  return done;
}
#endif

void flick_gradient_walker_table(flick_gradient_walker *w, int64_t low, int64_t high, uint32_t *out) {
#if defined(FLICK_GRADIENT_AVX2)
  // Each t's float is exact below 2^24, so the vector loop's products are the scalar loop's.
  if (flick_gradient_uses_avx2() && low > -(1 << 24) && high < (1 << 24)) {
    int64_t t = low;
    while (t <= high) {
      // The scalar pixel puts the walker on t's stops; the t after it up to their right end
      // share its coefficients.
      out[t - low] = flick_gradient_walker_pixel(w, t);
      t++;
      int64_t end = w->right_x - 1 < high ? w->right_x - 1 : high;
      if (t <= end) t += segment_avx2(w, t, end - t + 1, out + (t - low));
      for (; t <= end; t++) out[t - low] = flick_gradient_walker_pixel(w, t);
    }
    return;
  }
#endif
  for (int64_t t = low; t <= high; t++) out[t - low] = flick_gradient_walker_pixel(w, t);
}
