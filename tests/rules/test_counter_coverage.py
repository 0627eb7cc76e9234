"""No counter in the box is inert: every hero, event and magic item of the data names the rules
tests that prove its effect, and those tests exist (Appendices A-C)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from ktenv.kings_and_things import catalog as cat

EFFECT_TESTS = {
    # heroes (Appendix A)
    "Baron Munchausen": ["test_battle_items::test_baron_hits_enemy_forts_and_towns_but_not_a_citadel"],
    "Grand Duke": ["test_battle_items::test_baron_hits_enemy_forts_and_towns_but_not_a_citadel"],
    "Deerhunter": ["test_movement::test_deerhunter_stack_pays_one_per_hex",
                   "test_movement::test_deerhunter_leads_out_of_a_pinned_hex"],
    "Warlord": ["test_battle_items::test_warlord_turns_an_enemy_creature"],
    "Master Thief": ["test_special_powers::test_thief_wins_the_duel_and_takes_all_gold",
                     "test_special_powers::test_thief_caught_after_a_tie_returns_to_the_pool_turned_over"],
    "Assassin Primus": ["test_special_powers::test_assassin_roll_decides_whose_choice_dies"],
    "Marksman": ["test_battle_items::test_marksman_value_two_hit_is_placed_by_his_owner"],
    "Swordmaster": ["test_battle_items::test_swordmaster_parries_once_a_round"],
    "Dwarf King": ["test_economy::test_dwarf_king_doubles_mines_a_9_r6_3",
                   "test_events::test_b5_mother_lode_twice_the_income_counters_mines_four_times_with_the_dwarf_king"],
    "Elf Lord": ["test_support::test_a11_heroes_fight_in_the_step_their_flags_give"],
    "Arch Cleric": ["test_support::test_a11_heroes_fight_in_the_step_their_flags_give"],
    "Arch Mage": ["test_support::test_a11_heroes_fight_in_the_step_their_flags_give"],
    "Ghaog II": ["test_movement::test_flying_hero_declared_blocks"],
    "Lord of the Eagles": ["test_support::test_a11_heroes_fight_in_the_step_their_flags_give"],
    "Sir Lance-a-lot": ["test_support::test_a11_heroes_fight_in_the_step_their_flags_give"],
    "Desert Master": ["test_support::test_rt12_support_by_terrain_anywhere_and_by_the_lord_in_the_hex"],
    "Forest King": ["test_economy::test_one_terrain_lord_at_a_time_r7_3"],
    "Ice Lord": ["test_events::test_r7_10_two_terrain_lords_the_player_to_the_right_picks_the_one_kept"],
    "Jungle Lord": ["test_catalog::test_a10_exactly_seven_terrain_lords"],
    "Mountain King": ["test_support::test_rt12_support_by_terrain_anywhere_and_by_the_lord_in_the_hex"],
    "Plains Lord": ["test_catalog::test_a10_exactly_seven_terrain_lords"],
    "Swamp King": ["test_support::test_rt12_support_by_terrain_anywhere_and_by_the_lord_in_the_hex"],
    # events (Appendix B)
    "Willing Workers": ["test_events::test_b1_willing_workers_tower_or_one_level_never_a_citadel"],
    "Terrain Disaster": ["test_events::test_b2_disaster_tries_hexes_of_the_same_terrain_until_it_strikes"],
    "Big Juju": ["test_events::test_b3_own_hex_choose_terrain_from_the_stack_special_income_goes",
                 "test_events::test_b3_sea_result_army_escapes_the_rest_is_lost"],
    "Dark Plague": ["test_events::test_b4_rt9_plague_strikes_every_player_including_the_player"],
    "Mother Lode": ["test_events::test_b5_mother_lode_twice_the_income_counters_mines_four_times_with_the_dwarf_king"],
    "Good Harvest": ["test_events::test_b6_good_harvest_hexes_forts_and_heroes_without_income_counters"],
    "Teeniepox": ["test_events::test_b7_teenie_pox_largest_stack_ties_chosen_by_the_victim"],
    "Defection": ["test_events::test_b8_defection_pool_hero_strictly_higher_roll_wins"],
    "Vandals": ["test_events::test_b9_vandals_one_fort_loses_a_level_citadel_immune"],
    "Weather Control": ["test_events::test_b10_weather_control_puts_the_cloud_on_a_land_hex_in_range"],
    # magic items (Appendix C)
    "Dust of Defense": ["test_battle_items::test_dust_of_defense_sends_the_attacker_away_and_the_fan_stops_it"],
    "Balloon": ["test_balloon::test_balloon_carries_up_to_three_small_creatures_up_to_three_hexes"],
    "Fan": ["test_balloon::test_fan_blows_the_balloon_into_the_sea_and_the_passengers_escape",
            "test_events::test_c3_fan_moves_or_removes_the_cloud"],
    "Elixir": ["test_events::test_c4_elixir_protects_its_holder_from_plague"],
    "Firewall": ["test_battle_items::test_firewall_rolled_value_is_a_magic_fort_rt19"],
    "Lucky Charm": ["test_battle_items::test_lucky_charm_changes_a_die"],
    "Golem": ["test_battle_items::test_golem_takes_no_ranged_hits_and_lowers_them_rt18"],
    "Dispel Magic": ["test_battle_items::test_dispel_magic_cancels_an_item_and_sends_magic_to_melee",
                     "test_events::test_c8_dispel_magic_cancels_big_juju"],
    "Talisman": ["test_battle_items::test_talisman_saves_once_per_step_rt17"],
    "Magic Bow": ["test_battle_items::test_magic_bow_makes_its_bearer_a_ranged_attacker"],
    "Magic Sword": ["test_battle_items::test_magic_sword_charges_with_two_dice"],
    # house content (R22, house_content=true)
    "Ahasuerus": ["test_house::test_r22_1_ahasuerus_teleports_to_an_own_hex_or_onto_own_creatures"],
    "Lenin": ["test_house::test_r22_2_lenin_side_rolls_3n_minus_1_for_value_one_creatures"],
    "Gypsy King": ["test_house::test_r22_3_village_and_tower_follow_the_gypsy_king_into_an_own_hex"],
    "Tycho Brahe": ["test_house::test_r22_4_tycho_shows_his_owner_the_face_down_hexes_next_to_him"],
    "Portal": ["test_house::test_r22_5_portal_roll_the_owner_sends_at_least_that_many",
               "test_house::test_r22_5_portal_on_own_stack_no_roll_any_number"],
    "Boat": ["test_boat::test_r22_6_boat_carries_creatures_and_heroes_across_the_sea",
             "test_boat::test_r22_6_in_battle_passengers_are_ranged_and_the_boat_fights_and_falls_to_one_hit",
             "test_boat::test_r22_6_retreat_by_boat_across_one_sea_hex_then_removed_at_round_end",
             "test_boat::test_r22_6_bellows_diverts_the_boat_next_to_the_last_sea_hex"],
}


def _names() -> list[str]:
    heroes = list(cat.HERO_NAME)
    every = cat.HOUSE  # the box and the R22 house block
    items = [cat.THING_NAME[c] for c in every.MAGIC_IDS] + [cat.THING_NAME[c] for c in every.EVENT_IDS]
    return heroes + items


def test_every_hero_event_and_item_has_a_proven_effect():
    missing = [name for name in _names() if name not in EFFECT_TESTS]
    assert not missing, f"counters with no implemented, tested effect: {missing}"


@pytest.mark.parametrize("name", sorted(EFFECT_TESTS))
def test_the_named_tests_exist(name):
    assert name in _names(), f"{name} is not a hero, event or magic item of the data"
    for ref in EFFECT_TESTS[name]:
        module, func = ref.split("::")
        folder = next(p.parent.name for p in Path(__file__).resolve().parents[1].glob(f"*/{module}.py"))
        assert callable(getattr(importlib.import_module(f"tests.{folder}.{module}"), func, None)), ref
