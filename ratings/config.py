"""The platform's rating constants: the openskill settings every rating, replay and
prediction uses (β chosen with ``bench/ratings_calibration.py``, see docs/ratings.md)."""

from __future__ import annotations

from ratings.algorithms import RatingSettings

#: β (the luck of one game) is four times openskill's default 25/6: Mensch ärgere Dich
#: nicht is a dice game, and ``bench/ratings_calibration.py`` scores β = 50/3 best (lowest
#: log loss and Brier score of the values tried; docs/ratings.md). Changing any figure here
#: needs ``manage.py ratings_recompute``.
#: With that β a rating learns slowly (σ falls from 8.33 to 7.8 in about 20 games against
#: newcomers, to 6.5 in 100), so "provisional" means σ above 7.8, the first ~20 games.
PLATFORM_RATINGS = RatingSettings(beta=50.0 / 3.0, provisional_sigma=7.8)

#: the ratings table's default "active in the last N months" filter
ACTIVE_MONTHS_CHOICES = (3, 6, 12, 24)
