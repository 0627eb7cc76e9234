"""Every Kingsburg engine test runs on both engines.

Tests arrange Python states by hand and script the dice; while the tests of this folder run, each `step` (and
each `resume` of an arranged state) on a Python KingsburgState is played on the native engine too, from a native
copy of the same state: the masks must agree before the step and the states after it. A difference names the
first differing field and the decision played. Set KTENV_SHADOW=0 to switch this off (KTENV_NO_NATIVE=1 does
too).
"""

from __future__ import annotations

import os

import numpy as np
import pytest


def _shadow_checker():
    from ktenv.kingsburg import actions as A
    from ktenv.kingsburg.machine import legal_mask
    from ktenv.kingsburg.native.diff import mismatch
    from ktenv.kingsburg.native.game import NativeKingsburg

    state = {"checked": 0}

    def shadow(s, action, play):
        nat = NativeKingsburg.from_python(s)
        if action is None:  # machine.resume of a hand-arranged state
            play(s, None)
            nat.native.resume()
            state["checked"] += 1
            problem = mismatch(s, nat)
            if problem is not None:
                raise AssertionError(f"the native engine resumed the arranged state differently: {problem}")
            return
        decision = A.DECISION_NAMES[s.decision]
        if not np.array_equal(legal_mask(s), nat.legal_mask()):
            raise AssertionError(f"the native engine's mask differs at {decision}: python "
                                 f"{np.flatnonzero(legal_mask(s)).tolist()}, native "
                                 f"{np.flatnonzero(nat.legal_mask()).tolist()}")
        play(s, action)
        nat.apply(int(action))
        state["checked"] += 1
        problem = mismatch(s, nat)
        if problem is not None:
            raise AssertionError(f"the native engine played {decision} {A.action_name(int(action))} "
                                 f"differently: {problem}")

    shadow.state = state
    return shadow


@pytest.fixture(autouse=True, scope="package")
def _both_kingsburg_engines():
    from ktenv.kingsburg import machine, native

    if not native.available() or os.environ.get("KTENV_SHADOW") == "0" or os.environ.get("KTENV_NO_NATIVE") == "1":
        yield
        return
    machine.shadow = _shadow_checker()
    yield
    machine.shadow = None


@pytest.fixture
def python_steps_alone():
    """For tests that compare the engines themselves: the Python engine's steps are not replayed natively."""
    from ktenv.kingsburg import machine

    shadow = machine.shadow
    machine.shadow = None
    yield
    machine.shadow = shadow
