/* png-bench: Flick's fast PNG encoder (Sources/CPNG/fastpng.h) beside the libpng writer it
 * replaces (Sources/CPNG/shim.h, zlib level 1, Up filter), on the same frames, interleaved.
 *
 *   gcc -O2 -pthread -I Sources/CPNG -o png-bench Benchmarks/raster/png-bench.c $(pkg-config --cflags --libs libpng) -lz
 *   ./png-bench [--runs N] [--out DIR] NAME=FILE.bgra:WIDTHxHEIGHT ...
 *   ./png-bench --selftest
 *
 * FILE.bgra holds frames of Cairo ARGB32 pixels (premultiplied BGRA, stride 4 x WIDTH), one after
 * another, as `flick render TEMPLATE -o FILE.bgra` writes them. For each input, each run writes
 * every frame with libpng, then every frame with the fast encoder (to DIR, /dev/shm by default),
 * timing CPU (CLOCK_PROCESS_CPUTIME_ID) around the writes; runs alternate libpng/fast, the table
 * shows medians. Before timing, every frame written both ways is decoded with libpng's reader and
 * compared pixel for pixel (exit 1 on a difference).
 *
 * --selftest encodes synthetic images (noise, gradients, runs, translucent ramps, widths 1..17,
 * wide rows, 150 seeded mixtures of runs, noise and copies) and checks that both files decode to
 * the same pixels and that every chunk CRC of the fast file is right.
 *
 * Output: one row per input: frames, ms per frame (libpng, fast), libpng/fast, KB per frame and
 * fast/libpng size, with a machine-readable RESULT line; then the fast encoder on one thread
 * against two (`flick still`'s encode, in memory: the same bytes checked for every frame, wall
 * and CPU ms per frame, runs alternating, and on how many frames the second thread's guessed
 * hash held), with a THREADS line. */
#include "shim.h"
#include "fastpng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

static double cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Decodes `path` to 8-bit RGBA with libpng's simplified reader; NULL on failure. */
static uint8_t *decode(const char *path, int *w, int *h) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path)) return NULL;
  image.format = PNG_FORMAT_RGBA;
  uint8_t *buf = malloc(PNG_IMAGE_SIZE(image));
  if (!buf || !png_image_finish_read(&image, NULL, buf, 0, NULL)) {
    fprintf(stderr, "decode %s: %s\n", path, image.message);
    free(buf);
    png_image_free(&image);
    return NULL;
  }
  *w = (int)image.width;
  *h = (int)image.height;
  return buf;
}

/* 1 when every chunk of the PNG file at `path` has the right CRC-32 and the last is IEND. */
static int chunks_ok(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *d = malloc((size_t)n);
  int ok = d && fread(d, 1, (size_t)n, f) == (size_t)n;
  fclose(f);
  long at = 8, last = 0;
  while (ok && at + 12 <= n) {
    uint32_t len = (uint32_t)d[at] << 24 | d[at + 1] << 16 | d[at + 2] << 8 | d[at + 3];
    if (at + 12 + (long)len > n) { ok = 0; break; }
    uint32_t stored = (uint32_t)d[at + 8 + len] << 24 | d[at + 9 + len] << 16 | d[at + 10 + len] << 8 | d[at + 11 + len];
    if ((uint32_t)crc32(0L, d + at + 4, 4 + len) != stored) ok = 0;
    last = at;
    at += 12 + len;
  }
  ok = ok && at == n && memcmp(d + last + 4, "IEND", 4) == 0;
  free(d);
  return ok;
}

