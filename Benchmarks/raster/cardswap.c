/*
 * cardswap.c: the hand-written C reference for Flick's raster benchmark.
 *
 * Draws a card-swap-like frame with Cairo and Pango, one thread, the way a
 * straightforward C program would: every frame repaints the whole canvas.
 * With --cached it keeps what does not change between frames (background
 * surface while the gradient rests, text layouts, shadow surfaces) and must
 * produce byte-identical frames (check with --checksum).
 *
 * The scene is designed at 1920x1080; other sizes scale it uniformly.
 * Time is an input: frame i is drawn at t = i / 60 s. The clock is read only
 * to measure.
 *
 * Build: gcc -O2 cardswap.c $(pkg-config --cflags --libs cairo pangocairo) -lm
 * Usage: cardswap [--frames N] [--start I] [--width W --height H] [--png out.png]
 *                 [--split] [--cached] [--checksum] [--image in.png] [--write-image out.png]
 */
#define _DEFAULT_SOURCE
#include <cairo.h>
#include <pango/pangocairo.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* ---------------------------------------------------------------- scene --- */

#define DESIGN_W 1920.0
#define DESIGN_H 1080.0
#define FPS 60.0

#define CARD_W 400.0
#define CARD_H 520.0
#define CARD_RADIUS 36.0
#define CARD_PITCH 448.0 /* card width + 48 px gap */
#define CARD_CENTER_Y 540.0

#define CYCLE 3.0      /* seconds per swap cycle */
#define REST 2.25      /* seconds at rest at the start of each cycle */
#define SWAP 0.75      /* seconds of swap at the end of each cycle */
#define LIFT 84.0      /* px the travelling card rises at mid-swap */
#define FLOAT_AMP 8.0  /* px of idle vertical float */
#define FLOAT_PERIOD 3.0

#define SHADOW_RADIUS 36.0 /* Core Animation shadowRadius; sigma = radius / 2 */
#define SHADOW_OFFSET_Y 28.0
#define SHADOW_ALPHA 0.45
#define SHADOW_R 0x05 /* shadow colour #05060F */
#define SHADOW_G 0x06
#define SHADOW_B 0x0F
#define SHADOW_SCALE 4 /* blur at 1/4 resolution */

#define IMAGE_SIZE 512
#define IMAGE_CLIP_INSET 40.0
#define IMAGE_CLIP_SIZE 320.0
#define IMAGE_CLIP_RADIUS 24.0

#define RING_RADIUS 110.0
#define RING_WIDTH 20.0

enum content { CONTENT_IMAGE_TEXT, CONTENT_RING, CONTENT_NONE };

typedef struct {
  double r, g, b;
} rgb;

typedef struct {
  const char *name;
  uint32_t from, to; /* card fill gradient, top-left to bottom-right */
  enum content content;
} card_def;

static const card_def CARDS[4] = {
    {"Aurora", 0x7F5AF0, 0x2CB1BC, CONTENT_IMAGE_TEXT},
    {"Ember", 0xFF8A5B, 0xE8456B, CONTENT_RING},
    {"Lagoon", 0x3A86FF, 0x00C2A8, CONTENT_NONE},
    {"Citrus", 0xFFC857, 0xF4845F, CONTENT_NONE},
};

static const char *TITLE = "Northern Lights";
static const char *SUBTITLE = "Swap \xC2\xB7 Scale \xC2\xB7 Rotate";
#define TITLE_SIZE 40.0
#define SUBTITLE_SIZE 24.0
#define TEXT_X 40.0
#define TITLE_Y 390.0
#define SUBTITLE_Y 444.0

static rgb hex(uint32_t v) {
  rgb c = {((v >> 16) & 0xFF) / 255.0, ((v >> 8) & 0xFF) / 255.0, (v & 0xFF) / 255.0};
  return c;
}

