// CPango is a C target rather than a system library so that its include/ folder, where Pango's
// headers are linked from /usr/include, is on dependents' header search path (Pango's
// pkg-config flags carry -pthread, from gio-2.0, which SwiftPM refuses with a warning in every
// client build), and so that Pango is loaded only when text is laid out. The include paths glib
// and cairo need come from cairo's pkg-config file; HarfBuzz's headers are linked into include/
// too (Package.swift).
#include "CPango.h"

#include <flick_dynamic_library.h>

static flick_pango_symbols functions;

// libpangocairo needs libpango and libpangoft2, which need GLib, HarfBuzz and FriBidi: dlsym on
// its handle finds every function of the list in it or in them.
static const char *const names[] = {"libpangocairo-1.0.so.0", "libpangocairo-1.0.so", NULL};
#define FLICK_PANGO_NAME(field, symbol) #symbol,
static const char *const symbols[] = {FLICK_PANGO_SYMBOLS(FLICK_PANGO_NAME) NULL};
static flick_dynamic_library library = FLICK_DYNAMIC_LIBRARY(names, symbols, (void **)&functions);

const flick_pango_symbols *flick_pango_load(const char **error) {
  return flick_dynamic_library_require(&library, error) ? &functions : NULL;
}
