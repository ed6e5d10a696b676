// CPango is a C target rather than a system library only so that its include/ folder, where the
// library's headers are linked from /usr/include, is on dependents' header search path: the
// library's pkg-config flags carry -pthread (from gio-2.0), which SwiftPM refuses and reports as
// a warning in every client build. The include paths glib, cairo, harfbuzz and fribidi need come
// from their own pkg-config files, which carry no -pthread (Package.swift).
int flick_CPango_anchor;
