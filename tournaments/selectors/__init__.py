"""Read queries, by subject: ``visibility`` (who may see what), ``leagues``, ``schedule``,
``standings``, ``playoffs``, ``games``, ``players``. Pages and the API both read through
these; nothing here writes.

Every selector fetches what its page shows in a fixed number of queries (select_related /
prefetch_related), whatever the size of the league; the page tests hold them to it.
"""
