/*
 * rlottie + ffmpeg, the peer of `flick render FILE.json -o OUT.mp4` (docs/benchmarks.md, "Peers:
 * Lottie files"): renders frames of a Lottie file with rlottie's C API into a premultiplied BGRA
 * buffer (rlottie's ARGB32, little-endian), lays it over an opaque background as Flick does (white by
 * default), and writes each frame to the standard input of ffmpeg, started with an argument vector
 * (posix_spawn, no shell).
 *
 *   rlottie_ffmpeg FILE WIDTH HEIGHT FPS FRAMES BACKGROUND -- FFMPEG [ARG...]
 *
 * Output frame i (0 ≤ i < FRAMES) shows the file's frame ⌊i·fr/FPS + 10⁻⁶⌋ counted from its in
 * point, clamped to the last frame: the frame Flick draws for that instant (LottieContent.frameIndex).
 * BACKGROUND is RRGGBB. ffmpeg must read `-f rawvideo -pix_fmt bgra -s WIDTHxHEIGHT -i pipe:0`.
 * Exit status: ffmpeg's, or 2 for bad arguments, 3 when rlottie or ffmpeg cannot be started.
 *
 * Built by Benchmarks/peers/run.sh: cc -O2 rlottie_ffmpeg.c $(pkg-config --cflags --libs rlottie).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rlottie_capi.h>

extern char **environ;

static int fail(int status, const char *message, const char *detail) {
  fprintf(stderr, "rlottie_ffmpeg: %s%s%s\n", message, detail ? ": " : "", detail ? detail : "");
  return status;
}

static int parse_positive(const char *text, long maximum, long *value) {
  char *end = NULL;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v <= 0 || v > maximum) return 0;
  *value = v;
  return 1;
}

static int write_all(int fd, const uint8_t *bytes, size_t count) {
  while (count > 0) {
    ssize_t n = write(fd, bytes, count);
    if (n < 0) {
      if (errno == EINTR) continue;
      return 0;
    }
    bytes += n;
    count -= (size_t)n;
  }
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 9 || strcmp(argv[7], "--") != 0) {
    return fail(2, "usage: rlottie_ffmpeg FILE WIDTH HEIGHT FPS FRAMES RRGGBB -- FFMPEG [ARG...]", NULL);
  }
  long width, height, fps, frames;
  if (!parse_positive(argv[2], 16384, &width) || !parse_positive(argv[3], 16384, &height) ||
      !parse_positive(argv[4], 1000, &fps) || !parse_positive(argv[5], 10000000, &frames)) {
    return fail(2, "WIDTH, HEIGHT, FPS and FRAMES must be positive whole numbers", NULL);
  }
  unsigned background;
  if (strlen(argv[6]) != 6 || sscanf(argv[6], "%6x", &background) != 1) {
    return fail(2, "BACKGROUND must be RRGGBB", argv[6]);
  }
  const uint8_t bg[3] = {background & 0xff, (background >> 8) & 0xff, (background >> 16) & 0xff};

  Lottie_Animation *animation = lottie_animation_from_file(argv[1]);
  if (!animation) return fail(3, "rlottie cannot load", argv[1]);
  const double rate = lottie_animation_get_framerate(animation);
  const size_t total = lottie_animation_get_totalframe(animation);
  if (total == 0 || !(rate > 0)) return fail(3, "no frames in", argv[1]);

  const size_t stride = (size_t)width * 4;
  uint32_t *pixels = calloc((size_t)height, stride);
  if (!pixels) return fail(3, "out of memory", NULL);

  /* SIGPIPE would kill us silently if ffmpeg quits early: get EPIPE and report instead. */
  signal(SIGPIPE, SIG_IGN);
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return fail(3, "pipe", strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  pid_t child;
  int spawned = posix_spawn(&child, argv[8], &actions, NULL, &argv[8], environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[0]);
  if (spawned != 0) return fail(3, "cannot start ffmpeg", strerror(spawned));

  int ok = 1;
  for (long i = 0; i < frames && ok; i++) {
    double exact = floor((double)i * rate / (double)fps + 1e-6);
    size_t frame = exact >= (double)(total - 1) ? total - 1 : (size_t)exact;
    lottie_animation_render(animation, frame, pixels, (size_t)width, (size_t)height, stride);
    /* Premultiplied source over an opaque background: c + (255 − a)·bg / 255, rounded. */
    uint8_t *p = (uint8_t *)pixels;
    for (size_t k = 0; k < (size_t)width * (size_t)height; k++, p += 4) {
      unsigned rest = 255u - p[3];
      if (rest == 0) continue;
      for (int c = 0; c < 3; c++) p[c] = (uint8_t)(p[c] + (rest * bg[c] + 127u) / 255u);
      p[3] = 255;
    }
    ok = write_all(pipe_fds[1], (const uint8_t *)pixels, stride * (size_t)height);
  }
  close(pipe_fds[1]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  lottie_animation_destroy(animation);
  free(pixels);
  if (!WIFEXITED(status)) return fail(3, "ffmpeg died", NULL);
  if (WEXITSTATUS(status) != 0) return WEXITSTATUS(status);
  if (!ok) return fail(3, "writing to ffmpeg failed", strerror(errno));
  return 0;
}
