"""Voorbeeldoplossing van les rag-04: trefwoord- en semantische treffers samenvoegen, een plafond
per document, een vast contextbudget en een antwoord als één zoekweg uitvalt."""

import re

DOCUMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
HIT_KEYS = {"id", "document_id", "chunk_number"}
CANDIDATE_KEYS = {"id", "document_id", "chunk_number", "routes"}
ROUTE_LISTS = (["keyword"], ["semantic"], ["keyword", "semantic"])
MAX_HITS = 200
MAX_CANDIDATES = 400
MAX_CHUNK_NUMBER = 100000
MAX_CHUNK_COUNT = 100001
MAX_SLOTS = 50


def check_whole_number(value, low, high, name):
    # bool is een subklasse van int, maar True telt hier niet als getal.
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{name} is een geheel getal van {low} tot en met {high}")


def check_document_id(document_id):
    if not isinstance(document_id, str) or not DOCUMENT_ID.fullmatch(document_id):
        raise ValueError("een document-id bestaat uit 1 tot 40 tekens uit A-Z, a-z, 0-9, _ en -")


def check_place(item):
    """De velden die een treffer en een kandidaat delen: document, fragmentnummer en id."""
    check_document_id(item["document_id"])
    check_whole_number(item["chunk_number"], 0, MAX_CHUNK_NUMBER, "chunk_number")
    if item["id"] != f"{item['document_id']}:{item['chunk_number']}":
        raise ValueError("id is document_id, een dubbele punt en chunk_number")


def check_hits(hits):
    if not isinstance(hits, list) or len(hits) > MAX_HITS:
        raise ValueError("een zoekweg geeft een list van hoogstens 200 treffers")
    seen = set()
    for hit in hits:
        if not isinstance(hit, dict) or set(hit) != HIT_KEYS:
            raise ValueError("een treffer heeft precies de sleutels id, document_id en chunk_number")
        check_place(hit)
        if hit["id"] in seen:
            raise ValueError("een zoekweg noemt hetzelfde fragment twee keer")
        seen.add(hit["id"])


def merge_routes(keyword_hits, semantic_hits):
    check_hits(keyword_hits)
    check_hits(semantic_hits)
    merged = {}
    for route, hits in (("keyword", keyword_hits), ("semantic", semantic_hits)):
        for hit in hits:
            if hit["id"] in merged:
                merged[hit["id"]]["routes"].append(route)
            else:
                merged[hit["id"]] = {
                    "id": hit["id"],
                    "document_id": hit["document_id"],
                    "chunk_number": hit["chunk_number"],
                    "routes": [route],
                }
    return list(merged.values())


def check_candidates(candidates):
    if not isinstance(candidates, list) or len(candidates) > MAX_CANDIDATES:
        raise ValueError("candidates is een list van hoogstens 400 kandidaten")
    seen = set()
    for candidate in candidates:
        if not isinstance(candidate, dict) or set(candidate) != CANDIDATE_KEYS:
            raise ValueError("een kandidaat heeft precies de sleutels id, document_id, chunk_number en routes")
        check_place(candidate)
        if candidate["routes"] not in ROUTE_LISTS:
            raise ValueError('routes is ["keyword"], ["semantic"] of ["keyword", "semantic"]')
        if candidate["id"] in seen:
            raise ValueError("elke kandidaat komt één keer voor")
        seen.add(candidate["id"])


def take_slots(candidates, slots):
    """De indices van de gekozen kandidaten: eerst met het plafond, dan aanvullen."""
    cap = max(1, slots // 2)
    taken = set()
    per_document = {}
    for index, candidate in enumerate(candidates):
        if len(taken) == slots:
            break
        document_id = candidate["document_id"]
        if per_document.get(document_id, 0) < cap:
            taken.add(index)
            per_document[document_id] = per_document.get(document_id, 0) + 1
    for index in range(len(candidates)):
        if len(taken) == slots:
            break
        taken.add(index)
    return sorted(taken)


def cap_per_document(candidates, slots=6):
    check_candidates(candidates)
    check_whole_number(slots, 1, MAX_SLOTS, "slots")
    # Het plafond laat kandidaten vallen, maar verandert hun volgorde nooit.
    return [dict(candidates[index], routes=list(candidates[index]["routes"])) for index in take_slots(candidates, slots)]


def check_chunk_counts(chunk_counts):
    if not isinstance(chunk_counts, dict):
        raise ValueError("chunk_counts is een dict van document-id naar aantal fragmenten")
    for document_id, count in chunk_counts.items():
        check_document_id(document_id)
        check_whole_number(count, 1, MAX_CHUNK_COUNT, "het aantal fragmenten")


def hybrid_context(keyword_hits, semantic_hits, chunk_counts, slots=6, budget=10):
    if keyword_hits is None and semantic_hits is None:
        raise ValueError("beide zoekwegen zijn uitgevallen: er is niets om te antwoorden")
    if keyword_hits is None:
        route = "semantic_only"
    elif semantic_hits is None:
        route = "keyword_only"
    else:
        route = "hybrid"
    merged = merge_routes([] if keyword_hits is None else keyword_hits, [] if semantic_hits is None else semantic_hits)
    check_chunk_counts(chunk_counts)
    check_whole_number(budget, 1, MAX_SLOTS, "budget")
    check_whole_number(slots, 1, budget, "slots")
    for candidate in merged:
        count = chunk_counts.get(candidate["document_id"])
        if count is None or candidate["chunk_number"] >= count:
            raise ValueError("elke treffer ligt binnen zijn document")
    chosen = [merged[index] for index in take_slots(merged, slots)]
    in_context = {candidate["id"]: candidate for candidate in chosen}
    for candidate in chosen:
        for number in (candidate["chunk_number"] - 1, candidate["chunk_number"] + 1):
            neighbour_id = f"{candidate['document_id']}:{number}"
            exists = 0 <= number < chunk_counts[candidate["document_id"]]
            if len(in_context) < budget and exists and neighbour_id not in in_context:
                in_context[neighbour_id] = {"document_id": candidate["document_id"], "chunk_number": number}
    # Per document bij elkaar, in bronvolgorde: zo leest het taalmodel doorlopende passages.
    document_order = list(dict.fromkeys(candidate["document_id"] for candidate in chosen))
    context = sorted(in_context.items(), key=lambda item: (document_order.index(item[1]["document_id"]), item[1]["chunk_number"]))
    return {"route": route, "results": [candidate["id"] for candidate in chosen], "context": [item_id for item_id, _ in context]}
