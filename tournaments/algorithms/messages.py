# ruff: noqa: E501 (one message a line, as in the translation catalogue)
"""The algorithms' error messages: code → English template (``%(name)s`` parameters),
written once. An algorithm raises ``DrawError("table_sizes_impossible", count=7, ...)``
(:mod:`tournaments.algorithms.errors`); the site shows the message in the reader's
language (``tournaments.services.errors``; German in ``locale/``).

``gettext_noop`` marks a template for translation without importing Django: the
algorithms stay plain Python. ``WORDS`` are parameter values of ours (what is named,
what kind of character is refused) translated when shown; ``TRANSLATED_PARAMS`` names
the parameters that carry them."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation (as ``django.utils.translation.gettext_noop``)."""
    return message


MESSAGES: dict[str, str] = {
    # boards
    "board_unknown": gettext_noop("unknown board %(board)s: the boards are 4 and 6"),
    "board_one_string": gettext_noop(
        "board colours must be a sequence of colour names, not one string"
    ),
    "board_too_few": gettext_noop("a board needs at least two colours, got %(count)s"),
    "board_colour_empty": gettext_noop("board colours must be non-empty strings, got %(colour)s"),
    "board_colours_twice": gettext_noop("board colours must be distinct, got %(colours)s"),
    # round dates
    "dates_rounds": gettext_noop("between 1 and 200 rounds"),
    "dates_interval": gettext_noop("the interval is 1 to 60 days"),
    "dates_due": gettext_noop("a result is due 1 hour to 60 days after its round, or never"),
    # names
    "name_one_line": gettext_noop(
        "%(subject)s must be one line without line breaks or control characters (found %(char)s)"
    ),
    "name_refused_character": gettext_noop(
        "%(subject)s may not contain %(refused)s: found %(char)s"
    ),
    # schedules
    "round_byes": gettext_noop("round %(round)s has %(count)s byes; use .byes"),
    "players_not_integer": gettext_noop("the number of players must be an integer, got %(given)s"),
    "schedule_players": gettext_noop(
        "a schedule needs between %(low)s and %(high)s players, got %(count)s"
    ),
    "late_order_list": gettext_noop(
        "the order of G4–G6 must list the game numbers 4, 5 and 6, got %(given)s"
    ),
    "late_order_games": gettext_noop(
        "the order of G4–G6 must be a reordering of the games 4, 5 and 6, each once (for example (5, 4, 6)); got %(given)s"
    ),
    "late_order_three_only": gettext_noop(
        "reordering G4–G6 applies only to the three-player DRR, not to %(count)s players"
    ),
    "schedule_rounds": gettext_noop(
        "the number of rounds must be between 1 and 1000, got %(given)s"
    ),
    "restarts_positive": gettext_noop("restarts must be a positive integer, got %(given)s"),
    # seeding and roll-offs
    "players_one_string": gettext_noop("players must be a sequence of ids, not a single string"),
    "roll_nobody": gettext_noop("at least one player is needed to roll for an order"),
    "player_twice": gettext_noop("player %(player)s is listed twice"),
    "roll_range": gettext_noop(
        "roll round %(number)s: %(player)s rolled %(roll)s; a die roll must be a whole number from 1 to 6"
    ),
    "roll_sources": gettext_noop("give only one of seed, rng and recorded_rolls"),
    "places_positive": gettext_noop("places must be a positive integer, got %(given)s"),
    "rolls_not_rounds": gettext_noop(
        "recorded rolls must be a list of roll rounds (each a mapping player → roll)"
    ),
    "roll_round_mapping": gettext_noop(
        "roll round %(number)s must map each player to a roll, got %(given)s"
    ),
    "roll_round_not_needed": gettext_noop(
        "roll round %(number)s (%(rolls)s) is not needed: the order is already decided"
    ),
    "roll_not_taking_part": gettext_noop("roll round %(number)s: %(players)s is not taking part"),
    "rolls_not_taking_part": gettext_noop("roll round %(number)s: %(players)s are not taking part"),
    "roll_round_incomplete": gettext_noop(
        "roll round %(number)s is incomplete: no roll for %(players)s (rolling for %(places)s)"
    ),
    "roll_round_wrong_players": gettext_noop(
        "roll round %(number)s is by %(players)s, but the rolls still needed are by: %(needed)s"
    ),
    "roll_round_empty": gettext_noop(
        "roll round %(number)s is by nobody, but the rolls still needed are by: %(needed)s"
    ),
    "roll_needed": gettext_noop("%(players)s for %(places)s"),
    "roll_place": gettext_noop("place %(place)s"),
    "roll_places": gettext_noop("places %(first)s–%(last)s"),
    "rolls_missing": gettext_noop("rolls are missing: every player must roll"),
    "roll_tie_unresolved": gettext_noop(
        "the recorded rolls leave a tie unresolved: %(tied)s; record their re-roll"
    ),
    "roll_tied": gettext_noop("%(players)s are tied for %(places)s"),
    "roll_rounds_list": gettext_noop(
        "roll rounds must be a list of rounds (each a mapping player → roll)"
    ),
    "roll_off_empty": gettext_noop("a roll-off needs at least one round of rolls"),
    # colours
    "side_by_side_three": gettext_noop(
        "side-by-side allied colours need a board of at least three colours"
    ),
    "opposite_even": gettext_noop(
        "opposite allied colours need an even number of colours, the board has %(count)s"
    ),
    "layout_unknown": gettext_noop("unknown colour layout %(given)s; use one of %(known)s"),
    "colour_or_pair": gettext_noop("expected a colour or a pair of colours, got %(given)s"),
    "colour_not_on_board": gettext_noop("%(colour)s is not a colour of this board (%(board)s)"),
    "colours_not_neighbours": gettext_noop(
        "%(colours)s is not a pair of neighbouring colours on this board"
    ),
    "colours_not_opposite": gettext_noop(
        "%(colours)s is not a pair of opposite colours on this board"
    ),
    "colours_not_single": gettext_noop("%(colours)s is not a single colour on this board"),
    "policy_unknown": gettext_noop("unknown colour policy %(given)s; use one of %(known)s"),
    "colours_nobody": gettext_noop("no players to assign colours to"),
    "player_twice_at_board": gettext_noop("a player is listed twice at the board: %(players)s"),
    "board_too_small": gettext_noop(
        "%(count)s players cannot share a board of %(colours)s colours (%(layout)s: at most %(most)s players)"
    ),
    "preference_of": gettext_noop("preference of player %(player)s: %(why)s"),
    "colour_unheld": gettext_noop("nobody holds %(colour)s"),
    "colour_not_here": gettext_noop("%(colour)s is not a colour of this board"),
    "colour_held_twice": gettext_noop("%(colour)s is held by both %(one)s and %(other)s"),
    # starting colours
    "start_player_no_colours": gettext_noop("player %(player)s holds no colours at this board"),
    "start_needs_pair": gettext_noop(
        "player %(player)s holds %(count)s colour(s); the rule needs an allied pair"
    ),
    "start_no_rearguard": gettext_noop(
        "player %(player)s holds %(colours)s, which has no rearguard: %(why)s"
    ),
    "start_no_players": gettext_noop("the game has no players"),
    "end_rule_unknown": gettext_noop("unknown end rule %(given)s; use one of %(known)s"),
    "previous_none_finished": gettext_noop("the previous game has no finished colour"),
    "colour_placed_twice": gettext_noop("a colour is placed twice: %(placings)s"),
    "finished_unheld": gettext_noop("%(colour)s finished in the previous game but nobody held it"),
    "previous_no_winner": gettext_noop(
        "the previous game has no winner yet: no player finished all their colours"
    ),
    "start_none_in_play": gettext_noop("no colours are in play"),
    "game_number_positive": gettext_noop("game numbers start at 1, got %(given)s"),
    "start_needs_previous": gettext_noop(
        "game %(game)s: the previous game's result is needed to decide who starts"
    ),
    "start_needs_higher_seed": gettext_noop("a playoff game needs the higher-seeded player"),
    "start_needs_game0": gettext_noop(
        "Challengers game 1 needs the player who finished game 0 first"
    ),
    "start_rule_unknown": gettext_noop(
        "unknown starting-colour rule %(given)s; use one of %(known)s"
    ),
    "start_not_in_play": gettext_noop("%(colour)s (%(reason)s) is not in play in this game"),
    "formats_one_string": gettext_noop("formats must be a list of game formats, not one string"),
    "game_format_unknown": gettext_noop(
        "game %(game)s: unknown format %(given)s; use one of %(known)s"
    ),
    "event_no_games": gettext_noop("an event needs at least one game"),
    "challengers_two_games": gettext_noop("a Challengers event needs game 0 and at least game 1"),
    "challengers_game1_opposite": gettext_noop(
        "Challengers game 1 is started by a rearguard, but %(format)s pairs sit opposite and have no rearguard"
    ),
    "start_by_die_roll": gettext_noop("game %(game)s is started by die roll, not by a result"),
    "start_basis_unknown": gettext_noop("unknown start basis %(given)s"),
    "start_plan_not_in_play": gettext_noop(
        "game %(game)s: %(colour)s (%(reason)s) is not in play in this game; the organizer sets the start"
    ),
    # the Grand Prix
    "gp_seats": gettext_noop(
        "a Grand Prix on a board of %(colours)s colours seats 2–%(most)s players, got %(count)s"
    ),
    "gp_game_players": gettext_noop("a Grand Prix game has 2 or 3 players, got %(given)s"),
    "gp_format_unknown": gettext_noop("unknown Grand Prix format %(given)s; use GP or GP+"),
    "gp_games_left": gettext_noop("games left must be a whole number ≥ 0, got %(given)s"),
    "gp_table_players": gettext_noop("a Grand Prix table has 2 or 3 players, got %(count)s"),
    "gp_points": gettext_noop("GP points of %(player)s must be a whole number ≥ 0"),
    # the 3T World Rankings
    "wr_date": gettext_noop("tournament %(tournament)s: date must be a date, not %(given)s"),
    "wr_level": gettext_noop("tournament %(tournament)s: level must be one of 1–4, not %(given)s"),
    "wr_not_placing": gettext_noop("tournament %(tournament)s: expected a Placing, not %(given)s"),
    "wr_player_twice": gettext_noop("tournament %(tournament)s: player %(player)s appears twice"),
    "wr_place": gettext_noop(
        "tournament %(tournament)s: place of %(player)s must be a whole number ≥ 1, not %(given)s"
    ),
    "wr_games_won": gettext_noop(
        "tournament %(tournament)s: games won by %(player)s must be a whole number ≥ 0, not %(given)s"
    ),
    "wr_one_winner": gettext_noop("tournament %(tournament)s: exactly one player must be 1st"),
    "wr_player_unranked": gettext_noop("player %(player)s is not in the ranking"),
    "wr_window": gettext_noop("the window must be a whole number ≥ 1, not %(given)s"),
    "wr_not_tournament": gettext_noop("expected a Tournament, not %(given)s"),
    "wr_tournament_twice": gettext_noop("tournament %(tournament)s is listed twice"),
    "wr_column_unknown": gettext_noop("unknown ranking column %(given)s"),
    "wr_stray_wins": gettext_noop("games won given for players without a place: %(players)s"),
    # playoff brackets and series
    "bracket_no_match": gettext_noop("there is no match at round %(round)s, position %(position)s"),
    "bracket_winner_early": gettext_noop(
        "%(match)s (round %(round)s, position %(position)s) cannot have a winner before both its players are known"
    ),
    "bracket_winner_not_playing": gettext_noop(
        "#%(winner)s did not play %(match)s (round %(round)s, position %(position)s): it is #%(top)s v #%(bottom)s"
    ),
    "bracket_size": gettext_noop("a full bracket has a power-of-two size ≥ 2, got %(size)s"),
    "bracket_per_round": gettext_noop(
        "%(option)s: expected one value per round (%(rounds)s), got %(count)s"
    ),
    "bracket_seed_count": gettext_noop(
        "a bracket needs between %(low)s and %(high)s seeds, got %(given)s"
    ),
    "bracket_names": gettext_noop("names: expected one name per round (%(rounds)s), got %(count)s"),
    "round_first_to_positive": gettext_noop(
        "round %(round)s: first_to must be a positive integer, got %(given)s"
    ),
    "round_head_start_bool": gettext_noop(
        "round %(round)s: head_start must be True or False, got %(given)s"
    ),
    "round_head_start_first_to_1": gettext_noop(
        "round %(round)s: a 1–0 head start would decide a first-to-1 series before it starts; disable the head start or lengthen the series"
    ),
    "series_two_players": gettext_noop("a series needs two different players"),
    "first_to_positive": gettext_noop("first_to must be a positive integer, got %(given)s"),
    "head_start_whole": gettext_noop("head_start must be a whole number, got %(given)s"),
    "head_start_impossible": gettext_noop(
        "a head start of %(head_start)s is impossible in a first-to-%(first_to)s series"
    ),
    "series_game_after": gettext_noop(
        "game %(game)s was recorded after the series was decided (%(winner)s won)"
    ),
    "series_winner_stranger": gettext_noop(
        "game %(game)s was won by %(winner)s, who is not in this series"
    ),
    "bracket_spread": gettext_noop(
        "%(option)s: give one value for every round or one per round (%(rounds)s), got %(count)s"
    ),
    "round_first_to_range": gettext_noop(
        "round %(round)s: first_to is a series length 'first to N' (1 to 9), got %(given)s"
    ),
    "round_head_start_true_false": gettext_noop(
        "round %(round)s: head_start must be true or false, got %(given)s"
    ),
    # open tournaments: draws, placings, the final table
    "draw_player_missing": gettext_noop("player %(player)s is not drawn in round %(round)s"),
    "draw_whole_number": gettext_noop("%(option)s must be a whole number, got %(given)s"),
    "table_size_range": gettext_noop("table sizes %(low)s–%(high)s are not a range of at least 2"),
    "open_no_players": gettext_noop("an open tournament needs players, got %(count)s"),
    "table_sizes_impossible": gettext_noop(
        "%(count)s players cannot be split into tables of %(low)s–%(high)s; add or withdraw a player (possible with %(low)s–%(high)s: %(possible)s, …)"
    ),
    "tables_too_large": gettext_noop(
        "tables of %(size)s do not fit a board of %(colours)s colours"
    ),
    "draw_restarts": gettext_noop("restarts must be a positive whole number, got %(given)s"),
    "drawn_times": gettext_noop("round %(round)s: %(player)s is drawn %(times)s times"),
    "drawn_not_playing": gettext_noop("round %(round)s: %(players)s are not playing"),
    "drawn_table_size": gettext_noop(
        "round %(round)s, table %(table)s: %(count)s players (tables have %(low)s–%(high)s)"
    ),
    "drawn_colour_twice": gettext_noop(
        "round %(round)s, table %(table)s: a colour is played twice"
    ),
    "drawn_colour_unknown": gettext_noop("round %(round)s, table %(table)s: unknown colour"),
    "draw_no_rounds": gettext_noop("no rounds to measure"),
    "placement_list": gettext_noop("placement points must be a list of numbers, e.g. [5, 3, 1, 0]"),
    "placement_two": gettext_noop("placement points need at least two places, got %(given)s"),
    "placement_whole": gettext_noop("placement points must be whole numbers ≥ 0, got %(given)s"),
    "placement_order": gettext_noop(
        "place %(worse_place)s scores more (%(worse)s) than place %(place)s (%(better)s)"
    ),
    "finished_not_here": gettext_noop("%(player)s finished but is not at this table"),
    "finished_twice": gettext_noop("a player finished twice: %(players)s"),
    "count_points_whole": gettext_noop(
        "count points of %(player)s must be a whole number ≥ 0, got %(given)s"
    ),
    "final_table_two": gettext_noop("a final table needs at least two players, got %(given)s"),
    "final_table_short": gettext_noop(
        "a final table of %(size)s needs %(size)s players, the ranking has %(count)s"
    ),
    "final_table_cut_tie": gettext_noop(
        "%(players)s are tied for the last place at the final table; record a die roll between them"
    ),
    "final_table_placings": gettext_noop(
        "the final table's placings must name exactly the finalists %(finalists)s"
    ),
    "final_table_seats": gettext_noop(
        "a final table on a board of %(colours)s colours seats 2–%(colours)s players, got %(count)s"
    ),
    # standings
    "game_field_sequence": gettext_noop(
        "game %(game)s: %(field)s must be a sequence of entries, got %(given)s"
    ),
    "game_field_mapping": gettext_noop(
        "game %(game)s: %(field)s must map entries to numbers, got %(given)s"
    ),
    "game_two_players": gettext_noop(
        "game %(game)s: a game needs at least two players, got %(players)s"
    ),
    "game_player_twice": gettext_noop("game %(game)s: a player is listed twice: %(players)s"),
    "game_not_entry": gettext_noop("game %(game)s: %(player)s is not an entry of this table"),
    "game_names_stranger": gettext_noop(
        "game %(game)s: %(field)s names %(player)s, who did not play"
    ),
    "game_names_twice": gettext_noop("game %(game)s: %(field)s names %(player)s twice"),
    "game_winner_stranger": gettext_noop("game %(game)s: the winner %(player)s did not play"),
    "game_forfeit_stranger": gettext_noop("game %(game)s: %(player)s forfeited but did not play"),
    "game_winner_forfeited": gettext_noop(
        "game %(game)s: the winner cannot be the player who forfeited"
    ),
    "game_placings_winner": gettext_noop(
        "game %(game)s: the placings start with %(first)s but the winner is %(winner)s"
    ),
    "game_value_whole": gettext_noop(
        "game %(game)s: %(field)s of %(player)s must be a whole number ≥ 0, got %(given)s"
    ),
    "game_pawns_missing": gettext_noop("game %(game)s: counted pawns are missing for %(players)s"),
    "game_time": gettext_noop("game %(game)s: game_time must be seconds ≥ 0, got %(given)s"),
    "tie_roll_not_list": gettext_noop("a tie-break roll is a list of roll rounds, not one mapping"),
    "tie_roll_empty": gettext_noop("a tie-break roll needs at least one round of rolls"),
    "die_roll": gettext_noop("die roll: %(why)s"),
    "precedence_one_string": gettext_noop(
        "precedence must be a list of metric keys, not one string"
    ),
    "metric_unknown": gettext_noop("unknown standings metric %(given)s; the metrics are %(known)s"),
    "metric_no_key": gettext_noop("metric %(metric)s has no key"),
    "metric_twice": gettext_noop("metric %(metric)s is listed twice in the precedence"),
    "metric_not_summed": gettext_noop(
        "metric %(metric)s cannot be ranked from per-entry sums; compute the table from the games"
    ),
    "entries_one_string": gettext_noop("entries must be a sequence of ids, not a single string"),
    "entry_twice": gettext_noop("an entry is listed twice: %(entries)s"),
    "not_game_outcome": gettext_noop("expected GameOutcome records, got %(given)s"),
    "game_twice": gettext_noop("game %(game)s is listed twice"),
    "die_roll_range": gettext_noop(
        "die roll of %(entry)s must be 1–6 (or a list of re-rolls), got %(given)s"
    ),
    "roll_offs_list": gettext_noop("roll_offs must be a list of roll-offs"),
    "games_left_negative": gettext_noop("games_left and max_points_per_game must be ≥ 0"),
}

#: parameters whose values are words of ours (below), translated when shown
TRANSLATED_PARAMS = ("subject", "refused")
#: those words, for the translation catalogue
WORDS = (
    gettext_noop("a name"),
    gettext_noop("a player's name"),
    gettext_noop("the player's name"),
    gettext_noop("a user name"),
    gettext_noop("a tab"),
    gettext_noop("a bidirectional control character (it reorders how text shows)"),
    gettext_noop("a control character or line break"),
    gettext_noop("an invisible (zero-width or format) character"),
    gettext_noop("an unassigned or private-use character"),
)
