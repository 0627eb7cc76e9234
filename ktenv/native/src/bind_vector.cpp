// Bindings of the batched games (src/vector/): ktenv.vector.
#include <nanobind/nanobind.h>

namespace nb = nanobind;

void bind_vector(nb::module_& m) { (void)m; }
