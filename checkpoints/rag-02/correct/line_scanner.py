"""Correct in another style: a character scanner without regular expressions for the headings."""

import hashlib
import re


def _valid_document(document):
    if type(document) is not dict or sorted(document) != ["id", "revision", "text", "title"]:
        raise ValueError("geen snapshot")
    doc_id, title, text = document["id"], document["title"], document["text"]
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
    if type(doc_id) is not str or not 1 <= len(doc_id) <= 40 or not set(doc_id) <= allowed:
        raise ValueError("id")
    if type(title) is not str or title.strip() == "" or len(title) > 100:
        raise ValueError("title")
    if type(text) is not str or text.strip() == "" or len(text) > 20000:
        raise ValueError("text")
    if document["revision"] != hashlib.sha256(text.encode("utf-8")).hexdigest():
        raise ValueError("revision")


def _indent(line):
    count = 0
    while count < len(line) and line[count] == " ":
        count += 1
    return count


def _run(line, position, char):
    end = position
    while end < len(line) and line[end] == char:
        end += 1
    return end - position


def _title(rest):
    title = rest.strip(" \t")
    if all(char == "#" for char in title):
        return ""
    end = len(title)
    while end > 0 and title[end - 1] == "#":
        end -= 1
    if end < len(title) and end > 0 and title[end - 1] in " \t":
        return title[:end].rstrip(" \t")
    return title


def markdown_headings(text):
    if type(text) is not str or len(text) > 20000:
        raise ValueError("text")
    result = []
    open_char, open_count = None, 0
    position = 0
    for number, raw in enumerate(text.split("\n")):
        line = raw[:-1] if raw[-1:] == "\r" else raw
        start = position
        position += len(raw) + 1
        indent = _indent(line)
        if open_char is not None:
            count = _run(line, indent, open_char) if indent <= 3 else 0
            if count >= open_count and line[indent + count:].strip(" \t") == "":
                open_char = None
            continue
        if indent <= 3 and line[indent:indent + 1] in ("`", "~"):
            char = line[indent]
            count = _run(line, indent, char)
            if count >= 3 and not (char == "`" and "`" in line[indent + count:]):
                open_char, open_count = char, count
                continue
        if indent <= 3:
            hashes = _run(line, indent, "#")
            after = indent + hashes
            if 1 <= hashes <= 6 and (after == len(line) or line[after] in " \t"):
                result.append({"level": hashes, "title": _title(line[after:]), "line": number,
                               "start": start, "end": start + len(line)})
    return result


def section_chunks(document):
    _valid_document(document)
    text = document["text"]
    found = markdown_headings(text)
    bounds = [(0, [], 0, found[0]["start"] if found else len(text))]
    stack = []
    for index, heading in enumerate(found):
        while stack and stack[-1][0] >= heading["level"]:
            stack.pop()
        stack.append((heading["level"], heading["title"]))
        newline = text.find("\n", heading["end"])
        begin = len(text) if newline < 0 else newline + 1
        finish = found[index + 1]["start"] if index + 1 < len(found) else len(text)
        bounds.append((heading["level"], [title for _, title in stack], begin, finish))
    chunks = []
    for level, path, begin, finish in bounds:
        piece = text[begin:finish]
        stripped = piece.strip()
        if not stripped:
            continue
        start = begin + (len(piece) - len(piece.lstrip()))
        number = len(chunks)
        chunks.append({"id": f"{document['id']}:s{number}", "document_id": document["id"],
                       "revision": document["revision"], "chunk_number": number, "level": level,
                       "headings": path, "start": start, "end": start + len(stripped), "text": stripped})
    return chunks


def sized_chunks(document, max_words=40, overlap=8):
    _valid_document(document)
    if type(max_words) is not int or max_words < 1 or max_words > 256:
        raise ValueError("max_words")
    if type(overlap) is not int or overlap < 0 or overlap >= max_words:
        raise ValueError("overlap")
    result = []
    for section in section_chunks(document):
        spans = [m.span() for m in re.finditer(r"\S+", section["text"])]
        first = 0
        while True:
            last = min(first + max_words, len(spans))
            start = section["start"] + spans[first][0]
            end = section["start"] + spans[last - 1][1]
            piece = document["text"][start:end]
            path = list(section["headings"])
            number = len(result)
            result.append({"id": f"{document['id']}:c{number}", "document_id": document["id"],
                           "revision": document["revision"], "chunk_number": number,
                           "section": section["chunk_number"], "headings": path, "start": start, "end": end,
                           "text": piece, "embed_text": " > ".join(path) + "\n\n" + piece if path else piece})
            if last == len(spans):
                break
            first += max_words - overlap
    return result
