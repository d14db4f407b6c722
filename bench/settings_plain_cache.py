"""bench/abuse.py's "before" for a Redis outage: the production settings with Django's own
``RedisCache`` as the cache was before issue 22 point 11 (redis-py's default 5 s socket
timeout, every error raised into the request)."""

from config.settings.base import *  # noqa: F403

CACHES["default"] = {  # noqa: F405
    "BACKEND": "django.core.cache.backends.redis.RedisCache",
    "LOCATION": CACHE_URL,  # noqa: F405
}
