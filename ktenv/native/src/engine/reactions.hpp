// ktenv/engine/reactions.py: R18.2 reaction rounds: Dispel Magic, the Fan (bellows) and the Elixir answer an event or item.
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::reactions {

}  // namespace ktenv::reactions
