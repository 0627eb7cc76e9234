"""Tests for ktenv.kings_and_things.board: geometry (R3.1), start positions (R3.3, R4.4), laying (R3.2),
Sea replacement (R3.4, RD2.2, RX X1) and the hex stack (R3.5)."""

from collections import Counter

import numpy as np
import pytest

from ktenv.kings_and_things.board import (
    CLOCKWISE_CORNERS,
    DIRECTION_NAMES,
    DIRECTIONS,
    board_radius,
    form_hex_stack,
    geometry,
    hex_label,
    lay_board,
    replace_sea_at_start,
    start_hex_needs_replacement,
    start_hex_settled,
    start_position_choices,
)
from ktenv.kings_and_things.constants import DESERT, FOREST, JUNGLE, MOUNTAIN, PLAINS, SEA
from ktenv.rng import Dice

COUNTS = [6, 6, 5, 5, 6, 6, 6, 8]  # data/terrain.csv, by terrain code
L = PLAINS  # a land tile for hand-built boards


def _axial_distance(a, b):
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


# ---------------------------------------------------------------- geometry (R3.1)


def test_directions_clockwise():
    """R3.1.2: E, SE, SW, W, NW, NE; opposite directions sum to zero."""
    assert DIRECTIONS == ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
    assert DIRECTION_NAMES == ("E", "SE", "SW", "W", "NW", "NE")
    for d in range(6):
        a, b = DIRECTIONS[d], DIRECTIONS[(d + 3) % 6]
        assert (a[0] + b[0], a[1] + b[1]) == (0, 0)


@pytest.mark.parametrize("radius, n", [(0, 1), (1, 7), (2, 19), (3, 37)])
def test_hex_counts_and_cache(radius, n):
    """R3.2: 19 hexes at radius 2, 37 at radius 3; geometry is cached per radius."""
    geo = geometry(radius)
    assert geo.n_hexes == n == len(geo.coords) == len(geo.index_of)
    assert geometry(radius) is geo


def test_spiral_order():
    """R3.1.4: index 0 is the centre, ring k occupies its index range, ring 1 starts at NW and
    the next hex is its E neighbour; each ring starts at k·NW."""
    geo = geometry(3)
    assert tuple(geo.coords[0]) == (0, 0)
    ranges = {0: range(1), 1: range(1, 7), 2: range(7, 19), 3: range(19, 37)}
    for k, idx in ranges.items():
        assert all(geo.ring[i] == k for i in idx)
        if k:
            assert tuple(geo.coords[idx[0]]) == (0, -k)  # k·NW
            assert idx[0] == geo.corner(k, "NW")
    assert tuple(geo.coords[1]) == DIRECTIONS[DIRECTION_NAMES.index("NW")]
    assert geo.neighbours[1, DIRECTION_NAMES.index("E")] == 2
    # consecutive hexes of a ring are adjacent, and the ring closes on itself
    for idx in list(ranges.values())[1:]:
        for a, b in zip(idx, list(idx[1:]) + [idx[0]]):
            assert geo.distance[a, b] == 1
    # index_of inverts coords
    for i, (q, r) in enumerate(geo.coords.tolist()):
        assert geo.index_of[(q, r)] == i


def test_spiral_prefix_shared_between_radii():
    """R3.1.4: the radius-2 board is the first 19 hexes of the radius-3 spiral."""
    assert np.array_equal(geometry(2).coords, geometry(3).coords[:19])


@pytest.mark.parametrize("radius", [1, 2, 3])
def test_neighbours_symmetric_and_correct(radius):
    """R3.1.2: neighbour d of a is a + DIR[d]; then neighbour d+3 of it is a again."""
    geo = geometry(radius)
    for i in range(geo.n_hexes):
        q, r = geo.coords[i].tolist()
        for d, (dq, dr) in enumerate(DIRECTIONS):
            j = int(geo.neighbours[i, d])
            assert j == geo.index_of.get((q + dq, r + dr), -1)
            if j >= 0:
                assert geo.neighbours[j, (d + 3) % 6] == i
        assert geo.adjacent[i] == tuple(int(j) for j in geo.neighbours[i] if j >= 0)


