"""The base of API v1: the view class every endpoint derives from (authentication, one error
format, JSON with a size limit, pagination), file downloads, the schema's error responses
and the JSON field types shared by serializers."""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django_filters import BooleanFilter
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema_field,
)
from rest_framework import exceptions, parsers, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.metadata import SimpleMetadata
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games.storable import NUL_CHARACTER, UNPAIRED_SURROGATE, unstorable
from tournaments.api.auth import (
    AUTHENTICATION_CLASSES,
)
from tournaments.api.errors import api_exception_handler, error_body
from tournaments.api.parsers import (
    refuse_unstorable,
)
from tournaments.api.schema import MAX_PAGE_SIZE, PAGE_SIZE_QUERY_PARAM, ApiAutoSchema
from tournaments.models import (
    League,
)
from tournaments.notes import SITE_CODES, note_parts, note_text
from tournaments.selectors import leagues as league_selectors
from tournaments.selectors.visibility import (
    visible_leagues,
)
from tournaments.services.errors import ServiceError
from tournaments.services.guards import require_organizer
from tournaments.web.caching import API_VARY, Revision, public_api, public_page

REASON_MAX = 2000


@extend_schema_field({"type": "array", "items": {"type": "string"}})
class StringListField(serializers.JSONField):
    pass


@extend_schema_field({"type": "array", "items": {"type": "integer"}})
class IntegerListField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "additionalProperties": {"type": "integer"}})
class IntegerMapField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "additionalProperties": {"type": "number"}})
class NumberMapField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "additionalProperties": True})
class ObjectField(serializers.JSONField):
    pass


@extend_schema_field({"oneOf": [{"type": "string"}, {"type": "object"}]})
class RulesField(serializers.JSONField):
    pass


class NoteField(serializers.CharField):
    """A stored note (a result's reason, a game's start reason, …) in the request's
    language: a note a service wrote worded from its code and parameters
    (``tournaments.notes``), a person's own words as typed. Its ``…_code`` and
    ``…_params`` (``NoteCodeField``, ``NoteParamsField`` of the same source) say which."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str:
        return note_text(str(value or ""))


class NoteCodeField(serializers.CharField):
    """A stored note's code (``core.reasons.CODES``, the start reasons'
    ``START_CODES``), or null for a person's own words and an empty note."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str | None:
        return note_parts(str(value or ""), SITE_CODES)[0]


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": True,
        "nullable": True,
        "description": "the note's parameters as stored (strings; a note inside the note as "
        "its own {code, params}, a list of them for `gone`), or null with a null code",
    }
)
class NoteParamsField(serializers.JSONField):
    """A stored note's parameters, or null for a person's own words and an empty note."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> dict[str, Any] | None:
        return note_parts(str(value or ""), SITE_CODES)[1]


def username_of(user) -> str | None:
    return user.get_username() if user is not None else None


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="machine-readable: invalid, not_allowed, not_found, …")
    message = serializers.CharField(help_text="what is wrong, in words")
    field = serializers.CharField(allow_null=True, help_text="the input field at fault, if any")
    event = serializers.IntegerField(
        required=False, help_text="a rejected game log: the first offending event (0-based)"
    )
    fields = ObjectField(required=False, help_text="input validation: every field's messages")
    reason = serializers.CharField(
        required=False,
        help_text="a service refusal's own code (e.g. games_waiting, entries_closed); its "
        "message is then in the request's language (Accept-Language)",
    )


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=REASON_MAX)


JSON_BODY_LIMIT = 256 * 1024


def error_responses(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ErrorSerializer) for code in codes}


READ_ERRORS = error_responses(404)

LIST_ERRORS = error_responses(400, 404)  # 400: a bad filter value; 404: no such page (or league)

WRITE_ERRORS = error_responses(400, 401, 403, 404)

SUBMIT_ERRORS = error_responses(400, 401, 403, 404, 429)


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = PAGE_SIZE_QUERY_PARAM
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request):
        """``page_size`` as the schema declares it (a whole number from 1 to 200), else 400
        naming it: DRF's default silently used 50 for ``page_size=null`` (issue 32)."""
        values = request.query_params.getlist(self.page_size_query_param)
        if not values:
            return self.page_size
        value = values[-1]
        if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= self.max_page_size:
            raise ServiceError(
                f"page_size must be a whole number from 1 to {self.max_page_size}, not {value!r}",
                field=self.page_size_query_param,
            )
        return int(value)


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with a size limit, and too-deeply-nested input as a 400."""

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read(JSON_BODY_LIMIT + 1) if stream is not None else b""
        if len(raw) > JSON_BODY_LIMIT:
            raise exceptions.ParseError(
                f"the request body is larger than {JSON_BODY_LIMIT:,} bytes"
            )
        try:
            data = json.loads(raw.decode("utf-8"), parse_constant=json_strict_constant)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - nested too deeply") from None
        except ValueError as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None
        refuse_unstorable(data)
        return data


def json_strict_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


class Metadata(SimpleMetadata):
    """OPTIONS answers: name, renderers and parsers. Input descriptions are in the OpenAPI
    schema (/api/schema/), not here."""

    def determine_actions(self, request, view):
        return {}


def refuse_undeclared_filter_values(view, params) -> None:
    """The list filters take what the schema declares: no empty value (``?league=``, which
    the filters ignored), and ``true``/``false`` for a yes/no filter (``?mine=null`` was
    read as "either"); page and page size are checked by ``Pagination`` (issue 32)."""
    filterset = getattr(view, "filterset_class", None)
    filters = dict(getattr(filterset, "base_filters", {}) or {})
    for name, values in params.lists():
        wanted = filters.get(name)
        if wanted is not None or name in ("page", "page_size"):
            for value in values:
                _refuse_filter_value(name, wanted, value)


def _refuse_filter_value(name: str, wanted, value: str) -> None:
    """A value of a list filter (``wanted``) or of the paging parameters: never empty, and
    ``true``/``false`` for a yes/no filter."""
    if value == "":
        raise ServiceError(
            f"the query parameter {name!r} has no value: leave it out or give one", field=name
        )
    if isinstance(wanted, BooleanFilter) and value not in ("true", "false"):
        raise ServiceError(f"{name} must be true or false, not {value!r}", field=name)


def refuse_unusable_query(params) -> None:
    """A query parameter no database can compare (a NUL character, an unpaired surrogate)
    is the client's error: 400 naming the parameter, never a 500 from the database."""
    for name, values in params.lists():
        for value in values:
            problems = {unstorable(name), unstorable(value)}
            if NUL_CHARACTER in problems:
                raise ServiceError(
                    f"the query parameter {name!r} contains a NUL character", field=name
                )
            if UNPAIRED_SURROGATE in problems:
                raise ServiceError(f"the query parameter {name!r} is not valid text", field=name)


