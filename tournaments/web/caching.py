"""HTTP caching of the public pages, so a shared cache or CDN in front of the site can serve
them: an anonymous visitor's page (standings, schedule, bracket, game, player, …) is the same
for everyone, so it is sent ``Cache-Control: public, max-age=0, s-maxage=N`` with an ETag
(and Last-Modified where the page has a revision time) and ``Vary: Cookie, Accept-Language``;
a request carrying that ETag is answered ``304 Not Modified``. Everything else stays
``private``: a signed-in visitor, a visitor with a session or a pending message, and any
response that sets a cookie (a CSRF token).

Where the page has a cheap revision (the standings: the snapshot stamp, one query), the
ETag is that revision plus the language, and a matching request is answered 304 before the
view runs. Other pages get an ETag from the rendered bytes: correct whatever changed the
page, since nothing could forget to bump a revision. Their anonymous rendering is kept in
the site's cache (Redis in production) for ``PUBLIC_PAGE_CACHE_SECONDS`` seconds (the same
30 s as the shared caches' ``PUBLIC_PAGES_S_MAXAGE`` by default; 0 switches it off), keyed by path,
query and language: the application then answers as a CDN in front would, with a page at
most that old (signed-in visitors, the players who just uploaded, always get a fresh one).
A page whose revision is exact (``Revision(stored=True)``: a league's content stamp, the
database raising it with every change the page shows; docs/pages.md, "Stored renderings")
is also kept under that revision, the language and the path, page cache on or off: a
visit costs the stamp's query and the stored bytes, never a stale page. Such a page is
gzipped once, when it is stored (``pack``), and a client that accepts gzip gets those bytes
with their own ETag (``packed_etag``) and ``Vary: Accept-Encoding``.
The standings keep theirs for ``STANDINGS_PAGE_CACHE_SECONDS`` (5 s; the page polls for a
newer table anyway): a visit then costs no query at all, where the stamp cost one.

The API's reads and downloads are shared the same way (``public_api``, applied to every API
view by ``tournaments.api.base.ApiView``): an anonymous GET's answer (a list, a detail, a
CSV or iCalendar export) is the same for every anonymous client, so it is public with an
ETag of its bytes; a request with an API token (``Authorization``) or a session is a
person's and stays private. nginx's shared cache in front (config/nginx.conf.template)
stores exactly what is marked public here.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from collections.abc import Callable
from functools import cache as memoize
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date, quote_etag
from django.utils.translation import get_language

#: a shared cache may serve a stale page this long while it revalidates in the background
STALE_WHILE_REVALIDATE = 30
VARY = ("Cookie", "Accept-Language")
#: the API's answers also depend on the token a client sends
API_VARY = (*VARY, "Authorization")
#: headers of an answer kept with its rendering in the site's cache (a download's file name,
#: the API's allowed methods); the others are added again on the way out by the middleware
KEPT_HEADERS = ("Content-Disposition", "Allow")


class Revision:
    """What a page depends on, read cheaply before rendering: ``etag`` (any string; the
    language is added) and ``last_modified`` (a Unix time or None). ``stored``: the
    revision covers *everything* the anonymous page shows (exact, never stale), so its
    rendering is kept under it (with the language and the full path) for
    ``REVISED_PAGE_SECONDS`` and a visit costs the revision's query and the stored bytes."""

    def __init__(self, etag: str, last_modified: float | None = None, *, stored: bool = False):
        self.etag = etag
        self.last_modified = int(last_modified) if last_modified else None
        self.stored = stored


#: how long a rendering stored under an exact revision is kept (a newer revision is a
#: new key, so this only bounds the memory a page nobody visits any more holds)
REVISED_PAGE_SECONDS = 3600


