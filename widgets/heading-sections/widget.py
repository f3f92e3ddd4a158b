"""The structure view's own Python, run in the worker through runner.core.web.call (widget.js
imports this file as text): the document that the learner's section_chunks and sized_chunks get."""

import hashlib

DOCUMENT_ID = "eigen-bron"
DOCUMENT_TITLE = "Eigen bron"


def learner_document(text):
    """A snapshot of the source as rag-01's document_snapshots makes it, or None when the text has
    no UTF-8 form (a lone surrogate): then no revision exists."""
    try:
        revision = hashlib.sha256(text.encode("utf-8")).hexdigest()
    except UnicodeEncodeError:
        return None
    return {"id": DOCUMENT_ID, "title": DOCUMENT_TITLE, "text": text, "revision": revision}
