"""Words shared by findings (forcecheck/wording.py)."""

from __future__ import annotations


def test_a_span_of_lines_never_names_lines_it_is_not_about():
    """FC013 said "2 lines ... (lines 34-44)" for lines 34 and 44: eleven lines to a reader."""
    from forcecheck.wording import line_span, lines_listed

    assert lines_listed([34, 44]) == "lines 34, 44"
    assert lines_listed([3, 4, 5, 9]) == "lines 3-5, 9"
    assert lines_listed([7, 7]) == "line 7" and lines_listed([4, 5]) == "lines 4-5" and lines_listed([]) == ""
    assert line_span([12, 22]) == "lines 12-22"  # a block of the list: its extent, headers within
