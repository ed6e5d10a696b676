#include "flick_dynamic_library.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/// Opens the first name that loads and resolves every symbol; returns 1, or 0 with `failure` set.
static int load(flick_dynamic_library *library) {
  void *handle = NULL;
  const char *loaded = NULL;
  char tried[256] = "";
  const char *reason = "no library name given";
  for (const char *const *name = library->names; *name && !handle; name++) {
    handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
    loaded = *name;
    if (!handle) {
      const char *text = dlerror();
      reason = text ? text : "not found";
      size_t used = strlen(tried);
      snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", *name);
    }
  }
  if (!handle) {
    snprintf(library->failure, sizeof library->failure, "cannot load %s (%s)", tried, reason);
    return 0;
  }
  for (size_t i = 0; library->symbols[i]; i++) {
    dlerror();
    library->slots[i] = dlsym(handle, library->symbols[i]);
    if (!library->slots[i]) {
      const char *text = dlerror();
      snprintf(library->failure, sizeof library->failure, "%s has no symbol %s (%s)", loaded, library->symbols[i],
               text ? text : "null");
      return 0;
    }
  }
  return 1;
}

int flick_dynamic_library_require(flick_dynamic_library *library, const char **error) {
  pthread_mutex_lock(&library->lock);
  if (library->state == 0) library->state = load(library) ? 1 : -1;
  const int state = library->state;
  pthread_mutex_unlock(&library->lock);
  if (state != 1 && error) *error = library->failure;
  return state == 1;
}
