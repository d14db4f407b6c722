"""Sessions read from the shared cache, kept in the database (``SESSION_ENGINE``).

Django's ``cached_db`` engine saves a session to the database and the cache and reads it
from the cache: a signed-in visit then costs no session query (docs/performance.md,
"Signed-in pages … at 100×"). Two things make plain ``cached_db`` unsafe with this
project's cache (``config.cache.ResilientRedisCache``), and this engine closes both:

* during a Redis outage the cache keeps values in a per-process memory: a session kept
  there would outlive its log-out in another process. While this process's cache is out
  (``cache.available`` false) a session is read from and written to the database alone,
  never to the cache;
* a log-out (or a password change) during an outage deletes the database's row but not
  the copy in Redis, which would be trusted again once Redis answers. Every cached session
  holds the *generation* it was cached under (one key in the cache, read with the session
  in one round trip); a process that saw an outage bumps the generation at its first
  answer from Redis, so every session cached before is read from the database again.

What the session holds and how it is checked are Django's: the user's id, backend and
auth hash (the password's HMAC), compared with the user's on every request by
``django.contrib.auth.get_user``.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore

#: the cache key holding the generation (a missing key is generation 0)
GENERATION_KEY = "maedn.session-generation"

#: a session read from the database is cached this long at most (a log-out racing that
#: read — the row deleted after it, the copy cached after the deletion — is undone by then;
#: plain ``cached_db`` keeps such a copy for the session's whole age)
REFILL_SECONDS = 300

#: whether this process's cache was out since the generation was last bumped
_outage_seen = False


class SessionStore(CachedDBStore):
    cache_key_prefix = "maedn.session."

    def _shared(self) -> bool:
        """Whether the cache is the shared one now (not an outage's per-process memory);
        the first time it is again after an outage, the generation is bumped."""
        global _outage_seen
        if not getattr(self._cache, "available", True):
            _outage_seen = True
            return False
        if _outage_seen:
            try:
                self._cache.incr(GENERATION_KEY)
            except ValueError:  # no generation yet
                self._cache.add(GENERATION_KEY, 1, None) or self._cache.incr(GENERATION_KEY)
            if not getattr(self._cache, "available", True):
                return False  # the bump did not reach Redis: still out
            _outage_seen = False
        return True

    def _generation(self) -> int:
        return self._cache.get(GENERATION_KEY) or 0

    def load(self):
        if self.session_key is None:
            return {}  # no cookie: nothing to read
        if not self._shared():
            return DBStore.load(self)
        key = self.cache_key
        found = self._cache.get_many([GENERATION_KEY, key])
        generation = found.get(GENERATION_KEY) or 0
        entry = found.get(key)
        if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == generation:
            return entry[1]
        s = self._get_session_from_db()
        if not s:
            return {}
        data = self.decode(s.session_data)
        age = min(self.get_expiry_age(expiry=s.expire_date), REFILL_SECONDS)
        self._cache.set(key, (generation, data), age)
        return data

    def exists(self, session_key):
        return DBStore.exists(self, session_key)  # a new key must be new in the database

    def save(self, must_create=False):
        DBStore.save(self, must_create)
        if self._shared():
            entry = (self._generation(), self._session)
            self._cache.set(self.cache_key, entry, self.get_expiry_age())

    def delete(self, session_key=None):
        DBStore.delete(self, session_key)
        if session_key is None:
            if self.session_key is None:
                return
            session_key = self.session_key
        if self._shared():
            self._cache.delete(self.cache_key_prefix + session_key)

    # the async API (Channels' session middleware) runs the same code in a thread
    async def aload(self):
        return await sync_to_async(self.load)()

    async def aexists(self, session_key):
        return await sync_to_async(self.exists)(session_key)

    async def asave(self, must_create=False):
        return await sync_to_async(self.save)(must_create)

    async def adelete(self, session_key=None):
        return await sync_to_async(self.delete)(session_key)
