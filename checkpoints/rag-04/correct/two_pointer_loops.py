"""Een correcte oplossing met gewone lussen en vlaggen per positie, zonder dicts als hulpstructuur
voor de volgorde: alles wordt op positie bijgehouden, zoals je het op papier zou doen."""

import re


def _check_number(value, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("geen geheel getal")
    if value < low or value > high:
        raise ValueError("buiten het bereik")


def _check_place(item, wanted_keys):
    if not isinstance(item, dict):
        raise ValueError("geen dict")
    if len(item) != len(wanted_keys):
        raise ValueError("verkeerd aantal sleutels")
    for key in wanted_keys:
        if key not in item:
            raise ValueError("sleutel ontbreekt")
    document_id = item["document_id"]
    if not isinstance(document_id, str) or not re.fullmatch(r"[A-Za-z0-9_-]+", document_id) or len(document_id) > 40:
        raise ValueError("ongeldig document-id")
    _check_number(item["chunk_number"], 0, 100000)
    if item["id"] != document_id + ":" + str(item["chunk_number"]):
        raise ValueError("id past niet")


def _check_unique(items):
    seen = []
    for item in items:
        if item["id"] in seen:
            raise ValueError("dubbel id")
        seen.append(item["id"])


def _check_route_list(hits):
    if not isinstance(hits, list) or len(hits) > 200:
        raise ValueError("geen geldige zoekweg")
    for hit in hits:
        _check_place(hit, ("id", "document_id", "chunk_number"))
    _check_unique(hits)


def merge_routes(keyword_hits, semantic_hits):
    _check_route_list(keyword_hits)
    _check_route_list(semantic_hits)
    result = []
    for hit in keyword_hits:
        result.append({"id": hit["id"], "document_id": hit["document_id"], "chunk_number": hit["chunk_number"], "routes": ["keyword"]})
    for hit in semantic_hits:
        found = False
        for candidate in result:
            if candidate["id"] == hit["id"]:
                candidate["routes"].append("semantic")
                found = True
                break
        if not found:
            result.append({"id": hit["id"], "document_id": hit["document_id"], "chunk_number": hit["chunk_number"], "routes": ["semantic"]})
    return result


def cap_per_document(candidates, slots=6):
    if not isinstance(candidates, list) or len(candidates) > 400:
        raise ValueError("geen geldige kandidatenlijst")
    for candidate in candidates:
        _check_place(candidate, ("id", "document_id", "chunk_number", "routes"))
        if candidate["routes"] != ["keyword"] and candidate["routes"] != ["semantic"] and candidate["routes"] != ["keyword", "semantic"]:
            raise ValueError("ongeldige routes")
    _check_unique(candidates)
    _check_number(slots, 1, 50)
    cap = slots // 2
    if cap < 1:
        cap = 1
    keep = [False] * len(candidates)
    kept = 0
    for i in range(len(candidates)):
        if kept == slots:
            break
        same_document = 0
        for j in range(i):
            if keep[j] and candidates[j]["document_id"] == candidates[i]["document_id"]:
                same_document += 1
        if same_document < cap:
            keep[i] = True
            kept += 1
    i = 0
    while kept < slots and i < len(candidates):
        if not keep[i]:
            keep[i] = True
            kept += 1
        i += 1
    result = []
    for i in range(len(candidates)):
        if keep[i]:
            copy = dict(candidates[i])
            copy["routes"] = list(candidates[i]["routes"])
            result.append(copy)
    return result


def hybrid_context(keyword_hits, semantic_hits, chunk_counts, slots=6, budget=10):
    if keyword_hits is None and semantic_hits is None:
        raise ValueError("beide zoekwegen vielen uit")
    route = "hybrid"
    if keyword_hits is None:
        route = "semantic_only"
        keyword_hits = []
    if semantic_hits is None:
        route = "keyword_only"
        semantic_hits = []
    candidates = merge_routes(keyword_hits, semantic_hits)
    if not isinstance(chunk_counts, dict):
        raise ValueError("chunk_counts is geen dict")
    for document_id in chunk_counts:
        if not isinstance(document_id, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", document_id):
            raise ValueError("ongeldig document-id")
        _check_number(chunk_counts[document_id], 1, 100001)
    _check_number(budget, 1, 50)
    _check_number(slots, 1, 50)
    if slots > budget:
        raise ValueError("slots is hoogstens budget")
    for candidate in candidates:
        if candidate["document_id"] not in chunk_counts:
            raise ValueError("onbekend document")
        if candidate["chunk_number"] >= chunk_counts[candidate["document_id"]]:
            raise ValueError("treffer buiten zijn document")
    kept = cap_per_document(candidates, slots)
    places = []
    for candidate in kept:
        places.append([candidate["document_id"], candidate["chunk_number"]])
    for candidate in kept:
        for number in [candidate["chunk_number"] - 1, candidate["chunk_number"] + 1]:
            if len(places) < budget and 0 <= number < chunk_counts[candidate["document_id"]]:
                if [candidate["document_id"], number] not in places:
                    places.append([candidate["document_id"], number])
    documents = []
    for candidate in kept:
        if candidate["document_id"] not in documents:
            documents.append(candidate["document_id"])
    context = []
    for document_id in documents:
        numbers = sorted(number for doc, number in places if doc == document_id)
        for number in numbers:
            context.append(document_id + ":" + str(number))
    return {"route": route, "results": [candidate["id"] for candidate in kept], "context": context}
