# Les rag-01: knip bronnen op zonder hun herkomst kwijt te raken.
# Vul de drie functies één voor één in en klik op Uitvoeren (of Ctrl+Enter).
# Alles draait in je eigen browser; je kunt niets kapotmaken.

import hashlib
import re


def document_snapshots(records):
    """Geef nieuwe dictionaries terug met id, title, text en revision (SHA-256 van text)."""
    raise NotImplementedError("checkpoint 1: schrijf document_snapshots")


def word_chunks(document, window=40, overlap=8):
    """Knip de tekst in overlappende passages van `window` woorden.

    Een woord is een reeks tekens zonder witruimte: zoek ze met re.finditer.
    """
    raise NotImplementedError("checkpoint 2: schrijf word_chunks")


def chunk_coverage(document, chunks):
    """Tel hoeveel woorden de passages dekken en hoeveel woorden dubbel zijn opgeslagen."""
    raise NotImplementedError("checkpoint 3: schrijf chunk_coverage")


if __name__ == "__main__":
    # Een kleine proef. Zolang een functie nog niet af is, meldt hij dat netjes.
    source = "  A  B\nC D E F G H  "
    try:
        doc = document_snapshots([{"id": "d", "title": "Demo", "text": source}])[0]
        print("revision:", doc["revision"])
        for chunk in word_chunks(doc, 4, 1):
            print(chunk["id"], chunk["start"], chunk["end"], repr(chunk["text"]))
        print(chunk_coverage(doc, word_chunks(doc, 4, 1)))
    except NotImplementedError as not_done:
        print("Nog te doen:", not_done)
