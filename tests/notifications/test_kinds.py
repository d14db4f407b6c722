"""Every kind of notification has its function, named for it, and an unknown kind is a
bug that fails loudly (not a silent nobody)."""

from __future__ import annotations

import pytest

from notifications.kinds import KINDS, event_recipients
from notifications.models import Kind


def test_every_kind_has_its_own_function():
    assert set(KINDS) == set(Kind.values)
    assert {kind: function.__name__ for kind, function in KINDS.items()} == {
        kind: kind for kind in Kind.values
    }


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown notification kind"):
        event_recipients("result_awaited", 1)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", sorted(Kind.values))
def test_an_event_whose_object_is_gone_tells_nobody(kind):
    stamp = {"join_decided": "1:approved", "invitation_declined": "1:1"}.get(kind, "")
    assert event_recipients(kind, 987654, stamp) == ([], None)