@pytest.mark.parametrize("radius", [2, 3])
def test_distance_matches_brute_force(radius):
    """R3.1.1: distance = max(|dq|, |dr|, |ds|); checked against BFS over neighbours too."""
    geo = geometry(radius)
    coords = geo.coords.tolist()
    for i in range(geo.n_hexes):
        bfs = {i: 0}
        frontier = [i]
        while frontier:
            nxt = []
            for a in frontier:
                for b in geo.adjacent[a]:
                    if b not in bfs:
                        bfs[b] = bfs[a] + 1
                        nxt.append(b)
            frontier = nxt
        for j in range(geo.n_hexes):
            assert geo.distance[i, j] == _axial_distance(coords[i], coords[j]) == bfs[j]
    assert np.array_equal(geo.ring, geo.distance[0])


def test_arrays_read_only():
    """Geometry is shared by every game: its arrays and map cannot be written."""
    geo = geometry(2)
    assert geo.coords.dtype == geo.neighbours.dtype == geo.distance.dtype == np.int8
    for arr in (geo.coords, geo.neighbours, geo.distance, geo.ring):
        with pytest.raises(ValueError):
            arr[0] = 0
    with pytest.raises(TypeError):
        geo.index_of[(9, 9)] = 0


@pytest.mark.parametrize("radius", [2, 3])
def test_corners_have_three_neighbours(radius):
    """R3.1.3, R3.3.2: each corner of the outer ring has exactly 3 on-board neighbours."""
    geo = geometry(radius)
    for name in DIRECTION_NAMES:
        c = geo.corner(radius, name)
        assert geo.ring[c] == radius
        assert len(geo.adjacent[c]) == 3
        assert (geo.neighbours[c] >= 0).sum() == 3


def test_corner_errors_and_label():
    geo = geometry(2)
    assert tuple(geo.coords[geo.corner(2, "NE")]) == (2, -2)
    with pytest.raises(ValueError):
        geo.corner(3, "NE")
    with pytest.raises(ValueError):
        geo.corner(1, "N")
    assert hex_label(geo, 12) == f"h12 (q={geo.coords[12][0]},r={geo.coords[12][1]})"
    assert hex_label(geo, 0) == "h0 (q=0,r=0)"


# ---------------------------------------------------------------- start positions (R3.3, R4.4)


def _corner_names(option, radius):
    geo = geometry(radius)
    by_index = {geo.corner(radius, n): n for n in DIRECTION_NAMES}
    return tuple(by_index[h] for h in option)


def _clockwise_steps(a, b):
    return (CLOCKWISE_CORNERS.index(b) - CLOCKWISE_CORNERS.index(a)) % 6


def test_board_radius():
    """R3.2: radius 3 for four players, 2 for two or three."""
    assert [board_radius(n) for n in (2, 3, 4)] == [2, 2, 3]
    for bad in (1, 5):
        with pytest.raises(ValueError):
            board_radius(bad)
        with pytest.raises(ValueError):
            start_position_choices(bad)


def test_start_positions_four_players():
    """R3.3.1, R4.4.2, RD2.1: corners 3·NE/SE/SW/NW, any first; the others follow clockwise."""
    opts = [_corner_names(o, 3) for o in start_position_choices(4)]
    assert opts == [
        ("NE", "SE", "SW", "NW"),
        ("SE", "SW", "NW", "NE"),
        ("SW", "NW", "NE", "SE"),
        ("NW", "NE", "SE", "SW"),
    ]
    for o in start_position_choices(4):
        assert all(geometry(3).ring[h] == 3 for h in o)


