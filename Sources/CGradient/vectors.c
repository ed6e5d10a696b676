#include "gradient.h"
#include "vectors.h"

#include <stdatomic.h>

/// The widest vectors the loops may use (bits): 256 until flick_gradient_limit_vectors lowers it.
static _Atomic int vector_limit = 256;

int flick_gradient_uses_avx2(void) {
#if defined(FLICK_GRADIENT_AVX2)
  static _Atomic int avx2 = -1;
  int has = atomic_load_explicit(&avx2, memory_order_relaxed);
  if (has < 0) {
    has = __builtin_cpu_supports("avx2") ? 1 : 0;
    atomic_store_explicit(&avx2, has, memory_order_relaxed);
  }
  return has && atomic_load_explicit(&vector_limit, memory_order_relaxed) >= 256;
#else
  return 0;
#endif
}

int flick_gradient_limit_vectors(int bits) {
  atomic_store_explicit(&vector_limit, bits, memory_order_relaxed);
  return flick_gradient_uses_avx2() ? 256 : 0;
}
