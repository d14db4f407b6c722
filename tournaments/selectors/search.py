"""Search players and leagues by name (the header's search box).

On PostgreSQL: full-text search of the names (the ``simple`` configuration: names are not
words of a language, so no stemming), plus a substring match for parts of words, ranked by
the full-text rank, a name starting with the query first; where the ``pg_trgm`` extension
is installed, also trigram word similarity, so a misspelt name ("Karol") finds "Carol".
Elsewhere (SQLite, the embedded mode): a substring match that ignores case and accents
("pia" finds "Pía", "Pía" finds "Pia"): both sides folded by :func:`fold`, registered as
the SQLite function ``maedn_fold`` for every connection (``apps.py``). Leagues
are only those the visitor may see (``visible_leagues``); players are public.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import cache

from django.contrib.postgres.search import (
    SearchQuery,
    SearchRank,
    SearchVector,
    TrigramWordSimilarity,
)
from django.db import connection
from django.db.models import (
    Case,
    CharField,
    F,
    FloatField,
    Func,
    IntegerField,
    Q,
    QuerySet,
    Value,
    When,
)
from django.db.models.functions import Greatest

from tournaments.models import League, Player
from tournaments.selectors.visibility import visible_leagues

LIMIT = 20
MIN_LENGTH = 2
MAX_LENGTH = 100
#: trigram word similarity above which a name counts as a match
TRIGRAM_THRESHOLD = 0.4


@dataclass
class SearchResults:
    query: str
    players: list[Player] = field(default_factory=list)
    leagues: list[League] = field(default_factory=list)
    too_short: bool = False
    method: str = ""
    """how the names were matched: "full-text+trigram", "full-text" or "substring" """


def fold(text: str | None) -> str:
    """``text`` without accents and case: "Pía Ærø" → "pia æro" (NFKD, combining marks
    dropped, casefolded)."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


class Folded(Func):
    """``maedn_fold(name)`` on SQLite (see :func:`fold`)."""

    function = "maedn_fold"
    output_field = CharField()


def register_sqlite_functions(sender, connection, **kwargs) -> None:
    """``connection_created``: give every SQLite connection ``maedn_fold``."""
    if connection.vendor == "sqlite":
        connection.connection.create_function("maedn_fold", 1, fold, deterministic=True)


@cache
def _has_trigram() -> bool:
    """Is pg_trgm installed in this database? (Asked once per process.)"""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
        return cursor.fetchone() is not None


def search_method() -> str:
    if connection.vendor != "postgresql":
        return "substring"
    return "full-text+trigram" if _has_trigram() else "full-text"


def _ranked(qs: QuerySet, query: str, method: str) -> QuerySet:
    starts = Case(
        When(name__istartswith=query, then=Value(1)), default=Value(0), output_field=IntegerField()
    )
    if method == "substring" and connection.vendor != "sqlite":
        return qs.filter(name__icontains=query).annotate(starts=starts).order_by("-starts", "name")
    if method == "substring":
        folded = fold(query)
        qs = qs.annotate(folded=Folded("name"))
        starts = Case(
            When(folded__startswith=folded, then=Value(1)),
            default=Value(0),
            output_field=IntegerField(),
        )
        return (
            qs.filter(folded__contains=folded).annotate(starts=starts).order_by("-starts", "name")
        )

    vector = SearchVector("name", config="simple")
    text = SearchQuery(query, config="simple", search_type="websearch")
    rank = SearchRank(vector, text)
    match = Q(name__icontains=query) | Q(fulltext=text)
    qs = qs.annotate(fulltext=vector, rank=rank, starts=starts)
    score = F("rank")
    if method == "full-text+trigram":
        qs = qs.annotate(similarity=TrigramWordSimilarity(query, "name"))
        match |= Q(similarity__gte=TRIGRAM_THRESHOLD)
        score = Greatest(F("rank"), F("similarity"), output_field=FloatField())
    return qs.filter(match).annotate(score=score).order_by("-starts", "-score", "name")


def search(query: str, user) -> SearchResults:
    query = " ".join((query or "").split())[:MAX_LENGTH]
    results = SearchResults(query=query, method=search_method())
    if len(query) < MIN_LENGTH:
        results.too_short = bool(query)
        return results
    results.players = list(_ranked(Player.objects.all(), query, results.method)[:LIMIT])
    leagues = League.objects.filter(pk__in=visible_leagues(user).values("pk"))
    results.leagues = list(_ranked(leagues, query, results.method)[:LIMIT])
    return results