def is_shared_request(request: HttpRequest) -> bool:
    """The page is the same for every such visitor: nobody signed in, no session cookie,
    no pending flash message, no credentials (an API token: ``Authorization``)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return False
    if request.META.get("HTTP_AUTHORIZATION"):
        return False
    cookies = request.COOKIES
    return not (cookies.get(settings.SESSION_COOKIE_NAME) or cookies.get("messages"))


def _etag(value: str) -> str:
    return quote_etag(f"{value}-{get_language()}")


def public_page(
    revision: Callable[..., Revision | None] | None = None,
    *,
    everyone: bool = False,
    vary: tuple[str, ...] = VARY,
    keep: Callable[[], int] | None = None,
    ignore_query: bool = False,
    shared_for: Callable[[], int] | None = None,
):
    """Decorate a GET view of a public page (see the module's text). ``revision(request,
    **kwargs)`` returns the page's ``Revision`` (None: unknown, e.g. no such league; the
    view then answers as it would, a 404 for a missing or private league). ``everyone``:
    the page never depends on the visitor (the embeds), so it is shared even for a visitor
    with a session; ``vary``: the request headers the page depends on. ``keep()``: how many
    seconds the anonymous rendering is kept in the site's cache (default
    ``PUBLIC_PAGE_CACHE_SECONDS``; a kept page is answered, 304 included, without a query,
    before ``revision`` is asked); ``ignore_query``: the page does not read its query
    string, so ``?utm=…`` variants share one kept copy; ``shared_for()``: how many seconds
    a shared cache (nginx's, a CDN) may keep it, ``s-maxage`` (default
    ``PUBLIC_PAGES_S_MAXAGE``), and serve it stale while it revalidates (at most as long)."""

    def decorate(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            shared = request.method in ("GET", "HEAD") and (everyone or is_shared_request(request))
            s_maxage = shared_for() if shared_for else settings.PUBLIC_PAGES_S_MAXAGE
            seconds = (keep() if keep else settings.PUBLIC_PAGE_CACHE_SECONDS) if shared else 0
            packing = accepts_gzip(request)
            key = _page_key(request, ignore_query) if seconds > 0 else None
            if key and (stored := cache.get(key)) is not None:
                content, content_type, etag, *rest = stored
                last_modified = rest[0] if rest else None
                packed = rest[2] if len(rest) > 2 else None
                response, etag = _answer(content, content_type, etag, packed, packing)
                for name, value in (rest[1] if len(rest) > 1 else {}).items():
                    response[name] = value
                conditional = get_conditional_response(
                    request, etag=etag, last_modified=last_modified, response=response
                )
                return _mark_public(
                    conditional, etag, last_modified, _packed_vary(vary, packed), s_maxage
                )
            rev = revision(request, *args, **kwargs) if shared and revision else None
            revised = None
            if rev is not None:
                etag = _etag(rev.etag)
                # a stored page is sent gzipped to who accepts it: the variant's own ETag
                asked = packed_etag(etag) if rev.stored and packing else etag
                cached = get_conditional_response(
                    request, etag=asked, last_modified=rev.last_modified
                )
                if cached is not None:
                    own_vary = _packed_vary(vary, rev.stored or None)
                    return _mark_public(cached, asked, rev.last_modified, own_vary, s_maxage)
                if rev.stored:
                    revised = _revised_key(request, etag)
                    if (stored := cache.get(revised)) is not None:
                        packed = stored[3] if len(stored) > 3 else None
                        response, sent = _answer(stored[0], stored[1], etag, packed, packing)
                        for name, value in (stored[2] if len(stored) > 2 else {}).items():
                            response[name] = value  # the API's Allow, a download's name
                        _keep(key, response, etag, rev.last_modified, seconds, stored[0], packed)
                        return _mark_public(
                            response, sent, rev.last_modified, _packed_vary(vary, packed), s_maxage
                        )
            response = view(request, *args, **kwargs)
            if shared and callable(getattr(response, "render", None)):
                response.render()  # a DRF or template response: its bytes are the ETag's
            if not shared or not _cacheable(request, response):
                return _mark_private(response, vary)
            if rev is None:  # the view's own ETag (a log's SHA-256), else one of the bytes
                etag = response.get("ETag") or quote_etag(
                    hashlib.blake2b(response.content, digest_size=12).hexdigest()
                )
                last_modified = None
            else:
                last_modified = rev.last_modified
            packed = None
            if revised:
                content = response.content
                packed = pack(content)  # once per revision, not per visit
                kept = {name: response[name] for name in KEPT_HEADERS if name in response}
                stored = (content, response["Content-Type"], kept, packed)
                cache.set(revised, stored, REVISED_PAGE_SECONDS)
            _keep(key, response, etag, last_modified, seconds, response.content, packed)
            if rev is None:
                conditional = get_conditional_response(request, etag=etag, response=response)
                if conditional is not response:
                    return _mark_public(conditional, etag, None, vary, s_maxage)
            etag = _encoded(response, etag, packed, packing)
            return _mark_public(response, etag, last_modified, _packed_vary(vary, packed), s_maxage)

        return wrapped

    return decorate


_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def accepts_gzip(request: HttpRequest) -> bool:
    """The client takes a gzipped answer (``Accept-Encoding``, as Django's GZipMiddleware
    reads it): every browser."""
    return bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))


def pack(content: bytes) -> bytes:
    """A stored page gzipped once (fixed ``mtime``: the same bytes for the same page)."""
    return gzip.compress(content, compresslevel=6, mtime=0)


def packed_etag(etag: str) -> str:
    """The ETag of a page's gzipped variant (RFC 9110: another representation, another
    strong validator): ``"…-gz"``."""
    return f'{etag[:-1]}-gz"'


def _packed_vary(vary: tuple[str, ...], packed) -> tuple[str, ...]:
    """A page that has a gzipped variant varies on ``Accept-Encoding`` too (a shared cache
    keeps both)."""
    return (*vary, "Accept-Encoding") if packed else vary


def _answer(content: bytes, content_type: str, etag: str, packed: bytes | None, packing: bool):
    """The stored bytes as a response, gzipped for a client that takes it: (response, its
    ETag)."""
    response = HttpResponse(content, content_type=content_type)
    return response, _encoded(response, etag, packed, packing)


def _encoded(response: HttpResponse, etag: str, packed: bytes | None, packing: bool) -> str:
    """Send the page's gzipped bytes instead of its plain ones when it has them and the
    client takes them; the ETag of what is sent."""
    if packed is None or not packing:
        return etag
    response.content = packed
    response["Content-Encoding"] = "gzip"
    return packed_etag(etag)


def _keep(
    key: str | None,
    response: HttpResponse,
    etag: str,
    last_modified,
    seconds: int,
    content: bytes,
    packed: bytes | None = None,
) -> None:
    """Keep the anonymous rendering whole for the page cache's ``seconds`` (no query at all
    within them, as a CDN in front would answer): its plain ``content`` and, for a stored
    page, its gzipped bytes."""
    if key:
        kept = {name: response[name] for name in KEPT_HEADERS if name in response}
        stored = (content, response["Content-Type"], etag, last_modified, kept, packed)
        cache.set(key, stored, seconds)


def _page_key(request: HttpRequest, ignore_query: bool = False) -> str:
    """Scheme and host (an answer may hold absolute links: the API's pages), path (and
    query) and language."""
    path = request.path if ignore_query else request.get_full_path()
    where = f"{request.scheme}://{request.get_host()}{path}"
    where = hashlib.blake2b(where.encode(), digest_size=16).hexdigest()
    return f"public-page:{where}:{get_language()}"


def _revised_key(request: HttpRequest, etag: str) -> str:
    """The key of a rendering stored under an exact revision: the ETag (the revision and
    the language), scheme, host and the full path (the query picks the part shown and is
    echoed in the header's links), and the code that rendered it (``rendering_version``)."""
    where = f"{request.scheme}://{request.get_host()}{request.get_full_path()}"
    where = hashlib.blake2b(where.encode(), digest_size=16).hexdigest()
    return f"revised-page:{rendering_version()}:{etag}:{where}"


#: what a stored rendering is made from besides the data: a deploy that changes any of
#: these files makes new keys, so no page rendered by the old code is served after it
RENDERING_SOURCES = ("templates", "locale", "tournaments", "core", "games", "ratings", "accounts")


@memoize
def rendering_version() -> str:
    """A digest of the templates, the compiled translations and the Python source of the
    apps that render pages (read once per process, a few milliseconds): the part of a
    stored rendering's key that follows the code, so a deploy never needs a cache clear."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.blake2b(digest_size=8)
    for top in RENDERING_SOURCES:
        for path in sorted((root / top).rglob("*")):
            if path.suffix in (".html", ".txt", ".mo", ".py") and path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _cacheable(request: HttpRequest, response: HttpResponse) -> bool:
    """A full 200 page that sets no cookie (a CSRF token would be personal)."""
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )


def _mark_public(
    response: HttpResponse,
    etag: str,
    last_modified: int | None,
    vary: tuple[str, ...] = VARY,
    s_maxage: int | None = None,
) -> HttpResponse:
    if s_maxage is None:
        s_maxage = settings.PUBLIC_PAGES_S_MAXAGE
    response["ETag"] = etag
    if last_modified:
        response["Last-Modified"] = http_date(last_modified)
    patch_cache_control(
        response,
        public=True,
        max_age=0,
        s_maxage=s_maxage,
        stale_while_revalidate=min(STALE_WHILE_REVALIDATE, s_maxage),
    )
    if vary:
        patch_vary_headers(response, vary)
    return response


def _mark_private(response: HttpResponse, vary: tuple[str, ...] = VARY) -> HttpResponse:
    if "Cache-Control" not in response or "public" in response["Cache-Control"]:
        response["Cache-Control"] = "private, no-cache"
    elif "private" not in response["Cache-Control"]:
        patch_cache_control(response, private=True)
    patch_vary_headers(response, vary or VARY)
    return response


#: the embeds vary on nothing: language and theme are in the URL (``tournaments.web.embeds``
#: stores them per league stamp)
EMBED_VARY: tuple[str, ...] = ()
#: the embeds: the same page for every visitor (language and theme are in the URL)
embed_page = public_page(everyone=True, vary=EMBED_VARY)
#: the API's reads and downloads (``tournaments.api.base.ApiView`` wraps every view): shared
#: for anonymous clients, private with a token or a session; other methods are private
public_api = public_page(vary=API_VARY)
