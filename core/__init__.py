"""The bottom of the layers: request infrastructure every app shares and nothing of the
leagues' own (``docs/architecture.md``).

- ``core.throttles``: the one throttle policy of the pages and the API;
- ``core.errors``: ``ServiceError``, the base of every refusal a service raises (and
  ``NotAllowed``);
- ``core.retry``: ``OUTAGE_ERRORS``, what a retry can cure (the database, the broker or
  Redis away for a moment).

It imports Django and DRF, never a project app; every app may import it (the engine,
pure Python, does not).
"""
