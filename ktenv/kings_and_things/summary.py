"""What a finished (or running) game looks like in numbers: the CLI's and the arena's summary."""

from __future__ import annotations

from .config import ENCOUNTER_POWERS
from .state import PHASE_NAMES, GameState

REASONS = {
    "sole_citadel": "held the only Citadel from one Construction phase to the next (R16.2)",
    "two_citadels": "held two Citadels at once (R16.3 / R19.2.2)",
    "quick_citadel": "acquired a Citadel and held it to the end of the round (R19.1)",
    "unique_citadel": "held the unique Citadel for a round (R19.2.1)",
    "fixed_rounds": "highest income after the fixed number of rounds (R19.3)",
    "land_conquest": "owned more than half of the land hexes (R19.4)",
    "last_standing": "the last player in the game (R16.6)",
    "round_limit": "highest income when the round limit was reached (R16.7, R19.3)",
}

COUNT_KEYS = ("explorations", "battles", "hexes_conquered", "bribes", "heroes_recruited",
              "events_played", "magic_played", "decisions")


def summary(s: GameState) -> dict:
    players = []
    for p in range(s.n_players):
        owned = s.hex_owner == p
        players.append({
            "player": p,
            "hexes": int(owned.sum()),
            "income": s.income(p),
            "gold": int(s.gold[p]),
            "forts": [int(v) for v in s.hex_fort[owned] if v > 0],
            "citadels": int(s.citadel_hexes(p).size),
            "heroes": int((s.hero_owner == p).sum()),
            "alive": bool(s.alive[p]),
        })
        if s.cfg.encounter_powers:  # R21: powers are public
            players[-1]["power"] = power_name(s, p)
    out = {
        "rounds": int(s.round),
        "finished": s.game_over,
        "phase": PHASE_NAMES[s.phase],
        "winner": s.winners[0] if len(s.winners) == 1 else None,
        "winners": list(s.winners),
        "reason": s.reason,
        "players": players,
    }
    if s.cfg.mysterious_kadab:
        out["face_down_hexes"] = int(s.hex_down.sum())  # R20.3
    out.update({key: int(s.stats[key]) for key in COUNT_KEYS})
    return out


def power_name(s: GameState, p: int) -> str | None:
    """Player p's Encounter power (R21), or None when none was dealt."""
    code = int(s.power[p])
    return ENCOUNTER_POWERS[code] if 0 <= code < len(ENCOUNTER_POWERS) else None


def format_summary(info: dict) -> str:
    fort_names = {1: "Tower", 2: "Keep", 3: "Castle", 4: "Citadel"}
    lines = [f"Game over after {info['rounds']} rounds." if info["finished"]
             else f"Game stopped in round {info['rounds']} ({info['phase']})."]
    if info["winners"]:
        who = " and ".join(f"player {p}" for p in info["winners"])
        lines.append(f"Winner: {who}: {REASONS.get(info['reason'], info['reason'])}.")
    lines.append("")
    lines.append(f"{'player':<8}{'hexes':>6}{'income':>8}{'gold':>6}{'heroes':>8}  forts")
    for row in info["players"]:
        forts = ", ".join(fort_names[v] for v in sorted(row["forts"], reverse=True)) or "-"
        mark = ("" if row["alive"] else " (out)") + (f"  power: {row['power']}" if row.get("power") else "")
        lines.append(f"{row['player']:<8}{row['hexes']:>6}{row['income']:>8}{row['gold']:>6}"
                     f"{row['heroes']:>8}  {forts}{mark}")
    lines.append("")
    lines.append("  ".join(f"{key.replace('_', ' ')}: {info[key]}" for key in COUNT_KEYS))
    if "face_down_hexes" in info:
        lines.append(f"face-down hexes: {info['face_down_hexes']} (Mysterious Kadab, R20.3)")
    return "\n".join(lines)