static rgb mix(rgb a, rgb b, double f) {
  rgb c = {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
  return c;
}

/* Cubic Bezier timing (Core Animation easeInEaseOut = 0.42, 0, 0.58, 1). */
static double bezier_coord(double p1, double p2, double s) {
  double c = 3.0 * p1, b = 3.0 * (p2 - p1) - c, a = 1.0 - c - b;
  return ((a * s + b) * s + c) * s;
}

static double bezier_slope(double p1, double p2, double s) {
  double c = 3.0 * p1, b = 3.0 * (p2 - p1) - c, a = 1.0 - c - b;
  return (3.0 * a * s + 2.0 * b) * s + c;
}

static double ease_in_ease_out(double x) {
  const double x1 = 0.42, y1 = 0.0, x2 = 0.58, y2 = 1.0;
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  double s = x;
  for (int i = 0; i < 8; i++) {
    double err = bezier_coord(x1, x2, s) - x;
    if (fabs(err) < 1e-7) return bezier_coord(y1, y2, s);
    double d = bezier_slope(x1, x2, s);
    if (fabs(d) < 1e-6) break;
    s -= err / d;
  }
  double lo = 0.0, hi = 1.0;
  s = x;
  while (lo < hi && hi - lo > 1e-7) {
    double v = bezier_coord(x1, x2, s);
    if (fabs(v - x) < 1e-7) break;
    if (x > v) lo = s; else hi = s;
    s = (lo + hi) / 2.0;
  }
  return bezier_coord(y1, y2, s);
}

static double slot_center_x(double slot) { return DESIGN_W / 2.0 + (slot - 1.5) * CARD_PITCH; }

/* Everything that animates, evaluated from t alone. */
typedef struct {
  double x[4], y[4];     /* card top-left corner, design px, by card index */
  int draw_order[4];     /* card indices, back to front */
  rgb bg[3];             /* background stops at 0, 0.55, 1 */
  double image_angle;    /* radians */
  double image_scale;
  double ring_progress;  /* 0...1 */
} frame_state;

static void background_stops(int featured, rgb out[3]) {
  rgb a = hex(CARDS[featured].from), b = hex(CARDS[featured].to);
  out[0] = hex(0x0B1022);
  out[1] = mix(hex(0x161B3D), a, 0.18);
  out[2] = mix(hex(0x1B1F4A), b, 0.45);
}

static void scene_at(double t, frame_state *st) {
  double cycles = floor(t / CYCLE);
  double u = t - cycles * CYCLE;
  int first = (int)fmod(cycles, 4.0);
  double s = u < REST ? 0.0 : ease_in_ease_out((u - REST) / SWAP);

  int n = 0;
  for (int slot = 1; slot < 4; slot++) {
    int idx = (first + slot) % 4;
    st->x[idx] = slot_center_x(slot + (0.0 - 1.0) * s) - CARD_W / 2.0;
    st->y[idx] = CARD_CENTER_Y - CARD_H / 2.0;
    st->draw_order[n++] = idx;
  }
  /* The leftmost card travels over the others to the right end. */
  st->x[first] = slot_center_x(0.0 + 3.0 * s) - CARD_W / 2.0;
  st->y[first] = CARD_CENTER_Y - CARD_H / 2.0 - LIFT * sin(M_PI * s);
  st->draw_order[n] = first;

  for (int i = 0; i < 4; i++)
    st->y[i] += FLOAT_AMP * sin(2.0 * M_PI * (t / FLOAT_PERIOD + i / 4.0));

  rgb from[3], to[3];
  background_stops(first, from);
  background_stops((first + 1) % 4, to);
  for (int k = 0; k < 3; k++) st->bg[k] = mix(from[k], to[k], s);

  st->image_angle = 0.06 * sin(2.0 * M_PI * t / 6.0);
  st->image_scale = 0.70 + 0.03 * sin(2.0 * M_PI * t / 5.0);
  st->ring_progress = 0.12 + 0.83 * (0.5 - 0.5 * cos(2.0 * M_PI * t / 5.0));
}

/* --------------------------------------------------------- the image --- */

static double smoothstep(double e0, double e1, double x) {
  double v = (x - e0) / (e1 - e0);
  v = v < 0 ? 0 : v > 1 ? 1 : v;
  return v * v * (3.0 - 2.0 * v);
}

static uint32_t hash2(uint32_t x, uint32_t y) {
  uint32_t h = x * 374761393u + y * 668265263u;
  h = (h ^ (h >> 13)) * 1274126177u;
  return h ^ (h >> 16);
}

static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

/* A 512x512 opaque night landscape with aurora bands, computed per pixel. */
static cairo_surface_t *make_image(void) {
  cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, IMAGE_SIZE, IMAGE_SIZE);
  unsigned char *data = cairo_image_surface_get_data(img);
  int stride = cairo_image_surface_get_stride(img);
  for (int y = 0; y < IMAGE_SIZE; y++) {
    uint32_t *row = (uint32_t *)(data + (size_t)y * stride);
    for (int x = 0; x < IMAGE_SIZE; x++) {
      double fx = x + 0.5, fy = y + 0.5;
      /* sky */
      double v = fy / IMAGE_SIZE;
      rgb c = mix(hex(0x070B1F), hex(0x1D2A5C), smoothstep(0.0, 0.75, v));
      /* aurora: three curtains with fine vertical rays */
      static const uint32_t tint[3] = {0x3CF2A6, 0x5FD4FF, 0xA77BFF};
      for (int b = 0; b < 3; b++) {
        double yc = 150.0 + 44.0 * b + 34.0 * sin(fx / 88.0 + 1.3 * b) + 14.0 * sin(fx / 31.0 + 2.1 * b);
        double width = 26.0 + 10.0 * b;
        double dy = fy - yc;
        /* curtains fade upward slowly and end sharply at their lower edge */
        double shape = dy < 0 ? exp(-(dy * dy) / (2.0 * width * width * 2.2)) : exp(-(dy * dy) / (2.0 * 9.0 * 9.0));
        double rays = 0.72 + 0.28 * sin(fx / 5.3 + 3.0 * sin(fx / 41.0 + b));
        double pulse = 0.55 + 0.45 * sin(fx / 73.0 + 2.4 * b);
        double k = shape * rays * pulse * (b == 0 ? 0.95 : 0.7);
        rgb tc = hex(tint[b]);
        c.r += tc.r * k * 0.8;
        c.g += tc.g * k * 0.8;
        c.b += tc.b * k * 0.8;
      }
      /* stars */
      uint32_t h = hash2((uint32_t)x, (uint32_t)y);
      if ((h & 1023u) < 3u) {
        double tw = 0.35 + 0.65 * ((h >> 10) & 255u) / 255.0;
        double fade = 1.0 - smoothstep(250.0, 360.0, fy);
        c.r += tw * fade; c.g += tw * fade; c.b += tw * fade;
      }
      /* far ridge, then near ridge, antialiased over one pixel */
      double far = 352.0 + 26.0 * sin(fx / 61.0 + 0.7) + 14.0 * sin(fx / 23.0 + 2.0) + 7.0 * sin(fx / 9.0);
      double near = 408.0 + 34.0 * sin(fx / 97.0 + 2.6) + 12.0 * sin(fx / 29.0 + 0.4) + 5.0 * sin(fx / 7.0 + 1.0);
      double a_far = smoothstep(far - 0.5, far + 0.5, fy);
      double a_near = smoothstep(near - 0.5, near + 0.5, fy);
      rgb far_c = mix(hex(0x1A2348), hex(0x10162F), smoothstep(far, 512.0, fy));
      rgb near_c = mix(hex(0x0C1126), hex(0x060914), smoothstep(near, 512.0, fy));
      c = mix(c, far_c, a_far);
      c = mix(c, near_c, a_near);
      uint32_t r = (uint32_t)lround(clamp01(c.r) * 255.0);
      uint32_t g = (uint32_t)lround(clamp01(c.g) * 255.0);
      uint32_t bl = (uint32_t)lround(clamp01(c.b) * 255.0);
      row[x] = 0xFF000000u | (r << 16) | (g << 8) | bl;
    }
  }
  cairo_surface_mark_dirty(img);
  return img;
}