/* Writes the frame both ways into dir and compares the decoded pixels and colour types. */
static int same_pixels(const char *dir, const uint8_t *px, int w, int h, int stride, const char *what) {
  char a[4096], b[4096];
  snprintf(a, sizeof a, "%s/png-bench-libpng.png", dir);
  snprintf(b, sizeof b, "%s/png-bench-fast.png", dir);
  int ea = flick_png_write(a, px, w, h, stride), eb = flick_fastpng_write(b, px, w, h, stride);
  if (ea || eb) { fprintf(stderr, "%s: write failed (%d, %d)\n", what, ea, eb); return 0; }
  int wa, ha, wb, hb;
  uint8_t *da = decode(a, &wa, &ha), *db = decode(b, &wb, &hb);
  int ok = da && db && wa == wb && ha == hb && memcmp(da, db, (size_t)wa * ha * 4) == 0;
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  uint8_t ta[26] = {0}, tb[26] = {0};
  if (fa) { if (fread(ta, 1, 26, fa) != 26) ok = 0; fclose(fa); }
  if (fb) { if (fread(tb, 1, 26, fb) != 26) ok = 0; fclose(fb); }
  if (ta[25] != tb[25]) ok = 0;
  if (!chunks_ok(b)) { fprintf(stderr, "%s: a chunk CRC or the chunk structure is wrong\n", what); ok = 0; }
  if (!ok) fprintf(stderr, "%s: colour type or decoded pixels differ (files kept: %s, %s)\n", what, a, b);
  free(da);
  free(db);
  if (ok) { unlink(a); unlink(b); }
  return ok;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (uint32_t)rng; }

static int selftest(const char *dir) {
  int ok = 1;
  for (int kind = 0; kind < 6; kind++) {
    for (int w = 1; w <= 17; w++) {
      for (int h = 1; h <= 5; h += 2) {
        int stride = 4 * w + 4 * (kind % 2);
        uint8_t *px = malloc((size_t)stride * h);
        for (int y = 0; y < h; y++)
          for (int x = 0; x < w; x++) {
            uint8_t *p = px + y * stride + 4 * x;
            uint32_t r = next();
            unsigned a = kind < 3 ? 255 : r >> 24;
            p[3] = (uint8_t)a;
            for (int c = 0; c < 3; c++) p[c] = kind == 0 || kind == 3 ? (uint8_t)((r >> (8 * c)) % (a + 1)) : (uint8_t)(x * a / w);
          }
        char what[64];
        snprintf(what, sizeof what, "kind %d %dx%d", kind, w, h);
        ok &= same_pixels(dir, px, w, h, stride, what);
        free(px);
      }
    }
  }
  /* Large: noise (several blocks and IDAT chunks), runs, a wide row, translucency. */
  int sizes[][2] = {{700, 500}, {20000, 3}, {1, 3000}, {1280, 720}};
  for (int s = 0; s < 4; s++) {
    int w = sizes[s][0], h = sizes[s][1], stride = 4 * w;
    uint8_t *px = malloc((size_t)stride * h);
    for (int kind = 0; kind < 4; kind++) {
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          uint8_t *p = px + (size_t)y * stride + 4 * x;
          uint32_t r = next();
          switch (kind) {
          case 0: p[0] = (uint8_t)r; p[1] = (uint8_t)(r >> 8); p[2] = (uint8_t)(r >> 16); p[3] = 255; break;
          case 1: p[0] = (uint8_t)(x / 37); p[1] = (uint8_t)(y / 5); p[2] = 9; p[3] = 255; break;
          case 2: { unsigned a = (x + y) & 255; p[0] = p[1] = p[2] = (uint8_t)(a / 2); p[3] = (uint8_t)a; } break;
          default: { unsigned a = r >> 24; p[0] = (uint8_t)(r % (a + 1)); p[1] = (uint8_t)((r >> 8) % (a + 1)); p[2] = 0; p[3] = (uint8_t)a; }
          }
        }
      char what[64];
      snprintf(what, sizeof what, "large %dx%d kind %d", w, h, kind);
      ok &= same_pixels(dir, px, w, h, stride, what);
    }
    free(px);
  }
  /* Seeded mixtures: runs, noise and copies of earlier bytes at random distances (hash matches
     near block ends and across rows), random sizes, opaque and translucent. */
  for (int n = 0; n < 150 && ok; n++) {
    int w = 1 + (int)(next() % 700), h = 1 + (int)(next() % 400), stride = 4 * w + 4 * (int)(next() % 3);
    int translucent = n % 3 == 0;
    size_t bytes = (size_t)stride * h;
    uint8_t *px = malloc(bytes);
    for (size_t at = 0; at < bytes;) {
      size_t len = 1 + next() % 600;
      if (len > bytes - at) len = bytes - at;
      switch (next() % 4) {
      case 0: memset(px + at, (int)(next() & 255), len); break;
      case 1: for (size_t k = 0; k < len; k++) px[at + k] = (uint8_t)next(); break;
      case 2: { size_t d = 1 + next() % 40000; for (size_t k = 0; k < len; k++) px[at + k] = at + k >= d ? px[at + k - d] : 0; } break;
      default: { uint32_t v = next(); for (size_t k = 0; k < len; k++) px[at + k] = (uint8_t)(v >> (8 * (k % 4))); }
      }
      at += len;
    }
    for (size_t p = 0; p + 4 <= bytes; p += 4) {
      if (!translucent) { px[p + 3] = 255; continue; }
      for (int c = 0; c < 3; c++) if (px[p + c] > px[p + 3]) px[p + c] = px[p + 3]; /* premultiplied */
    }
    char what[64];
    snprintf(what, sizeof what, "mixture %d (%dx%d)", n, w, h);
    ok &= same_pixels(dir, px, w, h, stride, what);
    free(px);
  }
  printf(ok ? "selftest: all decoded pixels equal\n" : "selftest: FAILED\n");
  return ok ? 0 : 1;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double wall_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The fast encoder on one thread and on two (in memory, as `flick still` encodes): checks that
 * every frame's bytes are the same, then times wall and CPU per frame, runs alternating; prints
 * the medians, how many frames the second thread's guess held, and a THREADS line. 1 on a
 * difference or a failure. */
