"""The API keeps to its OpenAPI schema under *every* Schemathesis check (issue 32): no
server error; requests the schema forbids are refused (negative data rejection), requests it
allows are accepted; every status code, content type, header and body is declared — for an
anonymous visitor, a player and staff. Bounded: derandomized examples per operation (one
run of every check replaced the earlier conformance-only run, whose checks are a subset)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from tests.api.schemathesis_site import in_process_requests, schema  # noqa: F401 (a fixture)

ROLES = ("anonymous", "player", "staff")

#: Where a schema-valid request may still be refused with 400 (positive_data_acceptance is
#: left out there, every other check runs): rules across fields or over the stored state
#: that OpenAPI cannot state. NOT DONE in issue 32; each is a clear 400 naming the rule.
KNOWN_GAPS = {
    # e.g. "ranking_level 1 is for triple-threat formats only", a slug already taken
    "POST /api/v1/leagues/": "league settings that contradict one another",
    # "your account already has a player profile" (a conflict with the stored state)
    "POST /api/v1/players/": "link_to_me for an account that has its player",
    # a NUL character in any JSON key or string is refused (it cannot be stored), which
    # the schema's free additional properties do not say
    "POST /api/v1/auth/token/": "NUL characters in undeclared body properties",
    # "Xleague is not an open tournament": an action of one format on a league of another
    # (the path's slug names a stored league; which format it has is not in the schema)
    "POST /api/v1/leagues/{slug}/open-rounds/": "an open tournament's action on another league",
    "POST /api/v1/leagues/{slug}/event/schedule/": "an event's action on another league",
}


@pytest.fixture
def every_token(world, token_auth, settings, in_process_requests):  # noqa: F811
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "login": None,
            "login_account": None,
            "submissions": None,
            "league_create": None,
        },
    }
    headers = {"anonymous": {}}
    for role in ("player", "staff"):
        key = token_auth.objects.create(user=world.users[role]).key
        headers[role] = {"Authorization": f"Token {key}"}
    return headers


@schema.parametrize()
@hypothesis_settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_check_holds_for_every_role(case, every_token):
    for role in ROLES:
        # identity: the WSGI transport does not undo a Content-Encoding, and stored answers
        # are gzipped for a client that accepts it (their gzip path: tests/pages)
        response = case.call(headers={**every_token[role], "Accept-Encoding": "identity"})
        # ignored_auth corrupts one scheme's credentials and expects a refusal: with a
        # valid token sent beside them that cannot hold; the anonymous run checks it
        excluded = [] if role == "anonymous" else [ignored_auth]
        if case.operation.label in KNOWN_GAPS:
            excluded.append(positive_data_acceptance)
        case.validate_response(response, excluded_checks=excluded)