/* ------------------------------------------------------------- timing --- */

enum stage { ST_BACKGROUND, ST_SHADOW, ST_FILL, ST_IMAGE, ST_TEXT, ST_RING, ST_COUNT };
static const char *STAGE_NAMES[ST_COUNT] = {"background", "shadow", "fill", "image", "text", "ring"};

static double now_ms(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct {
  int enabled;
  double started;
  double total[ST_COUNT];
} stage_timer;

/* Stages are timed in thread CPU time, so that preemption on a busy machine does not
   land in whichever stage happened to be running (about 1 us per reading). */
static void stage_begin(stage_timer *tm) {
  if (tm->enabled) tm->started = now_ms(CLOCK_THREAD_CPUTIME_ID);
}

static void stage_end(stage_timer *tm, enum stage s) {
  if (tm->enabled) tm->total[s] += now_ms(CLOCK_THREAD_CPUTIME_ID) - tm->started;
}

/* ------------------------------------------------------------ drawing --- */

typedef struct {
  double scale; /* device px per design px */
  double offset_x, offset_y;
  int cached;
  cairo_surface_t *image;
  /* cache (only used with --cached) */
  cairo_surface_t *bg_cache;
  int bg_valid, have_last;
  rgb bg_key[3], last_key[3];
  cairo_surface_t *shadow_cache;
  PangoLayout *title, *subtitle;
} renderer;

static void rounded_rect(cairo_t *cr, double x, double y, double w, double h, double r) {
  cairo_new_sub_path(cr);
  cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
  cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
  cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
  cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
  cairo_close_path(cr);
}

static void paint_background(cairo_t *cr, const rgb stops[3]) {
  cairo_pattern_t *p = cairo_pattern_create_linear(0, 0, DESIGN_W, DESIGN_H);
  cairo_pattern_add_color_stop_rgb(p, 0.0, stops[0].r, stops[0].g, stops[0].b);
  cairo_pattern_add_color_stop_rgb(p, 0.55, stops[1].r, stops[1].g, stops[1].b);
  cairo_pattern_add_color_stop_rgb(p, 1.0, stops[2].r, stops[2].g, stops[2].b);
  cairo_save(cr);
  cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source(cr, p);
  cairo_paint(cr);
  cairo_restore(cr);
  cairo_pattern_destroy(p);
}

static void draw_background(renderer *rd, cairo_t *cr, const frame_state *st) {
  if (!rd->cached) {
    paint_background(cr, st->bg);
    return;
  }
  /* While the gradient animates, paint it directly; once it rests (same stops
     as the previous frame), paint it once into the cache and blit from then on. */
  int resting = rd->have_last && memcmp(rd->last_key, st->bg, sizeof rd->last_key) == 0;
  memcpy(rd->last_key, st->bg, sizeof rd->last_key);
  rd->have_last = 1;
  if (!resting) {
    paint_background(cr, st->bg);
    return;
  }
  if (!rd->bg_valid || memcmp(rd->bg_key, st->bg, sizeof rd->bg_key) != 0) {
    cairo_t *bc = cairo_create(rd->bg_cache);
    cairo_translate(bc, rd->offset_x, rd->offset_y);
    cairo_scale(bc, rd->scale, rd->scale);
    paint_background(bc, st->bg);
    cairo_destroy(bc);
    memcpy(rd->bg_key, st->bg, sizeof rd->bg_key);
    rd->bg_valid = 1;
  }
  cairo_save(cr);
  cairo_identity_matrix(cr);
  cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source_surface(cr, rd->bg_cache, 0, 0);
  cairo_paint(cr);
  cairo_restore(cr);
}

/* One horizontal then one vertical box pass of radius r over an A8 buffer. */
static void box_pass(unsigned char *data, int w, int h, int stride, int r, unsigned char *tmp) {
  int win = 2 * r + 1;
  for (int y = 0; y < h; y++) {
    unsigned char *row = data + (size_t)y * stride;
    int sum = 0;
    for (int x = -r; x <= r; x++) sum += (x >= 0 && x < w) ? row[x] : 0;
    for (int x = 0; x < w; x++) {
      tmp[x] = (unsigned char)((sum + win / 2) / win);
      int out = x - r, in = x + r + 1;
      sum += (in < w ? row[in] : 0) - (out >= 0 ? row[out] : 0);
    }
    memcpy(row, tmp, (size_t)w);
  }
  for (int x = 0; x < w; x++) {
    int sum = 0;
    for (int y = -r; y <= r; y++) sum += (y >= 0 && y < h) ? data[(size_t)y * stride + x] : 0;
    for (int y = 0; y < h; y++) {
      tmp[y] = (unsigned char)((sum + win / 2) / win);
      int out = y - r, in = y + r + 1;
      sum += (in < h ? data[(size_t)in * stride + x] : 0) - (out >= 0 ? data[(size_t)out * stride + x] : 0);
    }
    for (int y = 0; y < h; y++) data[(size_t)y * stride + x] = tmp[y];
  }
}

static double shadow_pad(void) { return 1.5 * SHADOW_RADIUS; /* 3 sigma */ }

/* The card's alpha drawn at 1/4 of device resolution, blurred by 3 box passes. */
static cairo_surface_t *make_shadow(const renderer *rd) {
  double pad = shadow_pad();
  double k = rd->scale / SHADOW_SCALE;
  int w = (int)ceil((CARD_W + 2 * pad) * k), h = (int)ceil((CARD_H + 2 * pad) * k);
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h);
  cairo_t *cr = cairo_create(s);
  cairo_scale(cr, k, k);
  rounded_rect(cr, pad, pad, CARD_W, CARD_H, CARD_RADIUS);
  cairo_fill(cr);
  cairo_destroy(cr);
  cairo_surface_flush(s);
  /* sigma at 1/4 scale; box width for 3 passes: sqrt(12 sigma^2 / 3 + 1) */
  double sigma = SHADOW_RADIUS / 2.0 * k;
  int box = (int)lround(sqrt(12.0 * sigma * sigma / 3.0 + 1.0));
  int box_radius = box / 2 > 0 ? box / 2 : 1;
  unsigned char *tmp = malloc((size_t)(w > h ? w : h));
  if (!tmp) {
    fprintf(stderr, "cardswap: out of memory\n");
    exit(3);
  }
  unsigned char *data = cairo_image_surface_get_data(s);
  int stride = cairo_image_surface_get_stride(s);
  for (int i = 0; i < 3; i++) box_pass(data, w, h, stride, box_radius, tmp);
  free(tmp);
  /* Colour it once: premultiplied shadow colour times the blurred alpha. */
  cairo_surface_t *argb = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
  unsigned char *dst = cairo_image_surface_get_data(argb);
  int dst_stride = cairo_image_surface_get_stride(argb);
  for (int y = 0; y < h; y++) {
    const unsigned char *src = data + (size_t)y * stride;
    uint32_t *out = (uint32_t *)(dst + (size_t)y * dst_stride);
    for (int x = 0; x < w; x++) {
      uint32_t a = (uint32_t)lround(src[x] * SHADOW_ALPHA);
      uint32_t r = (a * SHADOW_R + 127) / 255, g = (a * SHADOW_G + 127) / 255, b = (a * SHADOW_B + 127) / 255;
      out[x] = (a << 24) | (r << 16) | (g << 8) | b;
    }
  }
  cairo_surface_destroy(s);
  cairo_surface_mark_dirty(argb);
  return argb;
}

