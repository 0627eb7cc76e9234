// Bindings of the native agents (src/agents/).
#include <nanobind/nanobind.h>

namespace nb = nanobind;

void bind_agents(nb::module_& m) { (void)m; }
