"""The replay board's geometry: every field of both boards lies inside the SVG viewBox."""

import pytest

from games.geometry import board_layout


@pytest.mark.parametrize(("size", "track"), [(4, 40), (6, 48)])
def test_every_field_lies_inside_the_view_box(size, track):
    layout = board_layout(size)
    x0, y0, width, height = (layout[k] for k in ("x0", "y0", "width", "height"))
    assert width > 0 and height > 0
    points = [*layout["track"]]
    for seat in layout["seats"]:
        points += [*seat["house"], *seat["yard"]]
    assert len(layout["track"]) == track
    for x, y in points:
        assert x0 <= x <= x0 + width and y0 <= y <= y0 + height, (x, y)
