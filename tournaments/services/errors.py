"""Service errors: what cannot be done and why, with a **code** and **parameters**.

A coded error (``coded("entries_closed", league=…)``) keeps its English message (logs, the
API's ``message`` in English) and is shown in the reader's language wherever it is shown
(``localized()``: pages, the API's ``message`` in the request's language with ``reason``
= the code alongside). Its wording lives once, in ``MESSAGES`` (translated in
``locale/``). An upload's refusal nests the engine's own coded error
(``games.engine.codes``, rendered by ``games.error_text``) as a parameter, and is stored
with its code on the ``RejectedSubmission``. Errors without a code keep their English
message everywhere."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from core.errors import NotAllowed, ServiceError  # noqa: F401  (the services import both from here)
from games.engine.codes import COLOUR_PARAMS, Coded, code_of
from games.error_text import ENGINE_MESSAGES, english, localize
from tournaments.algorithms import messages as algorithm_messages
from tournaments.algorithms.errors import AlgorithmError
from tournaments.permissions import RESULT_STATE_WORDS

#: code → message template (English; ``%(name)s`` parameters), translated when shown
MESSAGES: dict[str, str] = {
    "entries_closed": gettext_noop("%(league)s is %(status)s; entries are closed"),
    "schedule_exists": gettext_noop("the schedule has been generated; entries are closed"),
    "already_entered": gettext_noop("%(player)s is already entered in %(league)s"),
    "invitation_open": gettext_noop(
        "%(names)s has not accepted the invitation yet; a player with an account takes part "
        "only after accepting. Wait for them or remove their entry, then %(then)s."
    ),
    "invitations_open": gettext_noop(
        "%(names)s have not accepted the invitation yet; a player with an account takes "
        "part only after accepting. Wait for them or remove their entry, then %(then)s."
    ),
    "finished_already": gettext_noop("%(league)s has finished already"),
    "not_started": gettext_noop("%(league)s has not started; there is nothing to finish"),
    "games_waiting": gettext_noop(
        "%(n)s game(s) still wait for a result; record, forfeit or void them first"
    ),
    "drrs_unseeded": gettext_noop(
        "%(league)s plays %(total)s DRR(s); %(left)s have not been seeded"
    ),
    "playoffs_undrawn": gettext_noop("the playoffs have not been drawn yet"),
    "series_undecided": gettext_noop("a playoff series has not been decided yet"),
    "event_unscheduled": gettext_noop("the event's games have not been scheduled yet"),
    "rounds_undrawn": gettext_noop("%(done)s of %(total)s preliminary rounds have been drawn"),
    "final_table_unseated": gettext_noop("the final table has not been seated yet"),
    "challengers_players": gettext_noop(
        "a Challengers event is two players; %(league)s has %(count)s"
    ),
    "triple_threat_players": gettext_noop(
        "a triple-threat event is three players; %(league)s has %(count)s"
    ),
    "gp_players": gettext_noop(
        "a Grand Prix on board %(board)s seats 2–%(most)s players; %(league)s has %(count)s"
    ),
    "event_scheduled": gettext_noop("the games of this event have been scheduled already"),
    "drr_needs_players": gettext_noop("a DRR needs at least two players; %(league)s has %(count)s"),
    "all_drrs_generated": gettext_noop(
        "%(league)s plays %(total)s DRR(s); all have been generated"
    ),
    "round_undecided": gettext_noop(
        "%(n)s game(s) of the last round have no counted result yet; the next round is drawn "
        "when they are decided"
    ),
    "final_table_tie": gettext_noop(
        "%(names)s are tied for the last place at the final table; record a tie-break roll "
        "between them first"
    ),
    "needs_three": gettext_noop(
        "%(format)s is played by three at a board: a DRR needs at least three players, not "
        "%(count)s"
    ),
    "all_rounds_drawn": gettext_noop("all %(total)s preliminary rounds are drawn"),
    "all_rounds_drawn_final": gettext_noop(
        "all %(total)s preliminary rounds are drawn; seat the final table next"
    ),
    "setting_fixed": gettext_noop("the schedule has been generated; %(setting)s is fixed now"),
    "setting_bounds": gettext_noop("%(setting)s must be a whole number from %(low)s to %(high)s"),
    "link_none": gettext_noop("%(player)s has no result link to withdraw"),
    "link_withdrawn": gettext_noop("this result link was withdrawn by the organizer"),
    # an uploaded log refused (``why``: the engine's coded error, or its English text)
    "log_rejected": gettext_noop("the log was rejected: %(why)s"),
    "log_rejected_at": gettext_noop("the log was rejected (event %(n)s): %(why)s"),
    # an accepted log that is not this game's (``why``: the list of problems)
    "log_mismatch": gettext_noop("this log does not belong to this game: %(why)s"),
    "log_board": gettext_noop(
        "the log is for board %(log)s, but %(league)s plays on board %(board)s"
    ),
    "log_first": gettext_noop(
        "the log starts with %(first)s, but this game's starting colour is %(c)s"
    ),
    "log_incomplete": gettext_noop(
        "the log ends before the game is decided; upload the complete log of the game"
    ),
    "log_used": gettext_noop(
        "this log is already the result of game %(game)s (id %(id)s); every game needs its own log"
    ),
    # issue 34: a start the regulation decides is not set by hand
    "start_rule_drr": gettext_noop(
        "%(game)s is a double round-robin game: the rearguard colour of its first-mentioned "
        "player starts, as the regulations say; its start is not set by hand"
    ),
    "start_rule_playoff": gettext_noop(
        "%(game)s is a playoff game: the rearguard colour of the higher seed starts, as the "
        "regulations say; its start is not set by hand"
    ),
    "start_rule_waits": gettext_noop(
        "%(game)s is started as the result of %(decider)s decides, and that game has no "
        "counted result yet; a start is set by hand only when that result has no finishing "
        "order (a forfeit, a result without a log)"
    ),
    "start_rule_decided": gettext_noop(
        "%(game)s is started by %(c)s, decided by the result of %(decider)s as the "
        "regulations say; its start is not set by hand"
    ),
    # championship day (issue 36)
    "checkin_not_open": gettext_noop("check-in for %(league)s is not open"),
    "checkin_bad_venue_code": gettext_noop(
        "this check-in code is not (or no longer) valid; scan the code shown at the venue"
    ),
    "checkin_not_yours": gettext_noop("you can check in only yourself"),
    "checkin_not_open_tournament": gettext_noop("%(league)s is not an open tournament"),
    "table_not_yours": gettext_noop("only the players at table %(table)s act on its result"),
    # h-champ: waitlist, deadline, teams
    "team_line_unknown": gettext_noop("line %(line)s: no player called %(name)s plays here"),
    # h-trust (issue 34): a player's name is unique among an organizer's players
    "player_name_taken": gettext_noop(
        "there is already a player called %(name)s in your leagues: enter them, or tell the "
        "new one apart (e.g. “%(name)s B.”)"
    ),
    "player_name_lookalike": gettext_noop(
        "%(name)s looks like the existing player %(other)s (their letters differ only in "
        "characters that look alike); choose a name that can be told apart"
    ),
    "player_name_ambiguous": gettext_noop(
        "%(count)s players are called %(name)s: %(choices)s. Type the one you mean by its "
        "address (the part after /players/ on their page)"
    ),
    "signup_claim_none": gettext_noop(
        "no organizer has created a player called %(name)s; untick “this is me” to sign up "
        "as a new player"
    ),
    "signup_claim_several": gettext_noop(
        "%(count)s organizers have a player called %(name)s: ask the organizer of your league "
        "for an invitation to become their player (its link makes you that player), or untick "
        "“this is me”"
    ),
    # h-errors (issue 35): invitations, entries, claims, e-mail confirmation, sign-up, results
    "invitation_expired": gettext_noop(
        "this invitation link has expired; ask the organizer for a new one"
    ),
    "invitation_invalid": gettext_noop("this invitation link is not valid (mistyped or altered)"),
    "invitation_withdrawn": gettext_noop("this invitation was withdrawn by the organizer"),
    "email_invalid": gettext_noop("%(email)s is not an e-mail address"),
    "invite_has_account": gettext_noop(
        "%(player)s has an account; add them as an entry and they accept on their page"
    ),
    "invite_not_yours": gettext_noop(
        "%(player)s was created by another organizer: only they (or staff) can invite someone to "
        "become %(player)s. Add %(player)s as an entry, and the person claims the player when "
        "they sign up."
    ),
    "invite_name_taken": gettext_noop(
        "there is already a player called %(player)s in your leagues; choose them as the player "
        "instead"
    ),
    "invitation_used": gettext_noop("this invitation has been used or withdrawn already"),
    "invitation_log_in": gettext_noop("log in or sign up to accept the invitation"),
    "player_other_account": gettext_noop("%(player)s belongs to another account already"),
    "invitation_other_player": gettext_noop(
        "your account is the player %(own)s; this invitation is for %(player)s. Ask the organizer"
        " to invite %(own)s instead."
    ),
    "invitation_answered": gettext_noop("this invitation has been answered already"),
    "colours_fixed": gettext_noop(
        "the schedule has been generated; the colours of each game are fixed now"
    ),
    "join_log_in": gettext_noop("log in to ask to join"),
    "join_invitation_only": gettext_noop("%(league)s takes players by invitation only"),
    "join_no_profile": gettext_noop(
        "your account has no player profile yet; create it (or claim yours) first"
    ),
    "join_entered": gettext_noop("%(player)s is entered in %(league)s already"),
    "join_decided": gettext_noop("this request has been decided already"),
    "claim_log_in": gettext_noop("log in to claim a player"),
    "claim_player_taken": gettext_noop("%(player)s belongs to an account already"),
    "claim_has_profile": gettext_noop("your account has a player profile already"),
    "claim_asked": gettext_noop("you have asked to become %(player)s already"),
    "claim_decided": gettext_noop("this claim has been decided already"),
    "claim_user_has_profile": gettext_noop("%(user)s has a player profile already"),
    "email_none": gettext_noop("your account has no e-mail address"),
    "confirm_link_invalid": gettext_noop("this confirmation link is not valid or has expired"),
    "confirm_log_in": gettext_noop("log in with the account this link was sent to"),
    "confirm_email_changed": gettext_noop("your e-mail address has changed since; send a new link"),
    "confirm_email_taken": gettext_noop(
        "%(email)s is confirmed for another account already; an address belongs to one account "
        "(log in with that one, or use another address)"
    ),
    "organizers_only": gettext_noop("only the organizers of %(league)s may do this"),
    "username_taken": gettext_noop("the user name %(username)s is taken"),
    "username_lookalike": gettext_noop(
        "the user name %(username)s looks like the existing %(other)s (they differ only in "
        "characters that look alike); choose one that can be told apart"
    ),
    "game_unknown": gettext_noop("there is no game with id %(id)s"),
    "reason_manual": gettext_noop("say why the result is entered or corrected"),
    "withdraw_self_only": gettext_noop("only the player themselves withdraws without an organizer"),
    "loser_not_at_board": gettext_noop("%(player)s is not at this game's board"),
    "result_race": gettext_noop("another result for this game was stored at the same moment"),
    "result_unknown": gettext_noop("there is no result with id %(id)s"),
    "reason_dispute": gettext_noop("say what is wrong with this result"),
    "reason_void": gettext_noop("say why the result is voided"),
    "void_nothing": gettext_noop("this game has no result to void"),
    # h-errors (issue 35): players, championship day, open tournaments, rankings, rated leagues
    "player_rated": gettext_noop(
        "%(player)s has a rating (rated games): only staff may hand it to an account"
    ),
    "claim_creator_decides": gettext_noop(
        "only the organizer who created %(player)s (or staff) may decide this"
    ),
    "claim_staff_decides": gettext_noop(
        "%(player)s has no recorded creator: only staff may decide this"
    ),
    "player_rated_claim_waits": gettext_noop(
        "%(player)s has a rating (rated games): only staff may hand it to an account; the claim "
        "waits for staff"
    ),
    "player_name_missing": gettext_noop("a player needs a name"),
    "player_log_in": gettext_noop("log in to create a player"),
    "player_creator_only": gettext_noop(
        "only the organizer who created %(player)s (or staff) may do this"
    ),
    "player_limit": gettext_noop(
        "you have created %(made)s players without accounts, the limit is %(limit)s; invite "
        "people by e-mail or link instead"
    ),
    "colours_not_yours": gettext_noop("only %(player)s or staff may change these colours"),
    "colours_pair": gettext_noop("preferred colours are one pair of two different colours"),
    "colours_unknown": gettext_noop("unknown colour(s) %(unknown)s; the colours are %(known)s"),
    "calendar_not_yours": gettext_noop("only the player may change their calendar address"),
    "player_exists": gettext_noop("there is already a player called %(player)s"),
    "player_has_profile": gettext_noop("your account already has a player profile"),
    "player_organizers_only": gettext_noop(
        "only league organizers may create players without an account; to create your own profile"
        " send link_to_me: true"
    ),
    "player_has_account": gettext_noop(
        "%(player)s has an account: they accept or decline each entry themselves"
    ),
    "player_account_now": gettext_noop("%(player)s has an account now"),
    "capacity_min": gettext_noop("the capacity is at least 2 players"),
    "team_min": gettext_noop("a team counts at least its best member"),
    "checkout_organizers_only": gettext_noop(
        "only the organizers of %(league)s check a player out"
    ),
    "player_not_in_league": gettext_noop("%(player)s does not play in %(league)s"),
    "draw_seed_kept": gettext_noop(
        "this tournament is drawn with seed %(seed)s; a draw keeps its seed"
    ),
    "final_table_none": gettext_noop("%(league)s has no final table"),
    "final_table_seated": gettext_noop("the final table is seated already"),
    "final_table_waits": gettext_noop(
        "%(done)s of %(total)s preliminary rounds are drawn; the final table follows the last of "
        "them"
    ),
    "ranking_level_missing": gettext_noop(
        "a league without a ranking level cannot be a world championship or a major"
    ),
    "rating_note_long": gettext_noop("the note is %(length)s characters; at most %(most)s"),
    "rating_all_rated": gettext_noop("every league on this site is rated; there is nothing to ask"),
    "rating_rated_already": gettext_noop("%(league)s is rated already"),
    "rating_officers_only": gettext_noop(
        "only staff or a rating officer may decide whether a league is rated"
    ),
    "rating_reason_long": gettext_noop("the reason is %(length)s characters; at most %(most)s"),
    "rating_reason_missing": gettext_noop("say why the league is not rated"),
    "rating_requested": gettext_noop("a rating of %(league)s has been requested already"),
    "rating_unrated_already": gettext_noop("%(league)s is unrated already"),
    # h-errors (issue 35): results entered by hand
    "hand_winner_not_here": gettext_noop("the winner must be one of the players at this game"),
    "hand_placings_everyone": gettext_noop(
        "placings must list every player at this game's board exactly once, first place first"
    ),
    "hand_winner_missing": gettext_noop("say who won the game"),
    "hand_winner_pawns": gettext_noop("the winner's counted pawns must be %(most)s"),
    "hand_only_winner_pawns": gettext_noop(
        "only the winner has %(most)s counted pawns; the others have 0 to %(below)s"
    ),
    "hand_winner_both": gettext_noop("the winner has completed both colours (2)"),
    "hand_places_missing": gettext_noop("give every colour's finishing place"),
    "hand_places_range": gettext_noop(
        "the finishing places are 1 to %(count)s, each given to one colour"
    ),
    "hand_places_winner": gettext_noop(
        "the winner is the player who finished all their colours first; these places make someone"
        " else the winner"
    ),
    "hand_placings_or_points": gettext_noop(
        "give the placings, or every player's count points for a game the time limit ended"
    ),
    "hand_winner_first": gettext_noop("the winner is the player placed first"),
    "hand_pawns_range": gettext_noop("counted pawns must be whole numbers from 0 to %(most)s"),
    "hand_placings_winner": gettext_noop("the placings must start with the winner"),
    "hand_pawns_tied": gettext_noop(
        "two players who did not win have the same counted pawns: give the placings"
    ),
    "hand_only_winner_both": gettext_noop(
        "only the winner completed both colours; the others completed 0 or 1"
    ),
    "hand_pawns_for_done": gettext_noop(
        "a player with %(done)s completed colour(s) has %(low)s to %(high)s counted pawns, not "
        "%(counted)s"
    ),
    "hand_colour_unknown": gettext_noop("%(colour)s is not a colour at this game's board"),
    "hand_points_missing": gettext_noop("give the count points of every player"),
    "hand_points_tied": gettext_noop(
        "two players have the same count points: give the placings (the organizer's recorded die "
        "roll decides)"
    ),
    "hand_time_range": gettext_noop(
        "the game time is in seconds, more than 0 and at most %(most)s"
    ),
    "hand_points_range": gettext_noop(
        "count points are at most %(most)s per colour (four pawns in the house)"
    ),
    # h-errors (issue 35): creating and running leagues
    "tie_break_twice": gettext_noop("a tie-break metric is listed twice"),
    "league_log_in": gettext_noop("log in to create a league"),
    "game_zero_challengers": gettext_noop("only a Challengers event has a game 0"),
    "slug_reserved": gettext_noop(
        "the address %(address)s is a page of the site (leagues/%(path)s/); choose another"
    ),
    "slug_taken": gettext_noop("the address %(address)s is taken"),
    "rankings_3t_only": gettext_noop(
        "only triple-threat (3T, 3T+) leagues and events count for the 3T World Rankings"
    ),
    "gp_no_playoffs": gettext_noop(
        "a Grand Prix has no playoffs: its games are played with opposite pairs, which have no "
        "rearguard to start a playoff game, and the GP itself decides the winner (extra games "
        "while the top is tied); remove the playoff configuration"
    ),
    "playoffs_drr_only": gettext_noop("only a league of DRRs has playoffs"),
    "owner_adds_organizers": gettext_noop("only the owner of %(league)s adds co-organizers"),
    "username_unknown": gettext_noop("no account with that user name"),
    "organizes_already": gettext_noop("%(user)s organizes %(league)s already"),
    "owner_deletes": gettext_noop("only the owner of %(league)s deletes it"),
    "owner_removes_organizers": gettext_noop("only the owner of %(league)s removes co-organizers"),
    "entry_has_games": gettext_noop(
        "%(player)s already has scheduled games; withdraw them instead"
    ),
    "bracket_seeds": gettext_noop("a playoff bracket needs 2 to 64 seeds"),
    "slug_taken_race": gettext_noop(
        "the address %(address)s was taken a moment ago; choose another"
    ),
    "league_has_games": gettext_noop(
        "%(league)s has games: it is not deleted (its results stay); archive it once it has "
        "finished, or make it private"
    ),
    "gp_games_range": gettext_noop("a Grand Prix has a set number of games, 1 to 50"),
    "tie_break_none": gettext_noop("list at least one tie-break metric"),
    "formats_need_kind": gettext_noop(
        "game formats and a set number of games belong to triple-threat, Challengers, Grand Prix "
        "and open events; choose the event kind"
    ),
    # h-errors (issue 35): events, schedules, playoffs, tie-break rolls
    "event_formats_list": gettext_noop(
        'an event lists the format of each game, 1 to 50 games, e.g. ["3T", "GP", "3T+"]'
    ),
    "event_board": gettext_noop("this event is played on board %(board)s"),
    "event_kind_wrong": gettext_noop("%(league)s is not a triple-threat, Challengers or GP event"),
    "not_gp": gettext_noop("%(league)s is not a Grand Prix"),
    "start_rolls_or_colour": gettext_noop(
        "give either the die rolls or the colour (with a reason)"
    ),
    "gp_formats": gettext_noop("a Grand Prix event plays GP or GP+ games"),
    "extra_game_playoffs": gettext_noop("%(league)s has playoffs: they decide the title"),
    "extra_game_drrs_left": gettext_noop(
        "an extra game is added only while the top is tied and no game is left; games are still "
        "to be played (or DRRs to be seeded)"
    ),
    "start_has_result": gettext_noop(
        "%(game)s already has a result; void it before changing its starting colour"
    ),
    "start_rolls_shape": gettext_noop("rolls are a list of rounds, each {colour: roll}"),
    "start_reason_missing": gettext_noop("say why the starting colour is set by hand"),
    "open_no_drr": gettext_noop(
        "open tournaments draw their tables each round; DRR schedules are for leagues"
    ),
    "reorder_three_only": gettext_noop(
        "G4–G6 can be reordered only in a three-player double-threat DRR"
    ),
    "deadline_before_game": gettext_noop("the deadline is before the game's date"),
    "deadline_before_round": gettext_noop("the deadline is before the round's date"),
    "drr_nothing_to_date": gettext_noop("DRR %(cycle)s has no games to date"),
    "league_nothing_to_date": gettext_noop("%(league)s has no games to date outside its DRRs"),
    "drr_no_more": gettext_noop("%(league)s is %(status)s; no more DRRs can start"),
    "reorder_before_results": gettext_noop(
        "G4–G6 can be reordered only before any of them has a result"
    ),
    "game_cancelled": gettext_noop("this game was cancelled; it cannot be rescheduled"),
    "drr_no_round": gettext_noop("DRR %(cycle)s has no round %(round)s"),
    "seed_not_a_player": gettext_noop("%(player)s is not a player of %(league)s"),
    "seed_rolls_shape": gettext_noop("rolls must be a list of {player: roll} rounds"),
    "playoffs_none": gettext_noop("%(league)s has no playoffs configured"),
    "playoffs_generated": gettext_noop("the playoffs have been generated already"),
    "playoffs_provisional": gettext_noop(
        "the standings are provisional (%(left)s game(s) or DRRs remain); playoffs are seeded "
        "from the final table"
    ),
    "playoffs_players": gettext_noop(
        "the playoffs need %(seeds)s players; the table has %(count)s"
    ),
    "series_next_has_results": gettext_noop(
        "%(next)s has results already; void them before changing who won %(series)s"
    ),
    "tie_rolls_shape": gettext_noop(
        "rolls are a list of rounds, each {player: roll}: "
        '[{"Ann": 5, "Ben": 5}, {"Ann": 2, "Ben": 6}]'
    ),
    "tie_two_players": gettext_noop("a tie-break roll is rolled by at least two players"),
    "tie_league_finished": gettext_noop(
        "%(league)s has finished: its table is final, no roll changes it"
    ),
    "tie_nothing": gettext_noop(
        "this game has no counted result with a tie on count points; nothing to roll for"
    ),
    "tie_all_roll": gettext_noop("the tied players (%(names)s) must all roll"),
    # h-errors (issue 35): extra games, world-ranking levels, tie-break rolls
    "extra_game_games_left": gettext_noop(
        "an extra game is added only while the top is tied and no game is left; the leaders are "
        "%(leaders)s, games are still to be played"
    ),
    "extra_game_not_tied": gettext_noop(
        "an extra game is added only while the top is tied; it is not"
    ),
    "rankings_3t_format": gettext_noop(
        "only triple-threat leagues (%(formats)s) count in the 3T World Rankings; %(league)s is "
        "%(format)s"
    ),
    "ranking_level_unknown": gettext_noop("the level must be one of %(levels)s, not %(level)s"),
    # h-errors2 (issue 35): entering a result by hand, archiving, scheduling an event
    "hand_field_not_recorded": gettext_noop(
        "a %(format)s game does not record %(given)s; it records %(recorded)s"
    ),
    "hand_entry_not_here": gettext_noop(
        "%(given)s names entry %(entry)s, who is not at this game's board"
    ),
    "hand_whole_numbers": gettext_noop("%(given)s must be whole numbers of at least 0"),
    "hand_placings_pawns": gettext_noop(
        "the placings disagree with the counted pawns: a player placed higher has fewer"
    ),
    "hand_placings_points": gettext_noop(
        "the placings disagree with the count points: a player placed higher has fewer"
    ),
    "hand_places_give": gettext_noop("give the finishing place of %(colour)s"),
    "archive_unfinished": gettext_noop(
        "%(league)s has not finished: only a finished league is archived (a league without "
        "games can be deleted)"
    ),
    "event_not_drrs": gettext_noop(
        "%(league)s is an event: its games are scheduled as one event, not as DRRs"
    ),
    "metrics_unknown": gettext_noop(
        "unknown tie-break metric(s) %(given)s; the metrics are %(metrics)s"
    ),
    "playoff_kind_unknown": gettext_noop(
        "unknown playoff kind “%(given)s”; use none, xleague or bracket"
    ),
    "board_fixed": gettext_noop("%(format)s is played on board %(board)s, not board %(given)s"),
    "event_format_missing": gettext_noop(
        "the event's format %(format)s must be among its games' formats"
    ),
    "settings_unknown": gettext_noop("unknown league setting(s): %(given)s"),
    "points_whole_numbers": gettext_noop("points must be a list of whole numbers"),
    "event_formats_count": gettext_noop(
        'an event lists the format of each game, %(low)s to %(high)s games, e.g. "3T, GP, 3T+"'
    ),
    "tie_roll_range": gettext_noop(
        "round %(number)s: the roll of %(player)s must be a whole number 1–6, got %(roll)s"
    ),
    # h-rest
    "username_raced": gettext_noop(
        "the user name %(username)s was taken a moment ago; choose another"
    ),
    # h-champ: the round clock, series with qualifiers
    "clock_no_round": gettext_noop(
        "no round of %(league)s is drawn yet: the clock starts with a round"
    ),
    "clock_no_time_limit": gettext_noop(
        "%(league)s has no time limit: set the minutes a game may take first"
    ),
    "clock_started": gettext_noop("this round's clock has already been started"),
    "clock_not_started": gettext_noop("this round's clock has not been started yet"),
    "qualifier_final_self": gettext_noop("an event cannot qualify players for itself"),
    "qualifier_places_min": gettext_noop("at least one player qualifies for the final"),
    "qualifier_region_unfinished": gettext_noop(
        "%(league)s is not finished yet: its qualifiers are known once its classification is"
    ),
    "qualifier_no_regions": gettext_noop("no regional event qualifies players for %(league)s"),
    "qualifier_final_started": gettext_noop(
        "%(league)s has started: the qualifiers are carried over before its first round"
    ),
    # h-algo (issue 35): an algorithm's refusal and where it happened (its code nested)
    # h-tournb (issue 35): league settings, events, starts, playoffs, mail limits, tie rolls
    "event_game_format_3t": gettext_noop(
        "game %(number)s: a triple-threat event plays %(formats)s games, not %(given)s"
    ),
    "event_game_format_challengers": gettext_noop(
        "game %(number)s: a Challengers event plays %(formats)s games, not %(given)s"
    ),
    "event_game_format_other": gettext_noop(
        "game %(number)s: this event plays %(formats)s games, not %(given)s"
    ),
    "start_rolls_invalid": gettext_noop("starting colour: %(why)s"),
    "start_colour_not_in_play": gettext_noop(
        "%(given)s is not in play in this game; the colours are %(colours)s"
    ),
    "setting_bool": gettext_noop("%(setting)s is true or false"),
    "setting_too_long": gettext_noop("%(setting)s: at most %(most)s characters"),
    "setting_choice_unknown": gettext_noop("unknown %(setting)s %(given)s; use one of %(known)s"),
    "setting_required": gettext_noop("%(setting)s is required"),
    "league_name_missing": gettext_noop("a league needs a name"),
    "final_table_bounds": gettext_noop(
        "the final table seats 2 to %(high)s players (0: no final table)"
    ),
    "time_limit_bounds": gettext_noop(
        "the time limit is 5 to 240 minutes (championships: 25–60), or none"
    ),
    "kind_formats": gettext_noop("%(kind)s plays %(formats)s, not %(format)s"),
    # an event kind's name, nested as ``kind`` (the labels of ``league_settings.EVENT_KINDS``)
    "kind_league": gettext_noop("League of double round-robins"),
    "kind_triple-threat": gettext_noop("Triple-threat event"),
    "kind_challengers": gettext_noop("Double-threat Challengers"),
    "kind_grand-prix": gettext_noop("Grand Prix event"),
    "kind_open": gettext_noop("Open tournament"),
    "setting_never_changes": gettext_noop("the %(setting)s of a league cannot be changed"),
    "setting_not_of_kind": gettext_noop("%(setting)s is not a setting of a %(kind)s"),
    "status_transition": gettext_noop("a league that is %(status)s cannot become %(to)s"),
    # a league's status, nested as ``to``
    "status_draft": gettext_noop("draft"),
    "status_registration": gettext_noop("registration"),
    "status_running": gettext_noop("running"),
    "status_playoffs": gettext_noop("playoffs"),
    "status_finished": gettext_noop("finished"),
    "playoffs_invalid": gettext_noop("playoffs: %(why)s"),
    "placement_points_invalid": gettext_noop("placement points: %(why)s"),
    "mail_limit_recipient_hour": gettext_noop(
        "too many mails: %(email)s was sent %(count)s in the last hour (the limit is "
        "%(allowed)s per hour); try again in %(wait)s"
    ),
    "mail_limit_recipient_day": gettext_noop(
        "too many mails: %(email)s was sent %(count)s in the last day (the limit is "
        "%(allowed)s per day); try again in %(wait)s"
    ),
    "mail_limit_sender_hour": gettext_noop(
        "too many mails: your account sent %(count)s in the last hour (the limit is "
        "%(allowed)s per hour); try again in %(wait)s"
    ),
    "mail_limit_sender_day": gettext_noop(
        "too many mails: your account sent %(count)s in the last day (the limit is "
        "%(allowed)s per day); try again in %(wait)s"
    ),
    # how long to wait, nested as ``wait``
    "wait_hours": gettext_noop("about %(n)s hours"),
    "wait_minute": gettext_noop("%(n)s minute"),
    "wait_minutes": gettext_noop("%(n)s minutes"),
    "colours_pair_invalid": gettext_noop("preferred colours: %(why)s"),
    "playoff_config_invalid": gettext_noop("playoff configuration: %(why)s"),
    "series_invalid": gettext_noop("%(series)s: %(why)s"),
    "start_unresolved": gettext_noop("%(game)s: %(why)s"),
    "start_change_colour": gettext_noop(
        "%(game)s already has a result and was started by %(c)s; this change would make "
        "%(colour)s its starting colour. Void the result of %(game)s first"
    ),
    "start_change_undecided": gettext_noop(
        "%(game)s already has a result and was started by %(c)s; this change would leave its "
        "start undecided (the new result has another winner, or none, and no finishing order "
        "of the colours). Void the result of %(game)s first"
    ),
    "text_one_line": gettext_noop(
        "%(setting)s must be one line without line breaks or control characters (found %(found)s)"
    ),
    "tie_roll_not_at_board": gettext_noop(
        "round %(number)s: %(player)s is not at this game's board"
    ),
    # a log that is not this game's: the problems (``log_check``), nested in log_mismatch
    "log_rule_option": gettext_noop("%(option)s is %(log)s instead of %(league)s"),
    "log_rules_differ": gettext_noop(
        "the log's rules differ from the league's (%(spec)s): %(detail)s"
    ),
    "log_start_waits": gettext_noop(
        "this game's starting colour is decided by %(decider)s, which has no counted result "
        "yet; submit that game's result first"
    ),
    "log_start_undecided": gettext_noop("this game's starting colour has not been decided yet"),
    "log_colours_unheld": gettext_noop(
        "%(player)s holds %(colours)s in this game, but no player of the log holds exactly "
        "those colours"
    ),
    "log_player_name": gettext_noop(
        "the log names the player of %(colours)s %(given)s, but this game's player of "
        "%(colours)s is %(player)s"
    ),
    "log_colours_unused_one": gettext_noop(
        "the log has %(holder)s holding %(colours)s, but nobody holds %(colours)s in this "
        'game: list it under "unused" in the log (colours with no pawns)'
    ),
    "log_colours_unused": gettext_noop(
        "the log has %(holder)s holding %(colours)s, but nobody holds %(colours)s in this "
        'game: list them under "unused" in the log (colours with no pawns)'
    ),
    "log_holder_not_here": gettext_noop(
        "the log has %(holder)s holding %(colours)s, who is not at this game's board"
    ),
    "tie_roll_not_active": gettext_noop(
        "round %(number)s: %(player)s is not an active player of %(league)s"
    ),
    # h-actor (issue 35): one rule path for results; what results store, as codes
    "result_game_cancelled": gettext_noop("this game was cancelled; no result can be submitted"),
    "result_game_unseated": gettext_noop("this game has no players yet"),
    "log_no_time_limit": gettext_noop(
        "the log ends before the game is decided, and %(league)s has no time limit; upload "
        "the complete log of the game"
    ),
    "log_before_limit": gettext_noop(
        "the log ends at %(at)s, before the %(limit)s-minute time limit; upload the complete "
        "log of the game, or its log up to the limit"
    ),
    "count_points_unplaced": gettext_noop(
        "the count points of this game do not place its players: %(why)s"
    ),
    # h-errors5 (issue 35): the refusals of ``tournaments.permissions``
    "enter_no_creator": gettext_noop(
        "%(player)s has no account and no recorded creator: only staff may enter them, or "
        "share the player with other organizers"
    ),
    "enter_other_creator": gettext_noop(
        "%(player)s has no account and was created by another organizer: only they (or "
        "staff) may enter them, unless they share the player with other organizers"
    ),
    "organize_confirm_email": gettext_noop(
        "confirm your e-mail address before you organize a league (your account page sends "
        "the confirmation link)"
    ),
    "log_in_first": gettext_noop("log in first"),
    "entry_player_only": gettext_noop("only %(player)s may do this"),
    "withdraw_player_or_organizers": gettext_noop(
        "only the player or the league's organizers may withdraw an entry"
    ),
    "withdraw_not_accepted": gettext_noop(
        "%(player)s has not accepted yet; remove the entry instead"
    ),
    "withdraw_already": gettext_noop("%(player)s has already withdrawn"),
    "withdraw_finished": gettext_noop("%(league)s has finished; its results stand as played"),
    "colours_withdrawn": gettext_noop("you have withdrawn from this league"),
    "link_has_account": gettext_noop(
        "%(player)s has an account and reports their games signed in; private result links "
        "are for players without an account"
    ),
    "link_not_accepted": gettext_noop(
        "%(player)s has not accepted the entry; a result link is for a player taking part"
    ),
    "result_at_game_only": gettext_noop(
        "only the players at this game's board or its organizers may do this"
    ),
    "result_confirmed_already": gettext_noop(
        "this game already has a confirmed result; ask an organizer to correct it"
    ),
    "result_awaiting_already": gettext_noop(
        "a result for this game is already awaiting confirmation; confirm or dispute it instead"
    ),
    "resolve_missing": gettext_noop("this result is missing; nothing to resolve"),
    "resolve_closed": gettext_noop("this result is %(result_state)s; nothing to resolve"),
    "confirm_who": gettext_noop("only the opponent or an organizer may confirm this result"),
    "confirm_own": gettext_noop("you submitted this result; your opponent must confirm it"),
    "confirm_nothing": gettext_noop("this game has no result awaiting confirmation"),
    "confirm_disputed": gettext_noop("this result is disputed; an organizer resolves it"),
    "confirm_not_pending": gettext_noop("this result is %(result_state)s, not pending"),
    "dispute_who": gettext_noop("only the players at this game's board may dispute its result"),
    "dispute_not_pending": gettext_noop(
        "only a pending result can be disputed; this one is %(result_state)s"
    ),
    "dispute_own": gettext_noop(
        "you submitted this result yourself; if it is wrong, ask an organizer to void it"
    ),
    "rejections_who": gettext_noop(
        "only the players at this game's board and its organizers see this"
    ),
    "decide_own_game": gettext_noop(
        "you play in this game: another organizer must decide its result"
    ),
    # why a move analysis cannot be run again (``permissions.analysis_retry_refusal``)
    "analysis_retry_organizers": gettext_noop(
        "only the league's organizers may have a game analysed again"
    ),
    "analysis_retry_disabled": gettext_noop("move analyses are switched off on this site"),
    "analysis_retry_no_log": gettext_noop(
        "this game has no counted log, so there is no analysis to run again"
    ),
    "analysis_retry_missing": gettext_noop(
        "this game's log has no analysis under the current settings yet; "
        "the periodic catch-up queues one"
    ),
    "analysis_retry_queued": gettext_noop(
        "the analysis of this game is queued already; a worker runs it soon"
    ),
    "analysis_retry_running": gettext_noop("the analysis of this game is running now"),
    "analysis_retry_done": gettext_noop(
        "the analysis of this game is done; there is nothing to run again"
    ),
    "analysis_retry_skipped": gettext_noop(
        "the analysis of this game was skipped while its log did not count; "
        "the periodic catch-up queues it again"
    ),
    # the services' returned refusals (``entries.invitation_address_refusal``, …)
    "invitation_other_address": gettext_noop(
        "this invitation was sent to another e-mail address; only an account with that "
        "address, confirmed, may accept it. Ask the organizer for an invitation of your own"
    ),
    "invitation_confirm_address": gettext_noop(
        "this invitation was sent to %(email)s: confirm that address first (the invitation "
        "page sends you the confirmation link), then accept"
    ),
}

#: the algorithms' codes (``tournaments.algorithms.messages``: worded there, once)
ALGORITHM_MESSAGES: dict[str, str] = algorithm_messages.MESSAGES
#: every code a site error may carry or nest: the services', the algorithms' and the engine's
CATALOGUE: dict[str, str] = {**ENGINE_MESSAGES, **ALGORITHM_MESSAGES, **MESSAGES}
#: parameters whose values are colour names (shown in the reader's language)
COLOURS = COLOUR_PARAMS | {"first", "c"}


#: parameters whose values are words of ours (a verb, a status, a setting): translated too
TRANSLATED_PARAMS = (
    "then",
    "status",
    "setting",
    "within",
    "result_state",
    *algorithm_messages.TRANSLATED_PARAMS,
)
#: those words, for the translation catalogue
WORDS = (
    gettext_noop("seed"),
    gettext_noop("schedule"),
    gettext_noop("draw"),
    gettext_noop("running"),
    gettext_noop("playoffs"),
    gettext_noop("finished"),
    gettext_noop("drr count"),
    gettext_noop("game formats"),
    gettext_noop("games planned"),
    gettext_noop("time limit minutes"),
    gettext_noop("final table size"),
    gettext_noop("rules preset"),
    gettext_noop("rules overrides"),
    gettext_noop("precedence"),
    gettext_noop("points scheme"),
    *algorithm_messages.WORDS,
    *RESULT_STATE_WORDS.values(),
)


def coded(code: str, *, field: str | None = None, cls=ServiceError, **params) -> ServiceError:
    """A ServiceError of one of the ``MESSAGES`` (its English message filled in; a coded
    parameter — an engine error, a problem — is kept as ``{"code", "params"}`` data)."""
    data = {k: _data(v) for k, v in params.items()}
    message = english(code, data, catalogue=CATALOGUE)
    return cls(message, field=field, code=code, params=data, texts=error_text)


def from_algorithm(exc: AlgorithmError, *, field: str | None = None) -> ServiceError:
    """The ServiceError of an algorithm's refusal: its code and parameters (worded in
    ``tournaments.algorithms.messages``), its English text as the message. Where the
    service says what was being checked, the refusal is the ``why`` of a code of its own
    (``coded("playoffs_invalid", why=why_of(exc))``). An uncoded one keeps its text."""
    if exc.code is None:
        return ServiceError(str(exc), field=field)
    return ServiceError(
        str(exc), field=field, code=exc.code, params=dict(exc.params), texts=error_text
    )


def why_of(exc: Exception):
    """An algorithm's or the engine's refusal as the ``why`` parameter of a service's code:
    a coded error as it is (worded in the reader's language), else its English text."""
    if isinstance(exc, AlgorithmError) and exc.code is not None:
        return exc
    message = exc.args[0] if exc.args else ""
    return message if isinstance(message, Coded) else str(exc)


def from_engine(message: str, *, field: str | None = None) -> ServiceError:
    """The ServiceError of an engine's refusal (a ``games.engine.codes`` message, e.g. a
    ``RulesError``'s): its code and parameters, its English text as the message. An
    uncoded one keeps its text."""
    code, params = code_of(message)
    return ServiceError(str(message), field=field, code=code, params=params, texts=error_text)


def coded_text(code: str, **params) -> Coded:
    """One of the ``MESSAGES`` as a coded text (a problem inside another message)."""
    text = Coded(MESSAGES[code] % params)
    text.code, text.params = code, params
    return text


def error_text(code: str | None, params: dict, fallback: str) -> str:
    """A coded error (``code`` and ``params``, as stored) in the active language;
    ``fallback`` (its English text) for an uncoded one."""
    if not code:
        return fallback
    return localize(
        code,
        params,
        fallback=fallback,
        catalogue=CATALOGUE,
        words=TRANSLATED_PARAMS,
        colours=COLOURS,
    )


def _data(value):
    if isinstance(value, Coded | AlgorithmError):
        return value.data()
    if isinstance(value, list):
        return [_data(v) for v in value]
    return value
