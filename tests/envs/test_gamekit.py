"""ktenv.gamekit on its own: a toy third game (a pile of stones; take 1 to 3, the last stone wins; each
player holds a secret card) built only from the shared base passes the same suites as Kings & Things
and Kingsburg (PettingZoo api_test and seed_test, Gymnasium's env checker, the leak checker, exact
masks), and the base's rules hold for it: ends, truncations, rewards, restore, pickling."""

from __future__ import annotations

import copy
import json
import pickle
from dataclasses import asdict, dataclass

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from ktenv.errors import ConfigError, IllegalActionError
from ktenv.gamekit import Engine
from ktenv.gamekit.aec import DEFAULT_MAX_STEPS, RENDER_MODES, SeatedGameEnv, win_rewards, wrap
from ktenv.gamekit.checks import check_mask_exact, check_no_leak, random_play
from ktenv.gamekit.random_agent import RandomAgent
from ktenv.gamekit.single import LearnerSeatEnv

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's notes on Dict observations

N_ACTIONS = 3  # take 1, 2 or 3 stones


@dataclass(frozen=True)
class PileConfig:
    n_players: int = 3
    stones: int = 21
    max_rounds: int = 30  # then the highest card wins (the game is stopped: "round_limit")


@dataclass
class PileState:
    cfg: PileConfig
    pile: int
    cards: list[int]  # secret: each player sees only their own
    taken: list[int]
    actor: int = 0
    turn: int = 0
    reason: str = ""
    winners: tuple[int, ...] = ()

    n_players = property(lambda self: self.cfg.n_players)
    game_over = property(lambda self: bool(self.reason))
    copy = copy.deepcopy

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> PileState:
        d = json.loads(text)
        return cls(**{**d, "cfg": PileConfig(**d["cfg"]), "winners": tuple(d["winners"])})


def new_game(cfg: PileConfig, seed: int) -> PileState:
    cards = np.random.default_rng(seed).integers(10, size=cfg.n_players).tolist()
    return PileState(cfg, cfg.stones, cards, [0] * cfg.n_players)


def legal_mask(s: PileState) -> np.ndarray:
    return np.array([not s.game_over and k + 1 <= s.pile for k in range(N_ACTIONS)], np.int8)


def step(s: PileState, action: int) -> None:
    if not legal_mask(s)[action]:
        raise IllegalActionError(f"action {action} is not legal now")
    s.pile -= action + 1
    s.taken[s.actor] += action + 1
    s.turn += 1
    if s.pile == 0:
        s.reason, s.winners = "last_stone", (s.actor,)
    elif s.turn >= s.cfg.max_rounds * s.n_players:
        top = max(s.cards)
        s.reason, s.winners = "round_limit", tuple(p for p, c in enumerate(s.cards) if c == top)
    else:
        s.actor = (s.actor + 1) % s.n_players


PILE = Engine(state_type=PileState, new_game=new_game, step=step, legal_mask=legal_mask,
              describe_action=lambda s, a: f"take {a + 1} of {s.pile}")


class PileEncoder:
    """[pile left, own card, own stones taken]: nothing about the other players' cards."""

    size = 3
    low, high = np.zeros(size, np.float32), np.ones(size, np.float32)
    layout = {"pile": slice(0, 1), "card": slice(1, 2), "taken": slice(2, 3)}

    def __init__(self, cfg: PileConfig) -> None:
        self.cfg = cfg

    def encode(self, s: PileState, player: int) -> np.ndarray:
        return np.array([s.pile / self.cfg.stones, s.cards[player] / 9, s.taken[player] / self.cfg.stones], np.float32)


def ansi(s: PileState) -> str:  # this module is the game's renderer
    return f"pile {s.pile}, player {s.actor} to take"


def rgb_array(s: PileState) -> np.ndarray:
    return np.full((4, max(s.pile, 1), 3), 200, np.uint8)


