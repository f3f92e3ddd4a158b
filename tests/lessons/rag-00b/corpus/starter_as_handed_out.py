# Les rag-00b: een teken, een byte en een token zijn verschillende dingen.
# Vul de drie functies één voor één in en klik op Uitvoeren (of Ctrl+Enter).
# Alles draait in je eigen browser; je kunt niets kapotmaken.


def utf8_offsets(text):
    """Geef per codepunt van text een lijst [index, byte_start, byte_end] terug.

    byte_start en byte_end zijn posities in text.encode("utf-8"); het einde telt niet mee.
    """
    raise NotImplementedError("checkpoint 1: schrijf utf8_offsets")


def char_to_utf16(text, index):
    """Geef het aantal UTF-16-eenheden vóór codepunt index terug (de JavaScript-positie)."""
    raise NotImplementedError("checkpoint 2: schrijf char_to_utf16")


def byte_span_to_chars(text, byte_start, byte_end):
    """Zet het bytebereik [byte_start, byte_end) om in codepuntindices [start, end].

    Gebruik hiervoor je eigen utf8_offsets.
    """
    raise NotImplementedError("checkpoint 3: schrijf byte_span_to_chars")


if __name__ == "__main__":
    # Een kleine proef. Zolang een functie nog niet af is, meldt hij dat netjes.
    text = "café \U0001F642"
    print(len(text), len(text.encode("utf-8")), "codepunten en bytes")
    for name, call in [
        ("utf8_offsets", lambda: utf8_offsets(text)),
        ("char_to_utf16", lambda: [char_to_utf16(text, i) for i in range(len(text) + 1)]),
        ("byte_span_to_chars", lambda: byte_span_to_chars(text, 6, 10)),
    ]:
        try:
            print(name, call())
        except NotImplementedError as reason:
            print(name, "nog niet af:", reason)