static void draw_shadow(renderer *rd, cairo_t *cr, double x, double y) {
  cairo_surface_t *s = rd->cached ? rd->shadow_cache : make_shadow(rd);
  double pad = shadow_pad();
  double k = rd->scale / SHADOW_SCALE;
  cairo_save(cr);
  cairo_translate(cr, x - pad, y - pad + SHADOW_OFFSET_Y);
  cairo_scale(cr, 1.0 / k, 1.0 / k);
  cairo_pattern_t *p = cairo_pattern_create_for_surface(s);
  cairo_pattern_set_filter(p, CAIRO_FILTER_BILINEAR);
  cairo_set_source(cr, p);
  cairo_paint(cr);
  cairo_pattern_destroy(p);
  cairo_restore(cr);
  if (!rd->cached) cairo_surface_destroy(s);
}

static void draw_fill(cairo_t *cr, const card_def *c, double x, double y) {
  rgb a = hex(c->from), b = hex(c->to);
  cairo_pattern_t *p = cairo_pattern_create_linear(x, y, x + CARD_W, y + CARD_H);
  cairo_pattern_add_color_stop_rgb(p, 0, a.r, a.g, a.b);
  cairo_pattern_add_color_stop_rgb(p, 1, b.r, b.g, b.b);
  rounded_rect(cr, x, y, CARD_W, CARD_H, CARD_RADIUS);
  cairo_set_source(cr, p);
  cairo_fill(cr);
  cairo_pattern_destroy(p);
}

