#ifndef FLICK_CPANGO_H
#define FLICK_CPANGO_H

// Pango (with HarfBuzz, FriBidi, GLib, GIO and their dependencies: seventeen libraries), loaded
// on first use (CDynamicLibrary): the headers' types, and the functions Flick calls, which
// flick_pango_load() returns. A process that lays out no text does not map them (about 5 ms of
// every `flick` process's start); one with text loads them at its first text, a template's
// resource check as a rule. Fontconfig's functions are linked as before: Cairo needs it anyway.
#include <pango/pangocairo.h>
#include <pango/pango.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <fontconfig/fcfreetype.h>
#include "hb.h"

// X(field, symbol): what Flick takes from Pango and the libraries it loads, in one list.
#define FLICK_PANGO_SYMBOLS(X)                                              \
  X(attr_letter_spacing_new, pango_attr_letter_spacing_new)                 \
  X(attr_list_insert, pango_attr_list_insert)                               \
  X(attr_list_new, pango_attr_list_new)                                     \
  X(attr_list_unref, pango_attr_list_unref)                                 \
  X(cairo_context_set_font_options, pango_cairo_context_set_font_options)   \
  X(cairo_context_set_resolution, pango_cairo_context_set_resolution)       \
  X(cairo_font_map_get_default, pango_cairo_font_map_get_default)           \
  X(cairo_font_map_new, pango_cairo_font_map_new)                           \
  X(cairo_show_layout, pango_cairo_show_layout)                             \
  X(cairo_show_layout_line, pango_cairo_show_layout_line)                   \
  X(context_set_round_glyph_positions, pango_context_set_round_glyph_positions) \
  X(fc_font_map_config_changed, pango_fc_font_map_config_changed)           \
  X(font_describe, pango_font_describe)                                     \
  X(font_description_free, pango_font_description_free)                     \
  X(font_description_get_family, pango_font_description_get_family)         \
  X(font_description_new, pango_font_description_new)                       \
  X(font_description_set_absolute_size, pango_font_description_set_absolute_size) \
  X(font_description_set_family, pango_font_description_set_family)         \
  X(font_description_set_style, pango_font_description_set_style)           \
  X(font_description_set_weight, pango_font_description_set_weight)         \
  X(font_family_get_name, pango_font_family_get_name)                       \
  X(font_map_create_context, pango_font_map_create_context)                 \
  X(font_map_list_families, pango_font_map_list_families)                   \
  X(font_map_load_font, pango_font_map_load_font)                           \
  X(layout_get_extents, pango_layout_get_extents)                           \
  X(layout_get_iter, pango_layout_get_iter)                                 \
  X(layout_get_text, pango_layout_get_text)                                 \
  X(layout_index_to_pos, pango_layout_index_to_pos)                         \
  X(layout_iter_free, pango_layout_iter_free)                               \
  X(layout_iter_get_baseline, pango_layout_iter_get_baseline)               \
  X(layout_iter_get_line_extents, pango_layout_iter_get_line_extents)       \
  X(layout_iter_get_line_readonly, pango_layout_iter_get_line_readonly)     \
  X(layout_iter_get_run_readonly, pango_layout_iter_get_run_readonly)       \
  X(layout_iter_next_line, pango_layout_iter_next_line)                     \
  X(layout_iter_next_run, pango_layout_iter_next_run)                       \
  X(layout_new, pango_layout_new)                                           \
  X(layout_set_alignment, pango_layout_set_alignment)                       \
  X(layout_set_attributes, pango_layout_set_attributes)                     \
  X(layout_set_ellipsize, pango_layout_set_ellipsize)                       \
  X(layout_set_font_description, pango_layout_set_font_description)         \
  X(layout_set_height, pango_layout_set_height)                             \
  X(layout_set_justify, pango_layout_set_justify)                           \
  X(layout_set_spacing, pango_layout_set_spacing)                           \
  X(layout_set_text, pango_layout_set_text)                                 \
  X(layout_set_width, pango_layout_set_width)                               \
  X(layout_set_wrap, pango_layout_set_wrap)                                 \
  X(version_string, pango_version_string)                                   \
  X(object_unref, g_object_unref)                                           \
  X(free, g_free)                                                           \
  X(hb_version_string, hb_version_string)

#define FLICK_PANGO_FIELD(field, symbol) __typeof__(&symbol) _Nonnull field;
/// The functions, each set once the library is loaded.
typedef struct flick_pango_symbols {
  FLICK_PANGO_SYMBOLS(FLICK_PANGO_FIELD)
} flick_pango_symbols;
#undef FLICK_PANGO_FIELD

/// Loads Pango and what it needs (once per process, thread-safe) and returns its functions;
/// NULL when it cannot, with `*error` (when not NULL) pointing at a static one-line reason.
const flick_pango_symbols *_Nullable flick_pango_load(const char *_Nullable *_Nullable error);

#endif