def test_start_positions_three_players():
    """R3.3.1, R4.4.1 (first player picks A or B), RD2.1: six options, each a whole set,
    others follow clockwise (two corner steps each)."""
    opts = [_corner_names(o, 2) for o in start_position_choices(3)]
    assert len(opts) == 6
    assert [o[0] for o in opts] == list(CLOCKWISE_CORNERS)
    set_a, set_b = {"NE", "SE", "W"}, {"E", "SW", "NW"}
    for o in opts:
        assert set(o) in (set_a, set_b)
        assert _clockwise_steps(o[0], o[1]) == _clockwise_steps(o[1], o[2]) == 2
    assert sum(set(o) == set_a for o in opts) == 3


def test_start_positions_two_players():
    """R3.3.1 ([G§14.3]), RD2.1: any corner, the second player exactly opposite."""
    choices = start_position_choices(2)
    assert len(choices) == 6
    geo = geometry(2)
    for a, b in choices:
        assert tuple(-geo.coords[a]) == tuple(geo.coords[b])
        assert geo.distance[a, b] == 4
    assert len({a for a, _ in choices}) == 6


# ---------------------------------------------------------------- laying the board (R3.2)


@pytest.mark.parametrize("n_players, sizes", [(4, (37, 7, 4)), (3, (19, 10, 19)), (2, (19, 10, 19))])
def test_lay_board_conserves_tiles(n_players, sizes):
    """R3.2.1 (37 laid / 7 provisional / 4 Sea aside), R3.2.2 (19 / 10 / 2 per land + 5 Sea)."""
    for seed in range(5):
        terrain, provisional, aside = lay_board(n_players, COUNTS, Dice(seed))
        assert terrain.dtype == np.int8
        assert (len(terrain), len(provisional), len(aside)) == sizes
        total = Counter(terrain.tolist()) + Counter(provisional) + Counter(aside)
        assert [total[t] for t in range(8)] == COUNTS
        if n_players == 4:
            assert aside == [SEA] * 4
        else:
            assert Counter(aside) == Counter({**{t: 2 for t in range(7)}, SEA: 5})


def test_lay_board_deterministic():
    """RD1.1: the same seed gives the same board; different seeds give different boards."""
    a = lay_board(4, COUNTS, Dice(7))
    b = lay_board(4, COUNTS, Dice(7))
    assert np.array_equal(a[0], b[0]) and a[1:] == b[1:]
    boards = {tuple(lay_board(4, COUNTS, Dice(s))[0].tolist()) for s in range(6)}
    assert len(boards) == 6


def test_lay_board_validation():
    """R3.2: clear errors for a malformed or too small tile supply."""
    with pytest.raises(ValueError, match="8 entries"):
        lay_board(4, COUNTS[:7], Dice(0))
    with pytest.raises(ValueError, match="non-negative"):
        lay_board(4, [6, 6, 5, 5, 6, 6, 6, -1], Dice(0))
    with pytest.raises(ValueError, match="set-aside"):
        lay_board(4, [6, 6, 5, 5, 6, 6, 6, 3], Dice(0))  # fewer than 4 Sea
    with pytest.raises(ValueError, match="set-aside"):
        lay_board(3, [6, 6, 5, 1, 6, 6, 6, 8], Dice(0))  # only one Jungle
    with pytest.raises(ValueError, match="needs 37"):
        lay_board(4, [5, 5, 5, 5, 5, 5, 5, 4], Dice(0))
    lay_board(2, [5, 5, 5, 5, 5, 5, 5, 5], Dice(0))  # 40 - 19 = 21 >= 19: enough


# ---------------------------------------------------------------- Sea replacement (R3.4)


def _radius2_land():
    return np.full(geometry(2).n_hexes, L, dtype=np.int8)


def _conserved(before_board, before_prov, after_board, after_prov, removed):
    return Counter(before_board.tolist()) + Counter(before_prov) == (
        Counter(after_board.tolist()) + Counter(after_prov) + Counter(removed)
    )


