"""The merge viewer on the rag-04 page (widgets/hybrid-merge/), driven like a learner drives it:
every drawn list is compared with the reference solution and the widget's own Python."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
COLD_START_MS = 120_000
WRONG_FALLBACK = ROOT / "checkpoints" / "rag-04" / "wrong" / "hybrid_context__silent_fallback.py"


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def widget_python() -> dict:
    """routes.py as the page runs it, and the data of corpus.json widget.js hands to it."""
    namespace: dict = {}
    exec(compile((ROOT / "widgets/hybrid-merge/routes.py").read_text(encoding="utf-8"), "routes.py", "exec"), namespace)
    namespace["CORPUS"] = json.loads((ROOT / "widgets/hybrid-merge/corpus.json").read_text(encoding="utf-8"))
    return namespace


def expected_view(key: str, slots: int, budget: int, semantic_down: bool) -> dict:
    reference = load(ROOT / "checkpoints/rag-04/solution.py", "rag04_solution_for_merge_viewer")
    routes = widget_python()
    found = routes["search"](routes["CORPUS"], key, 6)
    strip = lambda hits: [{k: hit[k] for k in ("id", "document_id", "chunk_number")} for hit in hits]  # noqa: E731
    keyword = strip(found["keyword"])
    semantic = None if semantic_down else strip(found["semantic"])
    merged = reference.merge_routes(keyword, semantic or [])
    passes = routes["cap_passes"](merged, slots)
    context = reference.hybrid_context(keyword, semantic, found["chunk_counts"], slots, budget)
    states = {c["id"]: "taken" if c["id"] in passes["first"] else "refilled" if c["id"] in passes["refilled"] else "skipped" for c in merged}
    return {
        "keyword": [hit["id"] for hit in keyword],
        "semantic": [] if semantic is None else [hit["id"] for hit in semantic],
        "candidates": [(c["id"], " ".join(c["routes"]), states[c["id"]]) for c in merged],
        "context": [(i, "result" if i in context["results"] else "neighbour") for i in context["context"]],
        "route": context["route"],
    }


def drawn_view(page) -> dict:
    ids = lambda testid: [item.get_attribute("data-id") for item in page.get_by_test_id(testid).all()]  # noqa: E731
    return {
        "keyword": ids("hm-keyword-hit"),
        "semantic": ids("hm-semantic-hit"),
        "candidates": [(item.get_attribute("data-id"), item.get_attribute("data-routes"), item.get_attribute("data-state"))
                       for item in page.get_by_test_id("hm-candidate").all()],
        "context": [(item.get_attribute("data-id"), item.get_attribute("data-kind")) for item in page.get_by_test_id("hm-context-item").all()],
        "route": page.get_by_test_id("hm-route").inner_text(),
    }


def wait_ready(page):
    page.locator("[data-merge-viewer][data-state=ready]").wait_for(timeout=COLD_START_MS)


def open_lesson(page, site_server):
    page.goto(site_server.url + "rag-04/")
    wait_ready(page)


def test_every_question_and_setting_draws_what_the_reference_computes(page, site_server):
    open_lesson(page, site_server)
    assert drawn_view(page) == expected_view("ecli", 4, 7, False)
    for key, slots, budget, down in (("huur", 4, 7, False), ("werkgever", 2, 9, False), ("avg", 6, 6, True), ("bw", 1, 3, False)):
        page.get_by_test_id("hm-question").select_option(key)
        page.get_by_test_id("hm-slots").fill(str(slots))
        page.get_by_test_id("hm-budget").fill(str(budget))
        page.get_by_test_id("hm-semantic-down").set_checked(down)
        wait_ready(page)
        expect(page.get_by_test_id("hm-status")).to_contain_text("fragmenten in de context")
        page.wait_for_timeout(200)
        wait_ready(page)
        assert drawn_view(page) == expected_view(key, slots, budget, down), (key, slots, budget, down)


def test_the_switch_shows_the_fallback_and_says_so(page, site_server):
    open_lesson(page, site_server)
    expect(page.get_by_test_id("hm-route")).to_have_text("hybrid")
    page.get_by_test_id("hm-semantic-down").check()
    expect(page.get_by_test_id("hm-route")).to_have_text("keyword_only")
    expect(page.get_by_test_id("hm-semantic-hit")).to_have_count(0)
    expect(page.get_by_test_id("hm-status")).to_contain_text("viel uit")


def test_slots_above_the_budget_explain_themselves(page, site_server):
    open_lesson(page, site_server)
    page.get_by_test_id("hm-slots").fill("9")
    expect(page.locator("[data-merge-viewer]")).to_have_attribute("data-state", "invalid")
    expect(page.get_by_test_id("hm-status")).to_have_text("Het budget is een geheel getal van het aantal plaatsen tot en met 50.")


def test_my_merge_with_the_reference_and_with_a_silent_fallback(page, site_server):
    open_lesson(page, site_server)
    solution = (ROOT / "checkpoints/rag-04/solution.py").read_text(encoding="utf-8")
    page.evaluate("code => window.werkplaats.editor.setCode(code)", solution)
    page.get_by_test_id("hm-learner-run").click()
    expect(page.get_by_test_id("hm-learner-item")).to_have_count(3, timeout=COLD_START_MS)
    assert [item.get_attribute("data-verdict") for item in page.get_by_test_id("hm-learner-item").all()] == ["same"] * 3
    wrong = solution + "\n" + WRONG_FALLBACK.read_text(encoding="utf-8")
    page.evaluate("code => window.werkplaats.editor.setCode(code)", wrong)
    page.get_by_test_id("hm-semantic-down").check()
    wait_ready(page)
    expect(page.get_by_test_id("hm-route")).to_have_text("keyword_only")
    page.get_by_test_id("hm-learner-run").click()
    expect(page.locator("[data-merge-viewer]")).to_have_attribute("data-learner-state", "different", timeout=COLD_START_MS)
    verdicts = {item.get_attribute("data-function"): item.get_attribute("data-verdict") for item in page.get_by_test_id("hm-learner-item").all()}
    assert verdicts == {"merge_routes": "same", "cap_per_document": "same", "hybrid_context": "different"}
    expect(page.get_by_test_id("hm-learner-item").nth(2)).to_contain_text("route hybrid")


# hybrid_context right in route and context, wrong only in `results` (issue 25): the red line
# must show the field that differs, not two identical short descriptions.
RESULTS_REVERSED = """