class PileEnv(SeatedGameEnv):
    metadata = {"name": "pile_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 1}
    engine = PILE
    renderer = __name__

    def __init__(self, render_mode=None, reward="win", max_steps=DEFAULT_MAX_STEPS, **config) -> None:
        super().__init__(render_mode, reward, max_steps)
        self.cfg = PileConfig(**config)
        self.encoder = PileEncoder(self.cfg)
        self._seat_players(self.cfg.n_players, N_ACTIONS)

    def _end_reason(self) -> str:
        return self._state.reason

    def _potentials(self) -> np.ndarray:
        return 0.01 * np.array(self._state.taken, np.float64)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        i, s = self.agent_name_mapping[agent], self._state
        mask = legal_mask(s) if s.actor == i and not s.game_over else np.zeros(N_ACTIONS, np.int8)
        return {"observation": self._observation_of(i), "action_mask": mask}

    def _observation_of(self, player: int) -> np.ndarray:
        return self.encoder.encode(self._state, player)

    def _refresh_infos(self) -> None:
        end = self._end_info()
        for a in self._infos:
            self._infos[a] = {"pile": self._state.pile, **end}


class PileSingle(LearnerSeatEnv):
    aec_class = PileEnv
    _named_agent = staticmethod(lambda name: RandomAgent())


def hidden_variants(s: PileState, observer: int, rng: np.random.Generator) -> list[tuple[str, PileState]]:
    t = s.copy()
    q = (observer + 1) % s.n_players
    t.cards[q] = (s.cards[q] + 1 + int(rng.integers(9))) % 10
    return [("another player's card", t)]


def public_variants(s: PileState, observer: int, rng: np.random.Generator) -> list[tuple[str, PileState]]:
    t = s.copy()
    t.pile += 1
    return [("pile", t)]


def play(e, seed: int) -> tuple[dict, dict, dict]:
    """Random play to the end: per agent the summed reward, the last info and the last (terminated, truncated)."""
    e.reset(seed=seed)
    rng, total, infos, ends = np.random.default_rng(seed), dict.fromkeys(e.possible_agents, 0.0), {}, {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        infos[agent], ends[agent] = info, (term, trunc)
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total, infos, ends


@pytest.mark.parametrize("n", [2, 4])
def test_pettingzoo_suites(n):
    api_test(wrap(PileEnv, {"n_players": n}), num_cycles=200)
    api_test(wrap(PileEnv, {"n_players": n, "reward": "shaped", "illegal_action": "terminate"}), num_cycles=200)
    seed_test(lambda: wrap(PileEnv, {"n_players": n}), num_cycles=100)


def test_gymnasium_check_env_and_the_learner_seat():
    check_env(PileSingle(seat="random", n_players=3, render_mode="ansi"), skip_render_check=False)
    env = PileSingle(seat=1, opponents="random", n_players=2)
    obs, info = env.reset(seed=0)  # the opponent (seat 0) has moved
    assert info["seat"] == 1 and env.game_state.actor == 1 and env.game_state.pile < 21
    assert np.array_equal(info["action_mask"], [1, 1, 1]) and obs[1] == env.game_state.cards[1] / 9
    env = PileSingle(seat=0, n_players=2, stones=2)
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(2)  # take 3 of 2: masked out
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.game_state.pile == 2
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    env = PileSingle(seat=0, n_players=2, stones=2, illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(2)
    with pytest.raises(ConfigError, match="expected 2 \\(one per other seat\\), got 3"):
        PileSingle(opponents=[RandomAgent()] * 3, n_players=3)
    with pytest.raises(ConfigError, match="seat: expected 0-1 or 'random'"):
        PileSingle(seat=2, n_players=2)


def test_leak_checker_and_exact_masks():
    cfg = PileConfig(n_players=3)
    states = list(random_play(PILE, cfg, 20, seed=1, gap=(1, 4)))
    assert len(states) == 20 and len({s.to_json() for s in states}) > 10
    enc, rng = PileEncoder(cfg), np.random.default_rng(0)
    kw = {"hidden_variants": hidden_variants, "public_variants": public_variants, "legal_mask": legal_mask}
    assert sum(check_no_leak(enc.encode, s, p, rng, **kw) for s in states for p in range(3)) == 120

    def leaky(s, p):
        return np.append(enc.encode(s, p), s.cards[(p + 1) % 3])

    with pytest.raises(AssertionError, match=r"hidden change 'another player's card' changed player 0's .* at \[3\]"):
        check_no_leak(leaky, states[0], 0, rng, **kw)
    raw = PileEnv(n_players=3)
    raw.reset(seed=0)
    tried = sum(check_mask_exact(raw, s, rng) for s in states if s.pile >= 3)
    assert tried > 0


def test_ends_rewards_and_truncations():
    total, infos, ends = play(wrap(PileEnv, {"n_players": 3, "stones": 10}), seed=3)
    end = infos["player_0"]
    assert end["reason"] == "last_stone" and len(end["winners"]) == 1 and set(ends.values()) == {(True, False)}
    assert total[end["winner"]] == 1.0 and abs(sum(total.values())) < 1e-9
    # shaped: the win reward plus the potential's change (0.01 a stone taken)
    e = PileEnv(n_players=3, stones=10, reward="shaped")
    total, infos, ends = play(e, seed=3)
    win, taken = win_rewards(3, list(e.game_state.winners)), e.game_state.taken
    assert total == pytest.approx({a: win[i] + 0.01 * taken[i] for i, a in enumerate(e.possible_agents)})
    # the round limit truncates, and its winners are still rewarded
    for seed in range(4):
        total, infos, ends = play(PileEnv(n_players=2, stones=100, max_rounds=2), seed=seed)
        winners = [int(a[-1]) for a in infos["player_0"]["winners"]]
        assert infos["player_0"]["reason"] == "round_limit" and set(ends.values()) == {(False, True)}
        assert list(total.values()) == win_rewards(2, winners)
    # the step limit truncates with no winner and no end reward
    total, infos, ends = play(PileEnv(n_players=2, stones=100, max_steps=3), seed=5)
    assert {k: v for k, v in infos["player_1"].items() if k != "pile"} == {"winner": None, "winners": [],
                                                                          "reason": "step_limit"}
    assert set(total.values()) == {0.0} and set(ends.values()) == {(False, True)}


def test_restore_snapshot_pickle_render_and_errors():
    e = PileEnv(n_players=2, stones=5, render_mode="ansi")
    e.reset(seed=2)
    while not e.game_state.game_over:
        e.step(int(np.flatnonzero(e.action_masks())[0]))
    finished = e.snapshot()
    e.restore(finished)  # a finished game restored: ended, no reward handed out again
    assert all(e.terminations.values()) and set(e.rewards.values()) == {0.0}
    e.reset(seed=2)
    e.step(0)
    clone = pickle.loads(pickle.dumps(e))
    assert clone.snapshot() == e.snapshot() and clone.infos == e.infos
    assert clone.observe("player_1")["action_mask"].any()
    assert e.render() == "pile 4, player 1 to take" and e.describe_action(2) == "take 3 of 4"
    before = e.snapshot()
    with pytest.raises(ValueError, match=r"outside the action space Discrete\(3\)"):
        e.step(3)
    with pytest.raises(TypeError, match="expected a whole number"):
        e.step(1.0)
    e.step(2)  # player 1 takes 3: pile 1
    with pytest.raises(IllegalActionError):
        e.step(1)
    assert e.game_state.pile == 1 and e.agent_selection == "player_0"
    e.step(0)  # player 0 takes the last stone
    assert e.infos["player_1"]["winner"] == "player_0" and e.rewards == {"player_0": 1.0, "player_1": -1.0}
    with pytest.raises(ConfigError, match="config differs"):
        PileEnv(n_players=3).reset(options={"state": before})
    with pytest.raises(TypeError, match="expected a PileState or its JSON text, got int"):
        e.restore(7)
    with pytest.raises(ConfigError, match="reward: 'points' is not one of"):
        PileEnv(reward="points")
    with pytest.raises(ConfigError, match="illegal_action: 'ignore' is not one of"):
        wrap(PileEnv, {"illegal_action": "ignore"})


def test_the_base_imports_no_game():
    """ktenv.gamekit serves every game: it imports neither game's environment nor anything above them."""
    from tests.project.test_imports import _imports_from, graph

    banned = ("ktenv.kings_and_things", "ktenv.kingsburg", "ktenv.arena", "ktenv.agents",
              "ktenv.training")
    bad = _imports_from(graph(), "ktenv.gamekit", banned)
    assert not bad, "\n".join(bad)
    edges = graph()
    assert "ktenv.gamekit.aec" in edges["ktenv.kings_and_things.env.aec"]
    assert "ktenv.gamekit.aec" in edges["ktenv.kingsburg.aec"]
