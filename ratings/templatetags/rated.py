"""``{% league_rating league as rating %}``: rated or not, and why (docs/ratings.md)."""

from django import template

from ratings.selectors.rated_leagues import RatingStatus, league_rating, new_league_rating

register = template.Library()


@register.simple_tag
def league_rating_status(league=None) -> RatingStatus:
    return new_league_rating() if league is None else league_rating(league)
