"""Offline-only: inputs at the size limit (never shipped to the site).

A 20000-character manual with thousands of headings, fences, \r\n line ends, emoji and Unicode
whitespace: offsets past many astral characters expose UTF-16 or byte counting, and a quadratic
rescan of the text per heading shows up as a time-out. `reference` and `shared` are injected.
"""

from runner.core.testkit import expect_equal, test

BLOCKS = [
    "# Handleiding 😀\r\n", "## Installatie ##\r\n", "Sluit\u3000de lamp aan.\r\n", "```\r\n# code 👩‍💻\r\n```\r\n",
    "### Ophangen\r\n", "\r\n", "Twee\xa0schroeven\x1cen 𝔘𝔫𝔦.\r\n", "## Storingen\r\n", "~~~~ info`\r\n# x\r\n~~~~~\r\n",
    "#### Reset\tklaar #\r\n", "Houd de knop vast.\u2028# geen kopje\r\n", "####### zeven\r\n",
]


def longest_text():
    parts, length, index = [], 0, 0
    while True:
        block = BLOCKS[index % len(BLOCKS)]
        if length + len(block) > 20000:
            break
        parts.append(block)
        length += len(block)
        index += 1
    return ("".join(parts) + "x" * 20000)[:20000]


def _cases():
    text = longest_text()
    document = shared.snapshot("lang", "Lang", text)
    return [(text, document, reference.markdown_headings(text), reference.section_chunks(document),
             reference.sized_chunks(document, 256, 255), reference.sized_chunks(document, 1, 0))]


@test("markdown_headings", "de langste tekst (offline)")
def longest_headings(learner):
    [(text, _, expected, _, _, _)] = shared.generated_cases("offline/longest", _cases)
    expect_equal(learner.markdown_headings(text), expected,
                 "Voor een tekst van 20000 tekens met veel kopjes, fences en emoji kloppen je kopjes niet.", show=False)


@test("section_chunks", "de langste tekst (offline)")
def longest_sections(learner):
    [(_, document, _, expected, _, _)] = shared.generated_cases("offline/longest", _cases)
    expect_equal(learner.section_chunks(document), expected,
                 "Voor een document van 20000 tekens met veel kopjes kloppen je secties niet.", show=False)


@test("sized_chunks", "de langste tekst, grootste en kleinste venster (offline)")
def longest_windows(learner):
    [(_, document, _, _, widest, narrowest)] = shared.generated_cases("offline/longest", _cases)
    expect_equal(learner.sized_chunks(document, 256, 255), widest,
                 "max_words 256 met overlap 255 over een document van 20000 tekens klopt niet.", show=False)
    expect_equal(learner.sized_chunks(document, 1, 0), narrowest,
                 "max_words 1 over een document van 20000 tekens klopt niet.", show=False)