static int threads_row(const char *name, const uint8_t *px, size_t frame, int frames, int w, int h, int runs) {
  int held = 0;
  for (int i = 0; i < frames; i++) {
    uint8_t *one, *two;
    size_t n1, n2;
    int redone = 0;
    if (flick_fastpng_encode_threads(px + frame * i, w, h, 4 * w, 1, 1, &one, &n1, NULL)
        || flick_fastpng_encode_threads(px + frame * i, w, h, 4 * w, 2, 1, &two, &n2, &redone)) {
      fprintf(stderr, "%s frame %d: encode failed\n", name, i);
      return 1;
    }
    int same = n1 == n2 && memcmp(one, two, n1) == 0;
    free(one);
    free(two);
    if (!same) { fprintf(stderr, "%s frame %d: two threads wrote other bytes than one\n", name, i); return 1; }
    held += !redone;
  }
  double wall[2][99], cpu[2][99];
  for (int r = 0; r < runs; r++) {
    for (int k = 0; k < 2; k++) {
      int which = r % 2 ? 1 - k : k, threads = which + 1;
      double w0 = wall_ms(), c0 = cpu_ms();
      for (int i = 0; i < frames; i++) {
        uint8_t *png;
        size_t n;
        if (flick_fastpng_encode_threads(px + frame * i, w, h, 4 * w, threads, 1, &png, &n, NULL)) return 1;
        free(png);
      }
      wall[which][r] = (wall_ms() - w0) / frames;
      cpu[which][r] = (cpu_ms() - c0) / frames;
    }
  }
  for (int k = 0; k < 2; k++) {
    qsort(wall[k], runs, sizeof wall[k][0], cmp_double);
    qsort(cpu[k], runs, sizeof cpu[k][0], cmp_double);
  }
  double w1 = wall[0][runs / 2], w2 = wall[1][runs / 2], c1 = cpu[0][runs / 2], c2 = cpu[1][runs / 2];
  printf("  two threads: wall %.2f -> %.2f ms (%.2fx), CPU %.2f -> %.2f ms, guess held on %d of %d frames, same bytes\n",
         w1, w2, w1 / w2, c1, c2, held, frames);
  printf("THREADS input=%s one_wall_ms=%.3f two_wall_ms=%.3f wall_speedup=%.3f one_cpu_ms=%.3f two_cpu_ms=%.3f "
         "held=%d frames=%d\n", name, w1, w2, w1 / w2, c1, c2, held, frames);
  return 0;
}

