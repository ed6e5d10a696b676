#ifndef FLICK_CRLOTTIE_H
#define FLICK_CRLOTTIE_H

// rlottie, loaded on first use (CDynamicLibrary): the header's types, and the functions Flick
// calls through `flick_rlottie`, filled by flick_rlottie_load(). Call the wrappers only once a
// load has succeeded (every one takes or makes an animation, which needs the library).
#include <rlottie_capi.h>

// X(field, symbol): the rlottie functions Flick calls, in one list.
#define FLICK_RLOTTIE_FUNCTIONS(X)                   \
  X(animation_from_data, lottie_animation_from_data) \
  X(animation_destroy, lottie_animation_destroy)     \
  X(animation_get_size, lottie_animation_get_size)   \
  X(animation_get_totalframe, lottie_animation_get_totalframe) \
  X(animation_get_framerate, lottie_animation_get_framerate)   \
  X(animation_render, lottie_animation_render)

#define FLICK_RLOTTIE_FIELD(field, symbol) __typeof__(&symbol) field;
typedef struct flick_rlottie_functions {
  FLICK_RLOTTIE_FUNCTIONS(FLICK_RLOTTIE_FIELD)
} flick_rlottie_functions;
#undef FLICK_RLOTTIE_FIELD

extern flick_rlottie_functions flick_rlottie;

/// Loads rlottie (once per process). Returns 1 when it is loaded; otherwise 0 with `*error`
/// pointing at a static one-line reason.
int flick_rlottie_load(const char **error);

static inline Lottie_Animation *flick_lottie_animation_from_data(const char *data, const char *key,
                                                                 const char *resource_path) {
  return flick_rlottie.animation_from_data(data, key, resource_path);
}
static inline void flick_lottie_animation_destroy(Lottie_Animation *animation) {
  flick_rlottie.animation_destroy(animation);
}
static inline void flick_lottie_animation_get_size(const Lottie_Animation *animation, size_t *width, size_t *height) {
  flick_rlottie.animation_get_size(animation, width, height);
}
static inline size_t flick_lottie_animation_get_totalframe(const Lottie_Animation *animation) {
  return flick_rlottie.animation_get_totalframe(animation);
}
static inline double flick_lottie_animation_get_framerate(const Lottie_Animation *animation) {
  return flick_rlottie.animation_get_framerate(animation);
}
static inline void flick_lottie_animation_render(Lottie_Animation *animation, size_t frame_num, uint32_t *buffer,
                                                 size_t width, size_t height, size_t bytes_per_line) {
  flick_rlottie.animation_render(animation, frame_num, buffer, width, height, bytes_per_line);
}

#endif
