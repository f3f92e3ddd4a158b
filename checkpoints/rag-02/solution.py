"""Voorbeeldoplossing van les rag-02: een document langs zijn kopjes knippen.

Lees de functies in de volgorde van de les. Regels zijn de stukken van text.split("\n"); een "\r"
aan het eind van een regel (Windows) hoort er niet bij. Alle posities zijn Python-tekenindices
(codepunten). Elke functie weigert ongeldige invoer met een ValueError.
"""

import hashlib
import re

MAX_TITLE_LENGTH = 100
MAX_TEXT_LENGTH = 20000
MAX_WORDS_LIMIT = 256

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,40}")
WORD_PATTERN = re.compile(r"\S+")
DOCUMENT_KEYS = {"id", "title", "text", "revision"}

# 0-3 spaties, dan minstens drie backticks of drie tildes; daarna mag een info-string volgen.
FENCE_OPENER = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
# 0-3 spaties, 1 tot 6 hekjes, dan het einde van de regel of een spatie of tab.
ATX_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t](.*))?")
CLOSING_SEQUENCE = re.compile(r"[ \t]+#+$")


def sha256_of(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def is_exact_int(value):
    # bool is een subklasse van int, maar True is geen geldig aantal woorden.
    return type(value) is int


def check_document(document):
    """Een snapshot zoals rag-01 het maakt, met een revisie die nog bij de tekst past."""
    if not isinstance(document, dict) or set(document) != DOCUMENT_KEYS:
        raise ValueError("document heeft precies de sleutels id, title, text en revision")
    doc_id, title, text = document["id"], document["title"], document["text"]
    if not isinstance(doc_id, str) or not ID_PATTERN.fullmatch(doc_id):
        raise ValueError(f"ongeldig id: {doc_id!r}")
    if not isinstance(title, str) or not title.strip() or len(title) > MAX_TITLE_LENGTH:
        raise ValueError("titel moet tekst zijn, niet leeg en hoogstens 100 tekens")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT_LENGTH:
        raise ValueError("tekst moet tekst zijn, niet leeg en hoogstens 20000 tekens")
    if document["revision"] != sha256_of(text):
        raise ValueError("revision hoort niet bij deze tekst")


def split_lines(text):
    """(offset, line) per stuk van text.split("\n"), zonder een "\r" aan het eind."""
    lines = []
    offset = 0
    for raw in text.split("\n"):
        line = raw[:-1] if raw.endswith("\r") else raw
        lines.append((offset, line))
        offset += len(raw) + 1
    return lines


def closes_fence(line, marker):
    """Sluit deze regel een fence die met marker (bijvoorbeeld '````') opende?"""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return False
    run = len(stripped) - len(stripped.lstrip(marker[0]))
    return run >= len(marker) and stripped[run:].strip(" \t") == ""


def heading_title(rest):
    title = rest.strip(" \t")
    if title.strip("#") == "":
        return ""
    # Een afsluitend rijtje hekjes telt alleen mee als er een spatie of tab voor staat.
    return CLOSING_SEQUENCE.sub("", title)


def find_headings(text):
    """De kopjes van text, zonder de invoer te controleren (section_chunks deed dat al)."""
    headings = []
    fence = None
    for number, (offset, line) in enumerate(split_lines(text)):
        if fence is not None:
            if closes_fence(line, fence):
                fence = None
            continue
        opener = FENCE_OPENER.fullmatch(line)
        if opener and not (opener.group(1)[0] == "`" and "`" in opener.group(2)):
            fence = opener.group(1)
            continue
        match = ATX_HEADING.fullmatch(line)
        if match:
            headings.append({
                "level": len(match.group(1)),
                "title": heading_title(match.group(2) or ""),
                "line": number,
                "start": offset,
                "end": offset + len(line),
            })
    return headings


def markdown_headings(text):
    if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH:
        raise ValueError("text is een str van hoogstens 20000 tekens")
    return find_headings(text)


def trimmed_span(text, start, end):
    """Het bereik [start, end) zonder witruimte (str.isspace) aan beide kanten."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def sections_of(text):
    """(level, pad, start, end) per sectie met tekst, met het bereik al zonder witruimte."""
    headings = find_headings(text)
    # De tekst voor het eerste kopje is een sectie met niveau 0 en een leeg pad.
    first_start = headings[0]["start"] if headings else len(text)
    raw_sections = [(0, [], 0, first_start)]
    open_headings = []
    for index, heading in enumerate(headings):
        level = heading["level"]
        open_headings = [pair for pair in open_headings if pair[0] < level]
        open_headings.append((level, heading["title"]))
        # De sectie begint na het regeleinde; vanaf heading["end"] is hetzelfde, want wat daar nog
        # staat ("\r" en "\n") is witruimte en valt bij het bijknippen weg.
        end = headings[index + 1]["start"] if index + 1 < len(headings) else len(text)
        raw_sections.append((level, [title for _, title in open_headings], heading["end"], end))
    sections = []
    for level, path, begin, end in raw_sections:
        start, end = trimmed_span(text, begin, end)
        if start < end:
            sections.append((level, path, start, end))
    return sections


def section_chunks(document):
    check_document(document)
    text = document["text"]
    chunks = []
    for number, (level, path, start, end) in enumerate(sections_of(text)):
        chunks.append({
            "id": f"{document['id']}:s{number}",
            "document_id": document["id"],
            "revision": document["revision"],
            "chunk_number": number,
            "level": level,
            "headings": path,
            "start": start,
            "end": end,
            "text": text[start:end],
        })
    return chunks


def embed_text_of(headings, text):
    # Een leeg pad geeft alleen de tekst; een pad met een leeg kopje ("") is niet leeg.
    if not headings:
        return text
    return " > ".join(headings) + "\n\n" + text


def sized_chunks(document, max_words=40, overlap=8):
    check_document(document)
    if not is_exact_int(max_words) or not 1 <= max_words <= MAX_WORDS_LIMIT:
        raise ValueError("max_words is een geheel getal van 1 tot en met 256")
    if not is_exact_int(overlap) or not 0 <= overlap < max_words:
        raise ValueError("overlap is een geheel getal van 0 tot max_words")
    text = document["text"]
    chunks = []
    for section_number, (_, path, section_start, section_end) in enumerate(sections_of(text)):
        spans = [match.span() for match in WORD_PATTERN.finditer(text, section_start, section_end)]
        word_start = 0
        while True:
            word_end = min(word_start + max_words, len(spans))
            start, end = spans[word_start][0], spans[word_end - 1][1]
            headings = list(path)
            chunks.append({
                "id": f"{document['id']}:c{len(chunks)}",
                "document_id": document["id"],
                "revision": document["revision"],
                "chunk_number": len(chunks),
                "section": section_number,
                "headings": headings,
                "start": start,
                "end": end,
                "text": text[start:end],
                "embed_text": embed_text_of(headings, text[start:end]),
            })
            if word_end == len(spans):
                break
            word_start += max_words - overlap
    return chunks