int main(int argc, char **argv) {
  int runs = 5;
  const char *dir = "/dev/shm";
  int first = 1;
  for (; first < argc && argv[first][0] == '-'; first++) {
    if (!strcmp(argv[first], "--runs") && first + 1 < argc) runs = atoi(argv[++first]);
    else if (!strcmp(argv[first], "--out") && first + 1 < argc) dir = argv[++first];
    else if (!strcmp(argv[first], "--selftest")) return selftest(dir);
    else { fprintf(stderr, "usage: png-bench [--runs N] [--out DIR] NAME=FILE.bgra:WxH ... | --selftest\n"); return 2; }
  }
  if (runs < 1 || runs > 99) runs = 5;
  printf("%-22s %6s %10s %10s %8s %9s %9s %8s\n", "input", "frames", "libpng ms", "fast ms", "speedup",
         "libpng KB", "fast KB", "size");
  for (int arg = first; arg < argc; arg++) {
    char name[256], file[2048];
    int w, h;
    if (sscanf(argv[arg], "%255[^=]=%2047[^:]:%dx%d", name, file, &w, &h) != 4) {
      fprintf(stderr, "png-bench: expected NAME=FILE:WxH, got '%s'\n", argv[arg]);
      return 2;
    }
    FILE *f = fopen(file, "rb");
    if (!f) { perror(file); return 3; }
    fseek(f, 0, SEEK_END);
    long bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    size_t frame = (size_t)w * h * 4;
    int frames = (int)(bytes / (long)frame);
    if (frames < 1) { fprintf(stderr, "%s: fewer bytes than one %dx%d frame\n", file, w, h); return 2; }
    uint8_t *px = malloc(frame * frames);
    if (!px || fread(px, 1, frame * frames, f) != frame * frames) { fprintf(stderr, "%s: read failed\n", file); return 3; }
    fclose(f);
    for (int i = 0; i < frames; i++) {
      char what[300];
      snprintf(what, sizeof what, "%s frame %d", name, i);
      if (!same_pixels(dir, px + frame * i, w, h, 4 * w, what)) return 1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/png-bench-out.png", dir);
    double told[99], tnew[99];
    double sold = 0, snew = 0;
    for (int r = 0; r < runs; r++) {
      for (int which = 0; which < 2; which++) {
        double t0 = cpu_ms(), size = 0;
        for (int i = 0; i < frames; i++) {
          unlink(path); // the fast writer never writes into a file that is already there
          int e = which == 0 ? flick_png_write(path, px + frame * i, w, h, 4 * w)
                             : flick_fastpng_write(path, px + frame * i, w, h, 4 * w);
          if (e) { fprintf(stderr, "write failed: %s\n", strerror(e)); return 3; }
          if (r == 0) size += file_size(path);
        }
        double t = (cpu_ms() - t0) / frames;
        if (which == 0) { told[r] = t; if (r == 0) sold = size / frames; }
        else { tnew[r] = t; if (r == 0) snew = size / frames; }
      }
    }
    qsort(told, runs, sizeof told[0], cmp_double);
    qsort(tnew, runs, sizeof tnew[0], cmp_double);
    double mo = told[runs / 2], mn = tnew[runs / 2];
    printf("%-22s %6d %10.2f %10.2f %7.2fx %9.1f %9.1f %7.2fx\n", name, frames, mo, mn, mo / mn, sold / 1e3,
           snew / 1e3, snew / sold);
    printf("RESULT input=%s width=%d height=%d frames=%d runs=%d libpng_ms=%.3f fast_ms=%.3f speedup=%.3f "
           "libpng_bytes=%.0f fast_bytes=%.0f size_ratio=%.3f\n",
           name, w, h, frames, runs, mo, mn, mo / mn, sold, snew, snew / sold);
    if (threads_row(name, px, frame, frames, w, h, runs)) return 1;
    free(px);
    unlink(path);
  }
  return 0;
}