#: (DRF field class, the JSON types it takes, how the schema calls them): DRF coerces
#: ``"name": 0`` to "0" and ``"shared": "yes"`` to True; the schema says a string, a boolean
_STRICT = (
    (serializers.BooleanField, (bool,), "true or false"),
    (serializers.IntegerField, (int,), "a whole number"),
    (serializers.FloatField, (int, float), "a number"),
    (serializers.ChoiceField, (str, int), "one of the listed values"),
    (serializers.CharField, (str,), "a string"),
    (serializers.ListField, (list,), "a list"),
)


def refuse_loose_types(serializer, data) -> None:
    """Each top-level field of a JSON body has the type the schema declares (issue 32:
    ``"name": 0`` made a player called "0"), else 400 naming the field. A null is left to
    the field's own check (``allow_null`` or not)."""
    if not isinstance(data, dict):
        return
    for name, field in serializer.fields.items():
        if data.get(name) is not None and not field.read_only:
            _refuse_loose_value(name, field, data[name])


def _strict_rule(field) -> tuple[tuple[type, ...], str] | None:
    """The JSON types ``field`` takes and how the schema calls them (None: not checked)."""
    return next(((types, words) for cls, types, words in _STRICT if isinstance(field, cls)), None)


def _refuse_loose_value(name: str, field, value) -> None:
    """``value`` of ``field`` has the JSON type of the field's class (``_STRICT``), and a
    list of strings only strings."""
    rule = _strict_rule(field)
    if rule is None:
        return
    types, words = rule
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise ServiceError(f"{name} must be {words}", field=name)
    strings = isinstance(getattr(field, "child", None), serializers.CharField)
    if strings and any(not isinstance(item, str) for item in value):
        raise ServiceError(f"{name} must be a list of strings", field=name)


def _stored(prefix: str, stamp) -> Revision | None:
    """An anonymous answer stored under a public league's content stamp (exact: the
    database raises the revision with every change a league's answers show; docs/api.md,
    "Stored answers"); None for a private or missing league: the view answers as always."""
    if stamp is None or not stamp.is_public:
        return None
    return Revision(f"{prefix}{stamp.etag}", stored=True)


def league_revision(request, slug: str, **kwargs) -> Revision | None:
    """A league's own answers (``/leagues/<slug>/…``): its content stamp."""
    return _stored("a-", league_selectors.content_stamp(slug))


def fixture_revision(request, pk: int, **kwargs) -> Revision | None:
    """A game's answers: the content stamp of its league."""
    return _stored(f"ag{pk}-", league_selectors.game_content_stamp(pk))


def result_revision(request, pk: int, **kwargs) -> Revision | None:
    """A result's answer: the content stamp of its game's league."""
    return _stored(f"ar{pk}-", league_selectors.result_content_stamp(pk))