def test_no_trigger_leaves_board_alone():
    """R3.4.1: a land start hex with at most one Sea neighbour is not touched (no draw)."""
    geo = geometry(2)
    start = geo.corner(2, "NE")
    terrain = _radius2_land()
    terrain[geo.adjacent[start][0]] = SEA
    dice = Dice(1)
    state = dice.state
    prov = [DESERT, SEA]
    removed = []
    assert not start_hex_needs_replacement(terrain, start, geo)
    assert replace_sea_at_start(terrain, start, prov, removed, geo, 2, dice) == 0
    assert prov == [DESERT, SEA] and removed == [] and dice.state == state


def test_replacement_sea_start_all_land_stack():
    """R3.4.2: the start hex is replaced first; with 2 land neighbours the condition then holds."""
    geo = geometry(2)
    start = geo.corner(2, "SW")
    terrain = _radius2_land()
    terrain[start] = SEA
    nbs = geo.adjacent[start]
    terrain[nbs[0]] = SEA  # one Sea neighbour, two land
    before, prov = terrain.copy(), [FOREST, FOREST, FOREST]
    removed = []
    n = replace_sea_at_start(terrain, start, prov, removed, geo, 2, Dice(3))
    assert n == 1
    assert terrain[start] == FOREST and terrain[nbs[0]] == SEA  # 2 land neighbours: stop
    assert removed == [SEA] and len(prov) == 2
    assert start_hex_settled(terrain, start, geo, 2)
    assert _conserved(before, [FOREST] * 3, terrain, prov, removed)


def test_replacement_two_sea_neighbours_direction_order():
    """R3.4.2: with a land start and 3 Sea neighbours, neighbours are replaced in direction
    order E, SE, SW, W, NW, NE, stopping once two are land."""
    geo = geometry(2)
    start = geo.corner(2, "NW")
    terrain = _radius2_land()
    nbs = geo.adjacent[start]  # in direction order
    for j in nbs:
        terrain[j] = SEA
    prov = [MOUNTAIN] * 4
    removed = []
    assert replace_sea_at_start(terrain, start, prov, removed, geo, 2, Dice(0)) == 2
    assert [int(terrain[j]) for j in nbs] == [MOUNTAIN, MOUNTAIN, SEA]
    assert removed == [SEA, SEA] and prov == [MOUNTAIN] * 2


def test_replacement_option_three_neighbours():
    """RX X1, R3.4.1 [F]: with start_land_neighbours=3 every Sea neighbour is replaced."""
    geo = geometry(2)
    start = geo.corner(2, "E")
    terrain = _radius2_land()
    nbs = geo.adjacent[start]
    terrain[start] = SEA
    terrain[nbs[1]] = SEA
    terrain[nbs[2]] = SEA
    prov = [DESERT] * 5
    removed = []
    assert replace_sea_at_start(terrain, start, prov, removed, geo, 3, Dice(0)) == 3
    assert terrain[start] == DESERT and all(terrain[j] != SEA for j in nbs)
    assert start_hex_settled(terrain, start, geo, 3)
    assert removed == [SEA] * 3 and len(prov) == 2


def test_replacement_drawn_sea_is_replaced_again():
    """R3.4.2: a drawn Sea is replaced again and goes to `removed` too (never redrawn)."""
    geo = geometry(2)
    start = geo.corner(2, "SE")
    seen = set()
    for seed in range(20):
        terrain = _radius2_land()
        terrain[start] = SEA
        before, prov0 = terrain.copy(), [SEA, SEA, JUNGLE, SEA]
        prov, removed = list(prov0), []
        dice = Dice(seed)
        # expected: draws from a copy of the generator on the same shrinking stack
        shadow, sim, draws = dice.copy(), list(prov0), []
        while True:
            draws.append(sim.pop(shadow.below(len(sim))))
            if draws[-1] != SEA:
                break
        n = replace_sea_at_start(terrain, start, prov, removed, geo, 2, dice)
        assert n == len(draws)
        assert removed == [SEA] * n  # the original Sea plus every drawn Sea
        assert terrain[start] == JUNGLE
        assert prov == sim and dice.state == shadow.state
        assert _conserved(before, prov0, terrain, prov, removed)
        seen.add(n)
    assert max(seen) >= 3  # some seed drew a Sea at least twice


