# Les rag-04: voeg trefwoord- en semantische treffers samen.
# Vul de drie functies één voor één in en klik op Uitvoeren (of Ctrl+Enter).
# Alles draait in je eigen browser; je kunt niets kapotmaken.

import re


def merge_routes(keyword_hits, semantic_hits):
    """Eerst de trefwoordtreffers, dan de semantische die er nog niet in staan, met hun routes."""
    raise NotImplementedError("checkpoint 1: schrijf merge_routes")


def cap_per_document(candidates, slots=6):
    """Hoogstens max(1, slots // 2) plaatsen per document; vul vrije plaatsen aan, houd de volgorde."""
    raise NotImplementedError("checkpoint 2: schrijf cap_per_document")


def hybrid_context(keyword_hits, semantic_hits, chunk_counts, slots=6, budget=10):
    """De resultaten en hun buren binnen het budget; None is een zoekweg die uitviel."""
    raise NotImplementedError("checkpoint 3: schrijf hybrid_context")


if __name__ == "__main__":
    # Het voorbeeld uit de les. Zolang een functie nog niet af is, meldt hij dat netjes.
    def h(document_id, number):
        return {"id": f"{document_id}:{number}", "document_id": document_id, "chunk_number": number}

    keyword = [h("huur", 3), h("avg", 14), h("huur", 4)]
    semantic = [h("huur", 3), h("huur", 7), h("huur", 8), h("huur", 2), h("bw", 1), h("avg", 15)]
    counts = {"huur": 10, "avg": 20, "bw": 2}
    try:
        merged = merge_routes(keyword, semantic)
        print([(candidate["id"], candidate["routes"]) for candidate in merged])
        print([candidate["id"] for candidate in cap_per_document(merged, 4)])
        print(hybrid_context(keyword, semantic, counts, 4, 7))
        print(hybrid_context(keyword, None, counts, 4, 6))
    except NotImplementedError as not_done:
        print("Nog te doen:", not_done)
