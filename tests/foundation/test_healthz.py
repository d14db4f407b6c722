"""/healthz against the real PostgreSQL and the real Redis broker."""

import pytest
from django.test import override_settings


@pytest.mark.django_db
def test_healthz_in_process_mode_reports_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["database"]["vendor"] == "postgresql"
    assert "eager" in body["broker"]["mode"]


@pytest.mark.django_db
def test_healthz_reaches_the_real_redis_broker(client, settings):
    with override_settings(
        CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=settings.TEST_CELERY_BROKER_URL
    ):
        response = client.get("/healthz")
    assert response.status_code == 200
    broker = response.json()["broker"]
    assert (broker["ok"], broker["transport"]) == (True, "redis")


@pytest.mark.django_db
def test_healthz_reaches_the_real_rabbitmq_broker(client):
    with override_settings(
        CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="amqp://guest:guest@127.0.0.1:5672//"
    ):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"]["transport"] == "amqp"


@pytest.mark.django_db
def test_healthz_is_503_when_the_broker_is_unreachable(client):
    with override_settings(
        CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="redis://127.0.0.1:1/0"
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["broker"]["ok"] is False
    assert body["database"]["ok"] is True


def test_healthz_is_503_when_the_database_is_unreachable(client, monkeypatch):
    from config import health

    def broken():
        return {"ok": False, "error": "OperationalError: connection refused"}

    monkeypatch.setattr(health, "check_database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"]["ok"] is False
