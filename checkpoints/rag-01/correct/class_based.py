"""Goede oplossing in een andere stijl: kleine klassen die elk één regel bewaken."""

import hashlib
import re


class Invalid(ValueError):
    pass


class SourceRules:
    ID = re.compile(r"[A-Za-z0-9_-]+")

    def check(self, fields):
        doc_id, title, text = fields["id"], fields["title"], fields["text"]
        if type(doc_id) is not str or not 1 <= len(doc_id) <= 40 or self.ID.fullmatch(doc_id) is None:
            raise Invalid("id")
        for value, limit in ((title, 100), (text, 20000)):
            if type(value) is not str or value.strip() == "" or len(value) > limit:
                raise Invalid("title/text")

    @staticmethod
    def revision(text):
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise Invalid("geen geldige UTF-8") from error
        return hashlib.sha256(data).hexdigest()

    def check_document(self, document):
        if type(document) is not dict or sorted(document) != ["id", "revision", "text", "title"]:
            raise Invalid("document")
        self.check(document)
        if document["revision"] != self.revision(document["text"]):
            raise Invalid("revision")


class WordIndex:
    def __init__(self, text):
        self.text = text
        self.spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]

    def __len__(self):
        return len(self.spans)

    def passage(self, document, first, stop):
        start, end = self.spans[first][0], self.spans[stop - 1][1]
        return {
            "id": "%s:%d" % (document["id"], first),
            "document_id": document["id"],
            "revision": document["revision"],
            "word_start": first,
            "word_end": stop,
            "start": start,
            "end": end,
            "text": self.text[start:end],
        }


RULES = SourceRules()


def document_snapshots(records):
    if type(records) is not list or not 0 < len(records) < 33:
        raise Invalid("records")
    result, ids = [], set()
    for item in records:
        if type(item) is not dict or len(item) != 3 or not {"id", "title", "text"} == item.keys():
            raise Invalid("record")
        RULES.check(item)
        if item["id"] in ids:
            raise Invalid("dubbel")
        ids.add(item["id"])
        result.append(dict(id=item["id"], title=item["title"], text=item["text"], revision=RULES.revision(item["text"])))
    return result


def word_chunks(document, window=40, overlap=8):
    RULES.check_document(document)
    if type(window) is not int or type(overlap) is not int:
        raise Invalid("types")
    if window < 1 or window > 256 or overlap < 0 or overlap >= window:
        raise Invalid("bereik")
    index = WordIndex(document["text"])
    step = window - overlap
    passages = []
    first = 0
    while not passages or passages[-1]["word_end"] < len(index):
        passages.append(index.passage(document, first, min(first + window, len(index))))
        first += step
    return passages


def chunk_coverage(document, chunks):
    RULES.check_document(document)
    if type(chunks) is not list or len(chunks) > 20000:
        raise Invalid("chunks")
    index = WordIndex(document["text"])
    seen = set()
    flags = [False] * len(index)
    stored = 0
    for chunk in chunks:
        if type(chunk) is not dict or len(chunk) != 8:
            raise Invalid("chunk")
        first, stop = chunk.get("word_start"), chunk.get("word_end")
        if type(first) is not int or type(stop) is not int or not 0 <= first < stop <= len(index):
            raise Invalid("grenzen")
        expected = index.passage(document, first, stop)
        if chunk.keys() != expected.keys():
            raise Invalid("sleutels")
        for key, value in expected.items():
            if type(chunk[key]) is not type(value) or chunk[key] != value:
                raise Invalid(key)
        if chunk["id"] in seen:
            raise Invalid("dubbel")
        seen.add(chunk["id"])
        flags[first:stop] = [True] * (stop - first)
        stored += stop - first
    covered = sum(flags)
    return {
        "total_words": len(index),
        "covered_words": covered,
        "coverage": covered / len(index),
        "word_occurrences": stored,
        "duplication_factor": stored / covered if covered else None,
        "missing_word_indices": [i for i, flag in enumerate(flags) if not flag],
    }
