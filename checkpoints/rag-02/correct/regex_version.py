"""Correct in another style: one regular expression per kind of line, matched with re.fullmatch."""

import hashlib
import re

FENCE = r" {0,3}(?P<marker>`{3,}(?=[^`]*$)|~{3,}).*"
HEADING = r" {0,3}(?P<hashes>#{1,6})(?:[ \t]+(?P<rest>.*?))??(?:[ \t]+#+)?[ \t]*"


def check(document):
    if not isinstance(document, dict) or set(document) != {"id", "title", "text", "revision"}:
        raise ValueError("document")
    if not isinstance(document["id"], str) or re.fullmatch(r"[A-Za-z0-9_-]{1,40}", document["id"]) is None:
        raise ValueError("id")
    for key, limit in (("title", 100), ("text", 20000)):
        value = document[key]
        if not isinstance(value, str) or not value.strip() or len(value) > limit:
            raise ValueError(key)
    if document["revision"] != hashlib.sha256(document["text"].encode("utf-8")).hexdigest():
        raise ValueError("revision")


def markdown_headings(text):
    if not isinstance(text, str) or len(text) > 20000:
        raise ValueError("text")
    headings, closer, offset = [], None, 0
    for number, raw in enumerate(text.split("\n")):
        line = re.sub(r"\r$", "", raw)
        here, offset = offset, offset + len(raw) + 1
        if closer:
            if re.fullmatch(closer, line):
                closer = None
            continue
        fence = re.fullmatch(FENCE, line)
        if fence:
            marker = fence.group("marker")
            closer = rf" {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*"
            continue
        heading = re.fullmatch(r" {0,3}(#{1,6})([ \t].*)?", line)
        if heading:
            title = (heading.group(2) or "").strip(" \t")
            title = "" if re.fullmatch(r"#*", title) else re.sub(r"[ \t]+#+$", "", title)
            headings.append({"level": len(heading.group(1)), "title": title, "line": number,
                             "start": here, "end": here + len(line)})
    return headings


def section_chunks(document):
    check(document)
    text = document["text"]
    headings = markdown_headings(text)
    starts = [h["start"] for h in headings] + [len(text)]
    sections = [(0, (), 0, starts[0])]
    path = ()
    levels = ()
    for index, heading in enumerate(headings):
        keep = sum(1 for level in levels if level < heading["level"])
        levels = levels[:keep] + (heading["level"],)
        path = path[:keep] + (heading["title"],)
        after = re.compile(r"[^\n]*\n?").match(text, heading["start"]).end()
        sections.append((heading["level"], path, after, starts[index + 1]))
    chunks = []
    for level, titles, begin, end in sections:
        found = re.search(r"\S(?:.*\S)?", text[begin:end], re.DOTALL)
        if found is None:
            continue
        start, stop = begin + found.start(), begin + found.end()
        chunks.append({"id": "%s:s%d" % (document["id"], len(chunks)), "document_id": document["id"],
                       "revision": document["revision"], "chunk_number": len(chunks), "level": level,
                       "headings": list(titles), "start": start, "end": stop, "text": text[start:stop]})
    return chunks


def sized_chunks(document, max_words=40, overlap=8):
    check(document)
    if type(max_words) is not int or not 0 < max_words < 257:
        raise ValueError("max_words")
    if type(overlap) is not int or not -1 < overlap < max_words:
        raise ValueError("overlap")
    text = document["text"]
    out = []
    step = max_words - overlap
    for section in section_chunks(document):
        words = list(re.compile(r"\S+").finditer(text, section["start"], section["end"]))
        for first in range(0, len(words), step):
            last = min(first + max_words, len(words))
            start, end = words[first].start(), words[last - 1].end()
            headings = section["headings"][:]
            out.append({"id": "%s:c%d" % (document["id"], len(out)), "document_id": document["id"],
                        "revision": document["revision"], "chunk_number": len(out),
                        "section": section["chunk_number"], "headings": headings, "start": start, "end": end,
                        "text": text[start:end],
                        "embed_text": text[start:end] if not headings else " > ".join(headings) + "\n\n" + text[start:end]})
            if last == len(words):
                break
    return out
