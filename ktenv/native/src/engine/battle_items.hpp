// ktenv/engine/battle_items.py: What acts on a battle besides dice: the item windows (R18.1) with Firewall, Golem, Talisman,
// Declarations, one per line, in Python's names (the build gives an undefined one a stub that throws
// Unported, so the differential test skips what is not ported yet).
#pragma once

#include "core.hpp"

namespace ktenv::battle_items {

}  // namespace ktenv::battle_items
