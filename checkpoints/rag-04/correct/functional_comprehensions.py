"""Een correcte oplossing in functionele stijl: comprehensions, itertools en weinig toestand."""

import itertools
import re

VALID_ROUTES = (("keyword",), ("semantic",), ("keyword", "semantic"))


def valid_id(text):
    return isinstance(text, str) and re.fullmatch(r"[A-Za-z0-9_-]{1,40}", text) is not None


def valid_number(value, low, high):
    return type(value) is int and low <= value <= high


def valid_place(item, keys):
    return (
        type(item) is dict
        and set(item) == keys
        and valid_id(item["document_id"])
        and valid_number(item["chunk_number"], 0, 100000)
        and item["id"] == "%s:%d" % (item["document_id"], item["chunk_number"])
    )


def require(condition, message):
    if not condition:
        raise ValueError(message)


def valid_list(items, limit, keys):
    return (
        type(items) is list
        and len(items) <= limit
        and all(valid_place(item, keys) for item in items)
        and len({item["id"] for item in items}) == len(items)
    )


def merge_routes(keyword_hits, semantic_hits):
    keys = {"id", "document_id", "chunk_number"}
    require(valid_list(keyword_hits, 200, keys) and valid_list(semantic_hits, 200, keys), "ongeldige treffers")
    semantic_ids = {hit["id"] for hit in semantic_hits}
    keyword_ids = {hit["id"] for hit in keyword_hits}
    tagged = itertools.chain(
        ((hit, ["keyword", "semantic"] if hit["id"] in semantic_ids else ["keyword"]) for hit in keyword_hits),
        ((hit, ["semantic"]) for hit in semantic_hits if hit["id"] not in keyword_ids),
    )
    return [{"id": hit["id"], "document_id": hit["document_id"], "chunk_number": hit["chunk_number"], "routes": routes} for hit, routes in tagged]


def chosen_positions(documents, slots):
    cap = max(1, slots // 2)
    first_pass = []
    for position, document_id in enumerate(documents):
        if len(first_pass) < slots and sum(documents[p] == document_id for p in first_pass) < cap:
            first_pass.append(position)
    refill = [p for p in range(len(documents)) if p not in first_pass][: slots - len(first_pass)]
    return sorted(first_pass + refill)


def cap_per_document(candidates, slots=6):
    keys = {"id", "document_id", "chunk_number", "routes"}
    require(valid_list(candidates, 400, keys), "ongeldige kandidaten")
    require(all(type(c["routes"]) is list and tuple(c["routes"]) in VALID_ROUTES for c in candidates), "ongeldige routes")
    require(valid_number(slots, 1, 50), "slots is 1 tot en met 50")
    return [{**candidates[p], "routes": candidates[p]["routes"][:]} for p in chosen_positions([c["document_id"] for c in candidates], slots)]


def hybrid_context(keyword_hits, semantic_hits, chunk_counts, slots=6, budget=10):
    require(keyword_hits is not None or semantic_hits is not None, "beide zoekwegen vielen uit")
    route = {(True, True): "hybrid", (True, False): "keyword_only", (False, True): "semantic_only"}[
        (keyword_hits is not None, semantic_hits is not None)]
    candidates = merge_routes(keyword_hits if keyword_hits is not None else [], semantic_hits if semantic_hits is not None else [])
    require(type(chunk_counts) is dict and all(valid_id(k) and valid_number(v, 1, 100001) for k, v in chunk_counts.items()), "ongeldige chunk_counts")
    require(valid_number(budget, 1, 50) and valid_number(slots, 1, budget), "ongeldige slots of budget")
    require(all(c["chunk_number"] < chunk_counts.get(c["document_id"], 0) for c in candidates), "treffer buiten zijn document")
    kept = cap_per_document(candidates, slots)
    context = {(c["document_id"], c["chunk_number"]) for c in kept}
    for c, step in itertools.product(kept, (-1, 1)):
        place = (c["document_id"], c["chunk_number"] + step)
        if len(context) < budget and 0 <= place[1] < chunk_counts[place[0]]:
            context.add(place)
    documents = list(dict.fromkeys(c["document_id"] for c in kept))
    ordered = sorted(context, key=lambda place: (documents.index(place[0]), place[1]))
    return {"route": route, "results": [c["id"] for c in kept], "context": ["%s:%d" % place for place in ordered]}
