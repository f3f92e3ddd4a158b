"""Een correcte oplossing die kandidaten kopieert met dict(): het contract vraagt nieuwe dicts, en een
routes-list die de nieuwe dict met de invoer deelt is daarmee niet in strijd. Tekenverzamelingen
in plaats van een reguliere expressie, isinstance voor de lists en dicts."""
import string

ALLOWED = frozenset(string.ascii_letters + string.digits + "_-")
HIT_KEYS = frozenset({"id", "document_id", "chunk_number"})
CAND_KEYS = HIT_KEYS | {"routes"}


def exact_int(x, lo, hi):
    return type(x) is int and lo <= x <= hi


def valid_doc(d):
    return isinstance(d, str) and 1 <= len(d) <= 40 and all(ch in ALLOWED for ch in d)


def valid_hit_fields(h):
    return (valid_doc(h["document_id"]) and exact_int(h["chunk_number"], 0, 100000)
            and isinstance(h["id"], str) and h["id"] == "%s:%d" % (h["document_id"], h["chunk_number"]))


def require(cond):
    if not cond:
        raise ValueError("ongeldige invoer")


def validate_route(hits):
    require(isinstance(hits, list) and len(hits) <= 200)
    require(all(isinstance(h, dict) and set(h.keys()) == HIT_KEYS and valid_hit_fields(h) for h in hits))
    require(len({h["id"] for h in hits}) == len(hits))


def merge_routes(keyword_hits, semantic_hits):
    validate_route(keyword_hits)
    validate_route(semantic_hits)
    semantic_ids = {h["id"] for h in semantic_hits}
    keyword_ids = {h["id"] for h in keyword_hits}
    first = [dict(id=h["id"], document_id=h["document_id"], chunk_number=h["chunk_number"],
                  routes=["keyword", "semantic"] if h["id"] in semantic_ids else ["keyword"])
             for h in keyword_hits]
    rest = [dict(id=h["id"], document_id=h["document_id"], chunk_number=h["chunk_number"],
                 routes=["semantic"])
            for h in semantic_hits if h["id"] not in keyword_ids]
    return first + rest


def valid_candidate(c):
    return (isinstance(c, dict) and set(c) == CAND_KEYS and valid_hit_fields(c)
            and isinstance(c["routes"], list)
            and c["routes"] in (["keyword"], ["semantic"], ["keyword", "semantic"]))


def cap_per_document(candidates, slots=6):
    require(isinstance(candidates, list) and len(candidates) <= 400)
    require(all(valid_candidate(c) for c in candidates))
    require(len({c["id"] for c in candidates}) == len(candidates))
    require(exact_int(slots, 1, 50))
    cap = max(1, slots // 2)
    chosen, skipped, per_doc = set(), [], {}
    for idx, c in enumerate(candidates):
        if len(chosen) >= slots:
            break
        if per_doc.get(c["document_id"], 0) < cap:
            per_doc[c["document_id"]] = per_doc.get(c["document_id"], 0) + 1
            chosen.add(idx)
        else:
            skipped.append(idx)
    chosen.update(skipped[: max(0, slots - len(chosen))])
    # Een nieuwe dict per kandidaat; zijn routes-list mag die van de invoer blijven.
    return [dict(candidates[i]) for i in sorted(chosen)]


def hybrid_context(keyword_hits, semantic_hits, chunk_counts, slots=6, budget=10):
    require(not (keyword_hits is None and semantic_hits is None))
    route = ("semantic_only" if keyword_hits is None
             else "keyword_only" if semantic_hits is None else "hybrid")
    kw = [] if keyword_hits is None else keyword_hits
    sem = [] if semantic_hits is None else semantic_hits
    require(exact_int(slots, 1, 50) and exact_int(budget, 1, 50) and slots <= budget)
    require(isinstance(chunk_counts, dict))
    require(all(valid_doc(d) and exact_int(n, 1, 100001) for d, n in chunk_counts.items()))
    merged = merge_routes(kw, sem)
    require(all(c["document_id"] in chunk_counts and c["chunk_number"] < chunk_counts[c["document_id"]]
                for c in merged))
    kept = cap_per_document(merged, slots)
    results = [c["id"] for c in kept]
    in_context = {(c["document_id"], c["chunk_number"]) for c in kept}
    extra = ((c["document_id"], n) for c in kept
             for n in (c["chunk_number"] - 1, c["chunk_number"] + 1))
    for d, n in extra:
        if len(in_context) >= budget:
            break
        if 0 <= n < chunk_counts[d]:
            in_context.add((d, n))
    docs = list(dict.fromkeys(c["document_id"] for c in kept))
    context = [f"{d}:{n}" for d in docs for n in sorted(n for e, n in in_context if e == d)]
    return {"route": route, "results": results, "context": context}