def series_revision(request, pk: int, **kwargs) -> Revision | None:
    """A playoff series' answer: the content stamp of its league."""
    return _stored(f"as{pk}-", league_selectors.series_content_stamp(pk))


def league_filter_revision(request, **kwargs) -> Revision | None:
    """A list of games: filtered by exactly one league (``?league=<slug>``), that league's
    content stamp; by none, every league's (``site_stamp``: the games of all public
    leagues, whatever the other filters pick); by several: not stored."""
    slugs = request.GET.getlist("league")
    if not slugs:
        return site_revision(request)
    if len(slugs) != 1 or not slugs[0]:
        return None
    return _stored("al-", league_selectors.content_stamp(slugs[0]))


def site_revision(request, **kwargs) -> Revision | None:
    """The list of leagues: every league's revision (``site_stamp``: leagues made or
    deleted included)."""
    stamp = league_selectors.site_stamp()
    return Revision(f"a-{stamp}", stored=True) if stamp else None


def players_list_revision(request, **kwargs) -> Revision | None:
    """The list of players: the players' revision (every player made, changed or deleted;
    the list shows their rows only)."""
    stamp = league_selectors.players_stamp()
    return Revision(f"a-{stamp}", stored=True) if stamp else None


def player_revision(request, slug: str, **kwargs) -> Revision | None:
    """A player: the player page's stamp (their row, their leagues' revisions, ratings)."""
    stamp = league_selectors.player_stamp(slug)
    return Revision(f"a-{stamp}", stored=True) if stamp else None


class ApiView(GenericAPIView):
    # Base of every v1 view: session + token authentication, one error format, JSON.
    schema = ApiAutoSchema()
    metadata_class = Metadata
    authentication_classes = AUTHENTICATION_CLASSES
    permission_classes = [IsAuthenticatedOrReadOnly]
    renderer_classes = [JSONRenderer]  # JSON only: the docs are /api/docs/
    parser_classes = [JSONParser]
    pagination_class = Pagination
    filter_backends = [DjangoFilterBackend]
    throttle_classes: list = []
    #: an anonymous GET's answer is the same for every anonymous client: public with an
    #: ETag of its bytes, 304 to a matching If-None-Match, kept in the site's cache like a
    #: public page (``tournaments.web.caching.public_api``); a token or a session makes it
    #: private. False: the view marks its answers itself (the streamed archive).
    shared_reads = True
    #: ``revision(request, **kwargs)``: an exact revision of everything the anonymous answer
    #: shows (``league_revision`` …, ``staticmethod``): the answer is then stored under it,
    #: the language, scheme, host and full path, and the code (``rendering_version``) —
    #: page cache on or off; a token or a session still makes it private and unstored
    stored_revision = None

    @classmethod
    def as_view(cls, **initkwargs):
        view = super().as_view(**initkwargs)
        if not cls.shared_reads:
            return view
        if cls.stored_revision is not None:
            return public_page(cls.stored_revision, vary=API_VARY)(view)
        return public_api(view)

    def get_exception_handler(self):
        return api_exception_handler

    def initial(self, request, *args, **kwargs):
        method = request.method.lower()
        if method not in self.http_method_names or not hasattr(self, method):
            # a method the view does not have is its 405 with Allow, whatever the query
            # says (``?format=2T`` made TRACE a 404 in content negotiation: issue 32)
            raise exceptions.MethodNotAllowed(request.method)
        super().initial(request, *args, **kwargs)
        refuse_unusable_query(request.query_params)
        refuse_undeclared_filter_values(self, request.query_params)

    def input(self, serializer_class, request: Request) -> dict[str, Any]:
        serializer = serializer_class(data=request.data)
        refuse_loose_types(serializer, request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def visible_league(self, slug: str) -> League:
        league = visible_leagues(self.request.user).filter(slug=slug).first()
        if league is None:
            raise Http404(f"there is no league {slug!r}")
        return league

    def organized_league(self, slug: str) -> League:
        """The league, for a write only its organizers may make: 404 if the user may not
        see it, else 403 unless they organize it — before the body is validated, so a
        stranger learns nothing from the validation errors."""
        league = self.visible_league(slug)
        require_organizer(self.request.user, league)
        return league

    def paginated(self, queryset, serializer_class) -> Response:
        queryset = self.filter_queryset(queryset)
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(serializer_class(page, many=True).data)


class DownloadView(ApiView):
    # Answers with a file (CSV, iCalendar, JSON); errors are JSON whatever the client accepts.

    renderer_classes = [JSONRenderer]

    def perform_content_negotiation(self, request, force=False):
        return (JSONRenderer(), JSONRenderer.media_type)


@csrf_exempt  # it changes nothing; a 404 beats a CSRF failure page
def endpoint_not_found(request, *args, **kwargs) -> JsonResponse:
    return JsonResponse(
        error_body("not_found", f"there is no API endpoint {request.path}"), status=404
    )


def download(content: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