def test_replacement_empty_stack_stops():
    """R3.4.2: if the provisional stack runs out, replacement stops and the position stands."""
    geo = geometry(2)
    start = geo.corner(2, "W")
    terrain = _radius2_land()
    terrain[start] = SEA
    for j in geo.adjacent[start]:
        terrain[j] = SEA
    prov = [SEA, DESERT]
    removed = []
    n = replace_sea_at_start(terrain, start, prov, removed, geo, 2, Dice(5))
    assert prov == []
    assert not start_hex_settled(terrain, start, geo, 2)
    assert removed.count(SEA) == n
    # either Sea then Desert both land on the start hex, or Desert goes there and the drawn Sea
    # replaces the E-most Sea neighbour: two replacements either way, then the stack is empty
    assert n == 2 and terrain[start] == DESERT
    assert replace_sea_at_start(terrain, start, prov, removed, geo, 2, Dice(5)) == 0


def test_replacement_off_board_not_counted():
    """R3.4.3, R3.3.2: a corner has 3 on-board neighbours; off-board ones count as neither Sea
    nor land. Two Sea neighbours trigger; one replacement gives two land neighbours and stops."""
    geo = geometry(3)
    start = geo.corner(3, "NE")
    terrain = np.full(geo.n_hexes, L, dtype=np.int8)
    nbs = geo.adjacent[start]
    terrain[nbs[0]] = terrain[nbs[1]] = SEA
    assert start_hex_needs_replacement(terrain, start, geo)
    prov, removed = [DESERT] * 3, []
    assert replace_sea_at_start(terrain, start, prov, removed, geo, 2, Dice(0)) == 1
    assert terrain[nbs[0]] == DESERT and terrain[nbs[1]] == SEA


def test_replacement_on_laid_boards():
    """R4.4.3: applied to each start hex in turn order on real boards, tiles are conserved and
    each start hex ends settled unless the stack ran out."""
    for n_players in (2, 3, 4):
        for seed in range(30):
            dice = Dice(seed)
            terrain, prov, aside = lay_board(n_players, COUNTS, dice)
            before, prov0, removed = terrain.copy(), list(prov), []
            geo = geometry(board_radius(n_players))
            starts = start_position_choices(n_players)[seed % len(start_position_choices(n_players))]
            for s in starts:
                replace_sea_at_start(terrain, s, prov, removed, geo, 2, dice)
                if prov:
                    assert start_hex_settled(terrain, s, geo, 2) or not start_hex_needs_replacement(
                        terrain, s, geo
                    )
            assert set(removed) <= {SEA}
            assert _conserved(before, prov0, terrain, prov, removed)
            stack = form_hex_stack(prov, removed, aside, dice)
            board_and_stack = Counter(terrain.tolist()) + Counter(stack)
            assert [board_and_stack[t] for t in range(8)] == COUNTS


def test_replacement_requires_dice_and_valid_option():
    geo = geometry(2)
    terrain = _radius2_land()
    with pytest.raises(TypeError):
        replace_sea_at_start(terrain, 0, [], [], geo, 2)
    with pytest.raises(ValueError):
        replace_sea_at_start(terrain, 0, [], [], geo, 7, Dice(0))


# ---------------------------------------------------------------- hex stack (R3.5)


def test_form_hex_stack():
    """R3.5.1, RD2.3: provisional + removed Sea + set-aside, shuffled by the game's dice."""
    prov, removed, aside = [DESERT, FOREST], [SEA, SEA], [SEA, MOUNTAIN, PLAINS]
    stack = form_hex_stack(prov, removed, aside, Dice(2))
    assert Counter(stack) == Counter(prov + removed + aside)
    assert stack == form_hex_stack(prov, removed, aside, Dice(2))
    assert prov == [DESERT, FOREST]  # inputs untouched
    orders = {tuple(form_hex_stack(prov, removed, aside, Dice(s))) for s in range(10)}
    assert len(orders) > 1
