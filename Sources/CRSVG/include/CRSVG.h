#ifndef FLICK_CRSVG_H
#define FLICK_CRSVG_H

// librsvg, loaded on first use (CDynamicLibrary): the header's types, and the functions and
// version variables Flick uses through `flick_rsvg`, filled by flick_rsvg_load(). Call the
// wrappers only once a load has succeeded (every one takes or makes a handle, which needs the
// library). GObject's own functions (g_object_unref, g_error_free) come from GLib, which librsvg
// loads: Flick links neither.
#include <librsvg/rsvg.h>

// X(field, symbol): what Flick takes from librsvg, in one list.
#define FLICK_RSVG_SYMBOLS(X)                                                        \
  X(handle_new_from_data, rsvg_handle_new_from_data)                                \
  X(handle_get_intrinsic_size_in_pixels, rsvg_handle_get_intrinsic_size_in_pixels) \
  X(handle_get_intrinsic_dimensions, rsvg_handle_get_intrinsic_dimensions)         \
  X(handle_render_document, rsvg_handle_render_document)                           \
  X(major_version, rsvg_major_version)                                              \
  X(minor_version, rsvg_minor_version)                                              \
  X(micro_version, rsvg_micro_version)                                              \
  X(object_unref, g_object_unref)                                                   \
  X(error_free, g_error_free)

#define FLICK_RSVG_FIELD(field, symbol) __typeof__(&symbol) field;
typedef struct flick_rsvg_symbols {
  FLICK_RSVG_SYMBOLS(FLICK_RSVG_FIELD)
} flick_rsvg_symbols;
#undef FLICK_RSVG_FIELD

extern flick_rsvg_symbols flick_rsvg;

/// Loads librsvg (once per process). Returns 1 when it is loaded; otherwise 0 with `*error`
/// pointing at a static one-line reason.
int flick_rsvg_load(const char **error);

static inline RsvgHandle *flick_rsvg_handle_new_from_data(const guint8 *data, gsize data_len, GError **error) {
  return flick_rsvg.handle_new_from_data(data, data_len, error);
}
static inline gboolean flick_rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, gdouble *out_width,
                                                                      gdouble *out_height) {
  return flick_rsvg.handle_get_intrinsic_size_in_pixels(handle, out_width, out_height);
}
static inline void flick_rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle, gboolean *out_has_width,
                                                              RsvgLength *out_width, gboolean *out_has_height,
                                                              RsvgLength *out_height, gboolean *out_has_viewbox,
                                                              RsvgRectangle *out_viewbox) {
  flick_rsvg.handle_get_intrinsic_dimensions(handle, out_has_width, out_width, out_has_height, out_height,
                                             out_has_viewbox, out_viewbox);
}
static inline gboolean flick_rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr,
                                                         const RsvgRectangle *viewport, GError **error) {
  return flick_rsvg.handle_render_document(handle, cr, viewport, error);
}
static inline void flick_rsvg_object_unref(gpointer object) { flick_rsvg.object_unref(object); }
static inline void flick_rsvg_error_free(GError *error) { flick_rsvg.error_free(error); }
/// librsvg's version, `major.minor.micro`, of the library loaded.
static inline guint flick_rsvg_major_version(void) { return *flick_rsvg.major_version; }
static inline guint flick_rsvg_minor_version(void) { return *flick_rsvg.minor_version; }
static inline guint flick_rsvg_micro_version(void) { return *flick_rsvg.micro_version; }

#endif
