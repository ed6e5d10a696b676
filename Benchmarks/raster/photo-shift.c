/* photo-shift: is a GOOD-filtered photo downscale translation-invariant under whole-pixel moves,
 * and is a cached sampled copy composited at the same place byte-identical to drawing in place?
 * (issue 18: "scale photos once per distinct device size").
 *
 *   gcc -O2 -o photo-shift Benchmarks/raster/photo-shift.c $(pkg-config --cflags --libs cairo) -lm
 *   ./photo-shift Templates/images/cover.png
 *
 * Draws the 512x512 picture into a 164x164 rect (as rotating-cover's label) at a fractional
 * position and at the same position moved by whole pixels, and compares the moved pixels; then
 * draws it through an intermediate (sampled with SOURCE over the rect's pixel box, composited
 * with the same fill) at the same place. Measured with Cairo 1.16.0 / pixman 0.42: moves differ
 * in up to 124 pixels by one level; the intermediate at the same place is identical. */
#include <cairo.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>
static cairo_surface_t *img;
/* Today's draw: fill the rect with the GOOD-scaled image, under ctm translate(tx,ty) scale(s). */
static cairo_surface_t *today(int W, int H, double tx, double ty, double s, double rot, int clipround) {
  cairo_surface_t *t = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create(t);
  cairo_set_source_rgb(cr, 0.1, 0.2, 0.3); cairo_paint(cr);
  cairo_translate(cr, tx, ty); cairo_rotate(cr, rot);
  double w = 164, h = 164;
  if (clipround) { cairo_arc(cr, w/2, h/2, 82, 0, 2*M_PI); cairo_clip(cr); }
  cairo_pattern_t *p = cairo_pattern_create_for_surface(img);
  cairo_matrix_t m; cairo_matrix_init_scale(&m, 512.0 / w, 512.0 / h);
  cairo_pattern_set_matrix(p, &m);
  cairo_pattern_set_filter(p, CAIRO_FILTER_GOOD); cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD);
  cairo_set_source(cr, p); cairo_rectangle(cr, 0, 0, w, h); cairo_fill(cr);
  cairo_pattern_destroy(p); cairo_destroy(cr); cairo_surface_flush(t);
  return t;
}
/* Cached form at the same place: the sampled image painted (SOURCE) into a frame-sized
   intermediate over the rect's pixel box, then the rect filled with it as the source. */
static cairo_surface_t *cached(int W, int H, double tx, double ty, int clipround) {
  double w = 164, h = 164;
  cairo_surface_t *mid = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *m = cairo_create(mid);
  cairo_rectangle(m, floor(tx), floor(ty), ceil(tx + w) - floor(tx), ceil(ty + h) - floor(ty)); cairo_clip(m);
  cairo_translate(m, tx, ty);
  cairo_pattern_t *p = cairo_pattern_create_for_surface(img);
  cairo_matrix_t mm; cairo_matrix_init_scale(&mm, 512.0 / w, 512.0 / h);
  cairo_pattern_set_matrix(p, &mm);
  cairo_pattern_set_filter(p, CAIRO_FILTER_GOOD); cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD);
  cairo_set_operator(m, CAIRO_OPERATOR_SOURCE); cairo_set_source(m, p); cairo_paint(m);
  cairo_pattern_destroy(p); cairo_destroy(m); cairo_surface_flush(mid);
  cairo_surface_t *t = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create(t);
  cairo_set_source_rgb(cr, 0.1, 0.2, 0.3); cairo_paint(cr);
  cairo_translate(cr, tx, ty);
  if (clipround) { cairo_arc(cr, w/2, h/2, 82, 0, 2*M_PI); cairo_clip(cr); }
  cairo_set_source_surface(cr, mid, -tx, -ty);
  cairo_rectangle(cr, 0, 0, w, h); cairo_fill(cr);
  cairo_destroy(cr); cairo_surface_flush(t); cairo_surface_destroy(mid);
  return t;
}
static int maxdelta(cairo_surface_t *a, cairo_surface_t *b, int dx, int dy) {
  int W = cairo_image_surface_get_width(a), H = cairo_image_surface_get_height(a), st = cairo_image_surface_get_stride(a);
  unsigned char *pa = cairo_image_surface_get_data(a), *pb = cairo_image_surface_get_data(b);
  int md = 0;
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) {
    int xb = x + dx, yb = y + dy; if (xb < 0 || yb < 0 || xb >= W || yb >= H) continue;
    for (int c = 0; c < 4; c++) { int d = abs(pa[y*st+4*x+c] - pb[yb*st+4*xb+c]); if (d > md) md = d; }
  }
  return md;
}
static int shifted_equal(cairo_surface_t *a, cairo_surface_t *b, int dx, int dy) {
  int W = cairo_image_surface_get_width(a), H = cairo_image_surface_get_height(a), st = cairo_image_surface_get_stride(a);
  unsigned char *pa = cairo_image_surface_get_data(a), *pb = cairo_image_surface_get_data(b);
  int diff = 0;
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) {
    int xb = x + dx, yb = y + dy; if (xb < 0 || yb < 0 || xb >= W || yb >= H) continue;
    if (memcmp(pa + y*st + 4*x, pb + yb*st + 4*xb, 4)) diff++;
  }
  return diff;
}
int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: photo-shift IMAGE.png\n"); return 2; }
  img = cairo_image_surface_create_from_png(argv[1]);
  if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) { fprintf(stderr, "photo-shift: cannot read %s\n", argv[1]); return 3; }
  printf("image %dx%d\n", cairo_image_surface_get_width(img), cairo_image_surface_get_height(img));
  double fr[] = {0, 0.3, 0.5, 0.77};
  for (int clip = 0; clip < 2; clip++)
  for (int f = 0; f < 4; f++) {
    cairo_surface_t *a = today(600, 400, 100 + fr[f], 80 + fr[f], 1, 0, clip);
    int total = 0, worst = 0, md = 0;
    int moves[][2] = {{1,0},{3,0},{17,5},{120,33},{-50,-20},{256,128}};
    for (int k = 0; k < 6; k++) {
      cairo_surface_t *b = today(600, 400, 100 + fr[f] + moves[k][0], 80 + fr[f] + moves[k][1], 1, 0, clip);
      int d = shifted_equal(a, b, moves[k][0], moves[k][1]); total += d; if (d > worst) worst = d;
      int dm = maxdelta(a, b, moves[k][0], moves[k][1]); if (dm > md) md = dm;
      cairo_surface_destroy(b);
    }
    cairo_surface_t *c = cached(600, 400, 100 + fr[f], 80 + fr[f], clip);
    printf("clip=%d frac=%.2f: pixels differing after integer moves (6 moves): total %d worst %d, max delta %d; cached at the same place: %d pixels differ (max delta %d)\n", clip, fr[f], total, worst, md, shifted_equal(a, c, 0, 0), maxdelta(a, c, 0, 0));
    cairo_surface_destroy(c);
    cairo_surface_destroy(a);
  }
  return 0;
}
