"""Tournament algorithms as plain Python: no Django, no database.

Small modules named after their concept (in the spirit of Tabbycat's ``draw`` and
``standings`` packages); everything is pure functions and frozen dataclasses.
Players and entries are opaque hashable ids; colours are strings; a board is a tuple
of colours in clockwise seat order (see :mod:`tournaments.algorithms.boards`).

Modules:

- :mod:`~tournaments.algorithms.boards` — default boards (4 and 6 colours).
- :mod:`~tournaments.algorithms.errors` — the exceptions (all ``ValueError``), each a
  code with parameters.
- :mod:`~tournaments.algorithms.messages` — the codes' English wording, written once and
  marked for translation.
- :mod:`~tournaments.algorithms.checks` — small input checks the modules share.
- :mod:`~tournaments.algorithms.round_robin` — DRR and triple-threat schedules.
- :mod:`~tournaments.algorithms.seeding` — seeding by die roll, roll-offs.
- :mod:`~tournaments.algorithms.colours` — allied pairs, rearguard/vanguard,
  colour assignment.
- :mod:`~tournaments.algorithms.starting_colour` — which colour starts a game, and
  start plans of events ("decided by game N").
- :mod:`~tournaments.algorithms.brackets` — playoff brackets and series.
- :mod:`~tournaments.algorithms.standings` — metrics, precedence, ranked tables,
  die-roll tie-breaks.
- :mod:`~tournaments.algorithms.open_draw` — open tournaments: table draws, count-point
  placings, the final table.
- :mod:`~tournaments.algorithms.grand_prix` — Grand Prix seating, points, when it is
  decided.
- :mod:`~ratings.algorithms` — player ratings (openskill Plackett–Luce),
  replays, win predictions and their calibration.
- :mod:`~tournaments.algorithms.world_rankings` — the 3T World Rankings.

See ``docs/tournaments.md`` for the regulations and the platform rules.
"""
