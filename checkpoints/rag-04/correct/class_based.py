"""Een correcte oplossing met kleine klassen: een Hit die zichzelf controleert en een Selector."""

import re
from dataclasses import dataclass

_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
_ROUTE_LISTS = [["keyword"], ["semantic"], ["keyword", "semantic"]]


def _whole(value, low, high):
    if type(value) is not int or value < low or value > high:
        raise ValueError(f"verwacht een geheel getal van {low} tot en met {high}")
    return value


def _doc_id(value):
    if type(value) is not str or _ID.fullmatch(value) is None:
        raise ValueError("ongeldig document-id")
    return value


@dataclass(frozen=True)
class Hit:
    id: str
    document_id: str
    chunk_number: int

    @classmethod
    def parse(cls, item, extra=()):
        if type(item) is not dict or sorted(item) != sorted(["id", "document_id", "chunk_number", *extra]):
            raise ValueError("onverwachte sleutels")
        document_id = _doc_id(item["document_id"])
        number = _whole(item["chunk_number"], 0, 100000)
        if item["id"] != f"{document_id}:{number}":
            raise ValueError("id past niet")
        return cls(item["id"], document_id, number)

    def as_candidate(self, routes):
        return {"id": self.id, "document_id": self.document_id, "chunk_number": self.chunk_number, "routes": list(routes)}


def _route(hits):
    if type(hits) is not list or len(hits) > 200:
        raise ValueError("een zoekweg is een list van hoogstens 200 treffers")
    parsed = [Hit.parse(item) for item in hits]
    if len({hit.id for hit in parsed}) != len(parsed):
        raise ValueError("dubbel id")
    return parsed


def merge_routes(keyword_hits, semantic_hits):
    keyword, semantic = _route(keyword_hits), _route(semantic_hits)
    semantic_ids = {hit.id for hit in semantic}
    keyword_ids = {hit.id for hit in keyword}
    result = [hit.as_candidate(["keyword", "semantic"] if hit.id in semantic_ids else ["keyword"]) for hit in keyword]
    result += [hit.as_candidate(["semantic"]) for hit in semantic if hit.id not in keyword_ids]
    return result


class Selector:
    def __init__(self, slots):
        self.slots = slots
        self.cap = max(1, slots // 2)

    def pick(self, documents):
        """documents: the document id of each candidate, in rank order -> chosen positions."""
        chosen, counts = [], {}
        for position, document_id in enumerate(documents):
            if len(chosen) < self.slots and counts.get(document_id, 0) < self.cap:
                chosen.append(position)
                counts[document_id] = counts.get(document_id, 0) + 1
        skipped = [position for position in range(len(documents)) if position not in chosen]
        chosen += skipped[: self.slots - len(chosen)]
        return sorted(chosen)


def cap_per_document(candidates, slots=6):
    if type(candidates) is not list or len(candidates) > 400:
        raise ValueError("candidates is een list van hoogstens 400")
    parsed = []
    for item in candidates:
        hit = Hit.parse(item, extra=["routes"])
        if item["routes"] not in _ROUTE_LISTS:
            raise ValueError("ongeldige routes")
        parsed.append(hit)
    if len({hit.id for hit in parsed}) != len(parsed):
        raise ValueError("dubbel id")
    _whole(slots, 1, 50)
    return [parsed[i].as_candidate(candidates[i]["routes"]) for i in Selector(slots).pick([hit.document_id for hit in parsed])]


def hybrid_context(keyword_hits, semantic_hits, chunk_counts, slots=6, budget=10):
    routes = {"keyword": keyword_hits is not None, "semantic": semantic_hits is not None}
    if not any(routes.values()):
        raise ValueError("beide zoekwegen vielen uit")
    route = "hybrid" if all(routes.values()) else "keyword_only" if routes["keyword"] else "semantic_only"
    candidates = merge_routes(keyword_hits if routes["keyword"] else [], semantic_hits if routes["semantic"] else [])
    if type(chunk_counts) is not dict:
        raise ValueError("chunk_counts is een dict")
    for document_id, count in chunk_counts.items():
        _doc_id(document_id)
        _whole(count, 1, 100001)
    _whole(budget, 1, 50)
    _whole(slots, 1, budget)
    for candidate in candidates:
        if candidate["document_id"] not in chunk_counts or candidate["chunk_number"] >= chunk_counts[candidate["document_id"]]:
            raise ValueError("treffer buiten zijn document")
    kept = cap_per_document(candidates, slots)
    context = [(c["document_id"], c["chunk_number"]) for c in kept]
    for c in kept:
        for number in (c["chunk_number"] - 1, c["chunk_number"] + 1):
            if len(context) >= budget:
                break
            if 0 <= number < chunk_counts[c["document_id"]] and (c["document_id"], number) not in context:
                context.append((c["document_id"], number))
    order = []
    for c in kept:
        if c["document_id"] not in order:
            order.append(c["document_id"])
    context.sort(key=lambda place: (order.index(place[0]), place[1]))
    return {"route": route, "results": [c["id"] for c in kept], "context": [f"{d}:{n}" for d, n in context]}
