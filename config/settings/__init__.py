"""Settings packages: ``base`` is driven entirely by environment variables, ``test`` adds the
test-suite defaults (PostgreSQL on 127.0.0.1, eager Celery unless a test asks for a worker)."""
