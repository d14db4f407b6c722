import pytest

from tests.builders import erin_against_carol, make_user


@pytest.fixture
def table(db):
    """erin against carol in a 2T+ league (tests.builders.erin_against_carol), and a stranger."""
    return {**erin_against_carol(), "stranger": make_user("stranger")}