static void draw_image(renderer *rd, cairo_t *cr, const frame_state *st, double x, double y) {
  double cx = x + IMAGE_CLIP_INSET + IMAGE_CLIP_SIZE / 2, cy = y + IMAGE_CLIP_INSET + IMAGE_CLIP_SIZE / 2;
  cairo_save(cr);
  rounded_rect(cr, x + IMAGE_CLIP_INSET, y + IMAGE_CLIP_INSET, IMAGE_CLIP_SIZE, IMAGE_CLIP_SIZE, IMAGE_CLIP_RADIUS);
  cairo_clip(cr);
  cairo_translate(cr, cx, cy);
  cairo_rotate(cr, st->image_angle);
  cairo_scale(cr, st->image_scale, st->image_scale);
  cairo_translate(cr, -IMAGE_SIZE / 2.0, -IMAGE_SIZE / 2.0);
  cairo_set_source_surface(cr, rd->image, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
  cairo_paint(cr);
  cairo_restore(cr);
}

static PangoLayout *make_text(cairo_t *cr, const char *text, PangoWeight weight, double px) {
  PangoLayout *layout = pango_cairo_create_layout(cr);
  PangoFontDescription *fd = pango_font_description_new();
  pango_font_description_set_family(fd, "Inter");
  pango_font_description_set_weight(fd, weight);
  pango_font_description_set_absolute_size(fd, px * PANGO_SCALE);
  pango_layout_set_font_description(layout, fd);
  pango_font_description_free(fd);
  pango_layout_set_text(layout, text, -1);
  return layout;
}

static void draw_text(renderer *rd, cairo_t *cr, double x, double y) {
  static const double title_rgba[4] = {1, 1, 1, 1};
  static const double subtitle_rgba[4] = {1, 1, 1, 0.78};
  for (int line = 0; line < 2; line++) {
    cairo_save(cr);
    cairo_translate(cr, x + TEXT_X, y + (line == 0 ? TITLE_Y : SUBTITLE_Y));
    PangoLayout *layout;
    if (rd->cached) {
      layout = line == 0 ? rd->title : rd->subtitle;
    } else {
      layout = line == 0 ? make_text(cr, TITLE, PANGO_WEIGHT_SEMIBOLD, TITLE_SIZE)
                         : make_text(cr, SUBTITLE, PANGO_WEIGHT_MEDIUM, SUBTITLE_SIZE);
    }
    const double *c = line == 0 ? title_rgba : subtitle_rgba;
    cairo_set_source_rgba(cr, c[0], c[1], c[2], c[3]);
    pango_cairo_show_layout(cr, layout);
    if (!rd->cached) g_object_unref(layout);
    cairo_restore(cr);
  }
}

static void draw_ring(cairo_t *cr, const frame_state *st, double x, double y) {
  double cx = x + CARD_W / 2, cy = y + CARD_H / 2;
  cairo_save(cr);
  cairo_set_line_width(cr, RING_WIDTH);
  cairo_new_path(cr);
  cairo_arc(cr, cx, cy, RING_RADIUS, 0, 2 * M_PI);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.22);
  cairo_stroke(cr);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_new_path(cr);
  cairo_arc(cr, cx, cy, RING_RADIUS, -M_PI / 2, -M_PI / 2 + 2 * M_PI * st->ring_progress);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_stroke(cr);
  cairo_restore(cr);
}

