#include <pango/pangocairo.h>
#include <pango/pango.h>
