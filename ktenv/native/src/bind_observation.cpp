// Bindings of the native observation encoder (engine/observation.hpp): filled in by its port.
#include <nanobind/nanobind.h>

namespace nb = nanobind;

void bind_observation(nb::module_& m) { (void)m; }
