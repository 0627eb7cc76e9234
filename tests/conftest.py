"""Every engine test runs on both engines.

Tests arrange Python states by hand (tests/builders.py); while they run, each `step` on a Python
GameState is played on the native engine too, from the same state, and the two states must be equal
afterwards (and an illegal action illegal on both). A difference names the first differing field of the
state and the part of the turn that was played, with its Python module and C++ twin. Set KTENV_SHADOW=0
to switch this off (KTENV_NO_NATIVE=1 does too).
"""

from __future__ import annotations

import os

import numpy as np
import pytest


def _shadow_checker():
    from ktenv.errors import IllegalActionError
    from ktenv.kings_and_things import native
    from ktenv.kings_and_things.dev.diff import mismatch, same_state, to_native
    from ktenv.kings_and_things.engine.machine import layout

    core = native.core()
    state = {"checked": 0}

    def shadow(s, action, play):
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            return play(s, action)
        ns = to_native(s)
        decision, phase = s.decision, s.phase
        try:
            play(s, action)
        except IllegalActionError:
            with pytest.raises(core.IllegalAction):
                ns.step(int(action))
            raise
        ns.step(int(action))
        ns.check_things_index()  # the native state's derived index of the Things matches its arrays
        state["checked"] += 1
        if not same_state(s, ns):
            lay = layout(s)
            where = mismatch(s, ns, decision, phase, cashing=lay.cash <= action < lay.player)
            raise AssertionError(f"the native engine played action {action} differently: {where}")

    shadow.state = state
    return shadow


@pytest.fixture(autouse=True, scope="session")
def _both_engines():
    from ktenv.kings_and_things import native
    from ktenv.kings_and_things.engine import machine

    if not native.available() or os.environ.get("KTENV_SHADOW") == "0" or os.environ.get("KTENV_NO_NATIVE") == "1":
        yield
        return
    machine.shadow = _shadow_checker()
    yield
    machine.shadow = None


@pytest.fixture
def no_shadow():
    """For modules that compare the engines themselves: the Python engine's steps are not replayed
    natively as well (`pytestmark = pytest.mark.usefixtures("no_shadow")`)."""
    from ktenv.kings_and_things.engine import machine

    shadow = machine.shadow
    machine.shadow = None
    yield
    machine.shadow = shadow
