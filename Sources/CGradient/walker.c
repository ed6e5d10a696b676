#include "gradient.h"

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

void flick_gradient_walker_table(flick_gradient_walker *w, int64_t low, int64_t high, uint32_t *out) {
  for (int64_t t = low; t <= high; t++) out[t - low] = flick_gradient_walker_pixel(w, t);
}
