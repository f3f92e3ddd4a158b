# after: solution.py
# caught by: voorbeeld: 4 plaatsen en budget 7
# Telt één buur te veel: de context wordt budget + 1 lang.
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
            if len(in_context) <= budget and exists and neighbour_id not in in_context:
                in_context[neighbour_id] = {"document_id": candidate["document_id"], "chunk_number": number}
    # Per document bij elkaar, in bronvolgorde: zo leest het taalmodel doorlopende passages.
    document_order = list(dict.fromkeys(candidate["document_id"] for candidate in chosen))
    context = sorted(in_context.items(), key=lambda item: (document_order.index(item[1]["document_id"]), item[1]["chunk_number"]))
    return {"route": route, "results": [candidate["id"] for candidate in chosen], "context": [item_id for item_id, _ in context]}
