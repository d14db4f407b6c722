"""Player ratings (docs/ratings.md): the rated games of counted results, the openskill
update and its replays, rated leagues (a rating officer's sanction), the ratings table,
the player's rating history and a game's win probabilities.

Above the competition (``tournaments``' models, selectors and services), below the doors:
it reads leagues, fixtures and results and is told when a result counts
(``ratings.services.ratings.rating_game_counted``), never the other way round.
"""
