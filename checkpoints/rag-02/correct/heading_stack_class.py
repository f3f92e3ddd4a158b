"""Correct in another style: dataclasses for lines and headings, and a HeadingStack class."""

import hashlib
import re
from dataclasses import dataclass, field

WORD = re.compile(r"\S+")


@dataclass
class Line:
    number: int
    start: int
    text: str


@dataclass
class Fence:
    char: str
    length: int

    def closed_by(self, line):
        body = line[len(line) - len(line.lstrip(" ")):]
        if len(line) - len(body) > 3:
            return False
        run = len(body) - len(body.lstrip(self.char))
        return run >= self.length and not body[run:].strip(" \t")


@dataclass
class HeadingStack:
    open: list = field(default_factory=list)

    def push(self, level, title):
        self.open = [(lvl, ttl) for lvl, ttl in self.open if lvl < level]
        self.open.append((level, title))

    def path(self):
        return [title for _, title in self.open]


def lines_of(text):
    start = 0
    for number, raw in enumerate(text.split("\n")):
        yield Line(number, start, raw.removesuffix("\r"))
        start += len(raw) + 1


def opens_fence(line):
    match = re.fullmatch(r" {0,3}(`{3,}|~{3,})(.*)", line)
    if match is None or (match[1][0] == "`" and "`" in match[2]):
        return None
    return Fence(match[1][0], len(match[1]))


def parse_title(rest):
    title = rest.strip(" \t")
    if not title.replace("#", ""):
        return ""
    bare = title.rstrip("#")
    if bare != title and bare[-1:] in (" ", "\t"):
        return bare.rstrip(" \t")
    return title


def markdown_headings(text):
    if not isinstance(text, str) or len(text) > 20000:
        raise ValueError("text is een str van hoogstens 20000 tekens")
    found = []
    fence = None
    for line in lines_of(text):
        if fence:
            fence = None if fence.closed_by(line.text) else fence
            continue
        fence = opens_fence(line.text)
        if fence:
            continue
        match = re.fullmatch(r" {0,3}(#{1,6})(?:[ \t](.*))?", line.text)
        if match:
            found.append(dict(level=len(match[1]), title=parse_title(match[2] or ""), line=line.number,
                              start=line.start, end=line.start + len(line.text)))
    return found


def validate(document):
    if not isinstance(document, dict) or document.keys() != {"id", "title", "text", "revision"}:
        raise ValueError("geen snapshot")
    if not isinstance(document["id"], str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", document["id"]):
        raise ValueError("id")
    if not isinstance(document["title"], str) or not document["title"].strip() or len(document["title"]) > 100:
        raise ValueError("title")
    if not isinstance(document["text"], str) or not document["text"].strip() or len(document["text"]) > 20000:
        raise ValueError("text")
    if hashlib.sha256(document["text"].encode()).hexdigest() != document["revision"]:
        raise ValueError("revision")


def section_chunks(document):
    validate(document)
    text = document["text"]
    headings = markdown_headings(text)
    stack = HeadingStack()
    raw_sections = [(0, [], 0, headings[0]["start"] if headings else len(text))]
    for heading, following in zip(headings, headings[1:] + [None]):
        stack.push(heading["level"], heading["title"])
        newline = text.find("\n", heading["end"])
        raw_sections.append((heading["level"], stack.path(), len(text) if newline == -1 else newline + 1,
                             following["start"] if following else len(text)))
    chunks = []
    for level, path, start, end in raw_sections:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            chunks.append(dict(id=f"{document['id']}:s{len(chunks)}", document_id=document["id"],
                               revision=document["revision"], chunk_number=len(chunks), level=level,
                               headings=path, start=start, end=end, text=text[start:end]))
    return chunks


def sized_chunks(document, max_words=40, overlap=8):
    validate(document)
    if type(max_words) is not int or not 1 <= max_words <= 256:
        raise ValueError("max_words")
    if type(overlap) is not int or not 0 <= overlap < max_words:
        raise ValueError("overlap")
    chunks = []
    for section in section_chunks(document):
        words = [(section["start"] + m.start(), section["start"] + m.end()) for m in WORD.finditer(section["text"])]
        first = 0
        while True:
            last = min(first + max_words, len(words))
            start, end = words[first][0], words[last - 1][1]
            body = document["text"][start:end]
            prefix = " > ".join(section["headings"]) + "\n\n" if section["headings"] else ""
            chunks.append(dict(id=f"{document['id']}:c{len(chunks)}", document_id=document["id"],
                               revision=document["revision"], chunk_number=len(chunks),
                               section=section["chunk_number"], headings=list(section["headings"]),
                               start=start, end=end, text=body, embed_text=prefix + body))
            if last == len(words):
                break
            first += max_words - overlap
    return chunks