static void render_frame(renderer *rd, cairo_t *cr, double t, stage_timer *tm) {
  frame_state st;
  scene_at(t, &st);
  cairo_identity_matrix(cr);
  cairo_translate(cr, rd->offset_x, rd->offset_y);
  cairo_scale(cr, rd->scale, rd->scale);

  stage_begin(tm);
  draw_background(rd, cr, &st);
  stage_end(tm, ST_BACKGROUND);

  for (int n = 0; n < 4; n++) {
    int i = st.draw_order[n];
    const card_def *c = &CARDS[i];
    double x = st.x[i], y = st.y[i];
    stage_begin(tm);
    draw_shadow(rd, cr, x, y);
    stage_end(tm, ST_SHADOW);
    stage_begin(tm);
    draw_fill(cr, c, x, y);
    stage_end(tm, ST_FILL);
    if (c->content == CONTENT_IMAGE_TEXT) {
      stage_begin(tm);
      draw_image(rd, cr, &st, x, y);
      stage_end(tm, ST_IMAGE);
      stage_begin(tm);
      draw_text(rd, cr, x, y);
      stage_end(tm, ST_TEXT);
    } else if (c->content == CONTENT_RING) {
      stage_begin(tm);
      draw_ring(cr, &st, x, y);
      stage_end(tm, ST_RING);
    }
  }
}

/* ---------------------------------------------------------------- main --- */

static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

static int write_png_atomic(cairo_surface_t *s, const char *path) {
  size_t n = strlen(path) + 16;
  char *tmp = malloc(n);
  if (!tmp) {
    fprintf(stderr, "cardswap: out of memory\n");
    return 0;
  }
  snprintf(tmp, n, "%s.tmp", path);
  cairo_status_t status = cairo_surface_write_to_png(s, tmp);
  if (status != CAIRO_STATUS_SUCCESS) {
    fprintf(stderr, "cardswap: cannot write %s: %s\n", path, cairo_status_to_string(status));
    remove(tmp);
    free(tmp);
    return 0;
  }
  if (rename(tmp, path) != 0) {
    fprintf(stderr, "cardswap: cannot rename %s to %s: %s\n", tmp, path, strerror(errno));
    remove(tmp);
    free(tmp);
    return 0;
  }
  free(tmp);
  return 1;
}

/* The measured frames, in a function of their own so that run.sh can count their instructions
 * alone (valgrind --tool=callgrind --toggle-collect=measured_frames). */
