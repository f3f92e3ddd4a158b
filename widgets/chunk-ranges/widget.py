"""The visualizer's own Python, run in the worker through runner.core.web.call (widget.js
imports this file as text). It turns what the learner typed into word_chunks's arguments."""

import hashlib
import re

DOCUMENT_ID = "eigen-bron"
DOCUMENT_TITLE = "Eigen bron"


def field_value(raw):
    """A number field's text as Python would get it: "6" -> 6, "6.5" -> 6.5, "" -> None; other
    text stays text, so word_chunks can refuse it."""
    if raw is None:
        return None
    raw = raw.strip()
    if raw == "":
        return None
    if re.fullmatch(r"-?[0-9]+", raw):
        return int(raw)
    try:
        return float(raw)
    except ValueError:
        return raw


def learner_arguments(text, window, overlap):
    """[document, window, overlap] for word_chunks, or None when the text has no UTF-8 form
    (a lone surrogate): then no document, and so no revision, exists."""
    try:
        revision = hashlib.sha256(text.encode("utf-8")).hexdigest()
    except UnicodeEncodeError:
        return None
    document = {"id": DOCUMENT_ID, "title": DOCUMENT_TITLE, "text": text, "revision": revision}
    return [document, field_value(window), field_value(overlap)]
