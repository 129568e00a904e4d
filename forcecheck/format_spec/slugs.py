"""The one spelling rule specs and card facts share, kept apart from the pydantic models so
that checking with a cached spec never imports them."""

from __future__ import annotations

import re


def slugify(text: str) -> str:
    """Spec authors may write ``Fairy Tale`` or ``fairy-tale``; both mean the same slug."""
    return re.sub(r"[^0-9a-z]+", "-", text.strip().lower()).strip("-")