__attribute__((noinline)) void measured_frames(renderer *rd, cairo_t *cr, cairo_surface_t *surface, int start,
                                                      int frames, int checksum, stage_timer *tm, uint64_t *hash,
                                                      double *wall, double *cpu) {
  int height = cairo_image_surface_get_height(surface);
  for (int i = start; i < start + frames; i++) {
    double w0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
    render_frame(rd, cr, i / FPS, tm);
    cairo_surface_flush(surface);
    *wall += now_ms(CLOCK_MONOTONIC) - w0;
    *cpu += now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (checksum) {
      unsigned char *data = cairo_image_surface_get_data(surface);
      *hash = fnv1a(*hash, data, (size_t)cairo_image_surface_get_stride(surface) * height);
    }
  }
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: cardswap [--frames N] [--start I] [--width W --height H] [--png out.png]\n"
          "                [--split] [--cached] [--checksum] [--image in.png] [--write-image out.png]\n"
          "  --frames N       frames to render (default 180 = one 3 s swap cycle at 60 fps)\n"
          "  --start I        first frame index (t = i / 60); default 0\n"
          "  --width/--height canvas size in px (default 1920x1080; the scene scales uniformly)\n"
          "  --png PATH       write the last rendered frame as PNG\n"
          "  --split          time each stage and print its share\n"
          "  --cached         reuse background, text layouts and shadow surfaces between frames\n"
          "  --checksum       print a FNV-1a hash over all rendered frames' pixels\n"
          "  --image PATH     load the 512x512 image from a PNG instead of generating it\n"
          "  --write-image P  write the procedural 512x512 image as PNG and exit\n");
}

static int parse_int(const char *flag, const char *v, int min, int max, int *out) {
  char *end = NULL;
  errno = 0;
  long n = v ? strtol(v, &end, 10) : 0;
  if (!v || errno || *end != '\0' || n < min || n > max) {
    fprintf(stderr, "cardswap: %s expects an integer in %d...%d, got '%s'\n", flag, min, max, v ? v : "");
    return 0;
  }
  *out = (int)n;
  return 1;
}

static int check_font(cairo_t *cr) {
  PangoLayout *l = make_text(cr, TITLE, PANGO_WEIGHT_SEMIBOLD, TITLE_SIZE);
  PangoContext *ctx = pango_layout_get_context(l);
  PangoFontDescription *want = pango_font_description_copy(pango_layout_get_font_description(l));
  PangoFont *font = pango_context_load_font(ctx, want);
  int ok = 0;
  if (font) {
    PangoFontDescription *got = pango_font_describe(font);
    const char *family = pango_font_description_get_family(got);
    ok = family && strcmp(family, "Inter") == 0;
    if (!ok) fprintf(stderr, "cardswap: font family 'Inter' not found (got '%s'); install fonts-inter\n", family ? family : "?");
    pango_font_description_free(got);
    g_object_unref(font);
  } else {
    fprintf(stderr, "cardswap: no font could be loaded for 'Inter'\n");
  }
  pango_font_description_free(want);
  g_object_unref(l);
  return ok;
}

