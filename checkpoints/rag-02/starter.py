# Les rag-02: knip een document langs zijn kopjes.
# Vul de drie functies één voor één in en klik op Uitvoeren (of Ctrl+Enter).
# Alles draait in je eigen browser; je kunt niets kapotmaken.

import hashlib
import re


def markdown_headings(text):
    """Geef per Markdown-kopje (# tot en met ######) een dict met level, title, line, start, end.

    Regels zijn de stukken van text.split("\\n"). Een regel in een codeblok (fence) is nooit een kopje.
    """
    raise NotImplementedError("checkpoint 1: schrijf markdown_headings")


def section_chunks(document):
    """Knip het document langs zijn kopjes; elke chunk krijgt zijn kopjespad mee."""
    raise NotImplementedError("checkpoint 2: schrijf section_chunks")


def sized_chunks(document, max_words=40, overlap=8):
    """Knip elke sectie in vensters van hoogstens max_words woorden, met embed_text erbij."""
    raise NotImplementedError("checkpoint 3: schrijf sized_chunks")


if __name__ == "__main__":
    # Een kleine proef. Zolang een functie nog niet af is, meldt hij dat netjes.
    text = "# Handleiding lamp\n## Storingen\n```\n# geen kopje\n```\nHoud de knop vast.\n"
    doc = {"id": "lamp", "title": "Lamp", "text": text,
           "revision": hashlib.sha256(text.encode("utf-8")).hexdigest()}
    try:
        for heading in markdown_headings(text):
            print(heading)
        for chunk in section_chunks(doc):
            print(chunk["id"], chunk["headings"], repr(chunk["text"]))
        for chunk in sized_chunks(doc, 3, 1):
            print(chunk["id"], repr(chunk["embed_text"]))
    except NotImplementedError as not_done:
        print("Nog te doen:", not_done)