_reference_hybrid_context = hybrid_context


def hybrid_context(*args):
    result = dict(_reference_hybrid_context(*args))
    result["results"] = result["results"][::-1] + ["extra:0"]
    return result
"""


def test_a_difference_hidden_by_the_short_description_shows_its_field(page, site_server):
    open_lesson(page, site_server)
    solution = (ROOT / "checkpoints/rag-04/solution.py").read_text(encoding="utf-8")
    page.evaluate("code => window.werkplaats.editor.setCode(code)", solution + RESULTS_REVERSED)
    page.get_by_test_id("hm-learner-run").click()
    expect(page.locator("[data-merge-viewer]")).to_have_attribute("data-learner-state", "different", timeout=COLD_START_MS)
    line = page.locator("[data-testid=hm-learner-item][data-function=hybrid_context]")
    expect(line).to_have_attribute("data-verdict", "different")
    expect(line).to_contain_text("verschilt in 'results': jij [")
    assert "'extra:0'" in line.inner_text() and "'route'" not in line.inner_text()
    expect(page.get_by_test_id("hm-learner-status")).to_have_text("2 van de 3 functies geven hier hetzelfde als de referentie.")
    # "Bekijk in de visualisatie" from the top of the page: the comparison ends up in view.
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("document.dispatchEvent(new CustomEvent('werkplaats:show-in-widget', {detail: {checkpoint: 'hybrid_context'}}))")
    expect(page.get_by_test_id("hm-learner-status")).to_be_in_viewport(timeout=COLD_START_MS)
    expect(line).to_be_in_viewport()