int main(int argc, char **argv) {
  int frames = 180, start = 0, width = 1920, height = 1080, split = 0, cached = 0, checksum = 0;
  const char *png = NULL, *image_out = NULL, *image_in = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--frames")) { if (!parse_int(a, v, 1, 1000000, &frames)) return 2; i++; }
    else if (!strcmp(a, "--start")) { if (!parse_int(a, v, 0, 100000000, &start)) return 2; i++; }
    else if (!strcmp(a, "--width")) { if (!parse_int(a, v, 16, 16384, &width)) return 2; i++; }
    else if (!strcmp(a, "--height")) { if (!parse_int(a, v, 16, 16384, &height)) return 2; i++; }
    else if (!strcmp(a, "--png")) { if (!v) { fprintf(stderr, "cardswap: --png expects a path\n"); return 2; } png = v; i++; }
    else if (!strcmp(a, "--image")) { if (!v) { fprintf(stderr, "cardswap: --image expects a path\n"); return 2; } image_in = v; i++; }
    else if (!strcmp(a, "--write-image")) { if (!v) { fprintf(stderr, "cardswap: --write-image expects a path\n"); return 2; } image_out = v; i++; }
    else if (!strcmp(a, "--split")) split = 1;
    else if (!strcmp(a, "--cached")) cached = 1;
    else if (!strcmp(a, "--checksum")) checksum = 1;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
    else { fprintf(stderr, "cardswap: unknown option '%s'\n", a); usage(stderr); return 2; }
  }

  renderer rd;
  memset(&rd, 0, sizeof rd);
  rd.cached = cached;
  double sx = width / DESIGN_W, sy = height / DESIGN_H;
  rd.scale = sx < sy ? sx : sy;
  rd.offset_x = (width - DESIGN_W * rd.scale) / 2.0;
  rd.offset_y = (height - DESIGN_H * rd.scale) / 2.0;
  if (image_in) {
    rd.image = cairo_image_surface_create_from_png(image_in);
    cairo_status_t status = cairo_surface_status(rd.image);
    if (status != CAIRO_STATUS_SUCCESS || cairo_image_surface_get_width(rd.image) != IMAGE_SIZE ||
        cairo_image_surface_get_height(rd.image) != IMAGE_SIZE) {
      fprintf(stderr, "cardswap: %s: expected a readable %dx%d PNG (%s)\n", image_in, IMAGE_SIZE, IMAGE_SIZE,
              status != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(status) : "wrong size");
      return status == CAIRO_STATUS_FILE_NOT_FOUND || status == CAIRO_STATUS_READ_ERROR ? 3 : 2;
    }
  } else {
    rd.image = make_image();
  }
  if (image_out) {
    int ok = write_png_atomic(rd.image, image_out);
    cairo_surface_destroy(rd.image);
    return ok ? 0 : 3;
  }

  cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    fprintf(stderr, "cardswap: cannot allocate a %dx%d surface\n", width, height);
    return 3;
  }
  cairo_t *cr = cairo_create(surface);
  if (!check_font(cr)) return 3;

  if (cached) {
    rd.bg_cache = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    rd.shadow_cache = make_shadow(&rd);
    cairo_save(cr);
    cairo_scale(cr, rd.scale, rd.scale);
    rd.title = make_text(cr, TITLE, PANGO_WEIGHT_SEMIBOLD, TITLE_SIZE);
    rd.subtitle = make_text(cr, SUBTITLE, PANGO_WEIGHT_MEDIUM, SUBTITLE_SIZE);
    cairo_restore(cr);
  }

  /* Warm-up: one frame outside the measurement (font and glyph caches). */
  stage_timer warm = {0};
  render_frame(&rd, cr, (start + frames) / FPS, &warm);
  rd.bg_valid = 0;
  rd.have_last = 0;

  stage_timer tm = {0};
  tm.enabled = split;
  uint64_t hash = 1469598103934665603ull;
  double wall = 0, cpu = 0;
  measured_frames(&rd, cr, surface, start, frames, checksum, &tm, &hash, &wall, &cpu);

  const char *mode = cached ? "cached" : "naive";
  double ms = wall / frames;
  printf("cardswap %s: %dx%d, frames %d...%d\n", mode, width, height, start, start + frames - 1);
  printf("  %.2f ms/frame wall (%.1f fps), %.2f ms/frame CPU\n", ms, 1000.0 / ms, cpu / frames);
  if (split) {
    double sum = 0;
    for (int s = 0; s < ST_COUNT; s++) sum += tm.total[s];
    for (int s = 0; s < ST_COUNT; s++)
      printf("  %-10s %7.2f ms  %5.1f %%\n", STAGE_NAMES[s], tm.total[s] / frames, 100.0 * tm.total[s] / sum);
    printf("  %-10s %7.2f ms  (sum of stages, thread CPU time)\n", "stages", sum / frames);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double rss_mib = ru.ru_maxrss / 1024.0; /* Linux reports KiB */
  printf("  peak memory %.1f MiB\n", rss_mib);
  if (checksum) printf("  checksum %016llx\n", (unsigned long long)hash);
  /* One machine-readable line for run.sh (and the Swift harness prints the same). */
  printf("RESULT renderer=c mode=%s width=%d height=%d frames=%d wall_ms=%.3f cpu_ms=%.3f rss_mib=%.1f", mode, width, height,
         frames, ms, cpu / frames, rss_mib);
  if (split)
    for (int s = 0; s < ST_COUNT; s++) printf(" %s=%.3f", STAGE_NAMES[s], tm.total[s] / frames);
  if (checksum) printf(" checksum=%016llx", (unsigned long long)hash);
  printf("\n");

  int ok = 1;
  if (png) ok = write_png_atomic(surface, png);

  if (cached) {
    cairo_surface_destroy(rd.bg_cache);
    cairo_surface_destroy(rd.shadow_cache);
    g_object_unref(rd.title);
    g_object_unref(rd.subtitle);
  }
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
  cairo_surface_destroy(rd.image);
  return ok ? 0 : 3;
}
