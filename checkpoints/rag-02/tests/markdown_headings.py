"""Tests for checkpoint 1, markdown_headings(text). `reference` and `shared` are injected."""

import random

from runner.core.testkit import CallShape, expect_equal, expect_list_of_dicts, expect_value_error, fail, returns, signature, test

SIGNATURE = signature("markdown_headings(text)", CallShape(1))
CHECKPOINT = "markdown_headings"
HEADING_KEYS = {"level", "title", "line", "start", "end"}


def headings_of(learner, text, message):
    return expect_list_of_dicts(returns(lambda: learner.markdown_headings(text), message), CHECKPOINT)


def expect_headings(learner, text, expected, message):
    """Fixed expected values, worked out by hand: (level, title, line, start, end) per heading."""
    got = headings_of(learner, text, message)
    expect_equal(got, [dict(zip(("level", "title", "line", "start", "end"), row)) for row in expected], message, show=False)


def titles(learner, text, message):
    return [(h.get("level"), h.get("title")) for h in headings_of(learner, text, message)]


def expect_same(learner, text, message):
    expect_equal(headings_of(learner, text, message), reference.markdown_headings(text), message, show=False)


@test(CHECKPOINT, "voorbeeld: de handleiding van de lamp", visible=True)
def example_lamp(learner):
    got = expect_list_of_dicts(learner.markdown_headings(shared.LAMP_TEXT), CHECKPOINT)
    expect_equal(got[:1], [{"level": 1, "title": "Handleiding lamp", "line": 0, "start": 0, "end": 18}],
                 "Het eerste kopje van de handleiding klopt niet.")
    expect_equal([(h.get("level"), h.get("line")) for h in got], [(1, 0), (2, 1), (3, 2), (3, 4), (2, 6), (3, 10)],
                 "De handleiding heeft zes kopjes; de regel in het codeblok is er geen.")
    expect_equal(got, reference.markdown_headings(shared.LAMP_TEXT), "De kopjes van de handleiding kloppen niet.")


@test(CHECKPOINT, "elk kopje heeft precies vijf velden met de juiste types")
def fields_and_types(learner):
    for heading in headings_of(learner, "# a\n## b", "Voor twee kopjes geef je twee dicts terug."):
        if set(heading) != HEADING_KEYS:
            fail("Een kopje heeft precies de sleutels level, title, line, start en end.")
        if any(type(heading[key]) is not int for key in ("level", "line", "start", "end")) or type(heading["title"]) is not str:
            fail("level, line, start en end zijn ints; title is een str.")


@test(CHECKPOINT, "elke aanroep begint opnieuw")
def calls_are_independent(learner):
    headings_of(learner, "# a\n```\n# code", "Een tekst met een fence zonder sluiter mag.")
    expect_headings(learner, "## b", [(2, "b", 0, 0, 4)],
                    "Elke aanroep begint opnieuw: markdown_headings('## b') na een andere tekst geeft alleen kopje b, buiten een fence. Bewaar geen lijst of fence-toestand buiten de functie (ook niet in een standaardwaarde als gevonden=[]).")


@test(CHECKPOINT, "een lege of witte tekst heeft geen kopjes")
def empty_text(learner):
    expect_headings(learner, "", [], "Een lege tekst mag: hij heeft geen kopjes.")
    expect_headings(learner, " \n\t\n", [], "Een tekst van alleen witruimte mag: hij heeft geen kopjes.")
    expect_headings(learner, "gewone tekst\nzonder kopjes", [], "Tekst zonder hekjes heeft geen kopjes.")


@test(CHECKPOINT, "text is een str van hoogstens 20000 tekens")
def text_limits(learner):
    expect_headings(learner, "# k\n" + "x" * 19996, [(1, "k", 0, 0, 3)], "Een tekst van precies 20000 tekens mag.")
    with expect_value_error("Een tekst van 20001 tekens moet een ValueError geven."):
        learner.markdown_headings("# k\n" + "x" * 19997)
    for bad in (None, 7, ["# k"], {"text": "# k"}):
        with expect_value_error("Een text die geen str is moet een ValueError geven."):
            learner.markdown_headings(bad)


@test(CHECKPOINT, "1 tot 6 hekjes, dan een spatie, een tab of het einde van de regel")
def atx_markers(learner):
    text = "#5 geen kopje\n####### zeven\n######\n#\tmet tab\n#geen\n###### zes"
    expect_headings(learner, text, [(6, "", 2, 28, 34), (1, "met tab", 3, 35, 44), (6, "zes", 5, 51, 61)],
                    "Een kopje heeft 1 tot 6 hekjes gevolgd door een spatie, een tab of het einde van de regel; #5 en zeven hekjes zijn geen kopje.")


@test(CHECKPOINT, "hoogstens drie spaties ervoor")
def indentation(learner):
    text = "   ### drie spaties\n    # vier spaties\n\t# tab ervoor\n # een"
    expect_headings(learner, text, [(3, "drie spaties", 0, 0, 19), (1, "een", 3, 53, 59)],
                    "Een kopje mag 0 tot 3 spaties ervoor hebben; vier spaties of een tab maken het geen kopje. start is het begin van de regel.")


@test(CHECKPOINT, "de titel: spaties, tabs en het afsluitende rijtje hekjes")
def closing_sequences(learner):
    cases = [
        ("## Storingen ##", "Storingen"), ("# foo#", "foo#"), ("# foo \t##  ", "foo"),
        ("### ### ###", "###"), ("# #", ""), ("#  ##  ", ""), ("# a # b", "a # b"),
        ("#   twee  spaties   ", "twee  spaties"), ("# x\t#\t", "x"), ("# C#", "C#"), ("# kop ###x", "kop ###x"),
    ]
    for line, title in cases:
        got = titles(learner, line, "Een regel met een kopje moet één kopje geven.")
        if got != [(len(line) - len(line.lstrip("#")), title)]:
            fail("De titel is de rest van de regel zonder spaties en tabs aan de randen; een afsluitend rijtje # gaat alleen weg als er een spatie of tab voor staat, en alleen # betekent een lege titel.")


@test(CHECKPOINT, "alleen spaties en tabs gaan van de titel af")
def title_keeps_unicode_spaces(learner):
    expect_headings(learner, "# kop\xa0\n#\u3000kop", [(1, "kop\xa0", 0, 0, 6)],
                    "Van een titel gaan alleen spaties en tabs af; een harde spatie hoort bij de titel, en na # moet een spatie of tab staan.")


@test(CHECKPOINT, "geen kopjes in een fence met backticks")
def backtick_fence(learner):
    text = "# a\n```python\n# geen kopje\n```\n# b"
    expect_headings(learner, text, [(1, "a", 0, 0, 3), (1, "b", 4, 31, 34)],
                    "Een regel met # binnen een codeblok (```) is geen kopje.")


@test(CHECKPOINT, "geen kopjes in een fence met tildes")
def tilde_fence(learner):
    text = "~~~\n# geen\n~~~\n# wel"
    expect_headings(learner, text, [(1, "wel", 3, 15, 20)], "Een codeblok kan ook met ~~~ openen en sluiten.")


@test(CHECKPOINT, "een fence sluit alleen met minstens zoveel van hetzelfde teken")
def fence_closers(learner):
    expect_equal(titles(learner, "````\n```\n# nog code\n````\n# wel", "Een fence moet sluiten."), [(1, "wel")],
                 "Een fence van vier backticks sluit niet op een regel met drie.", show=False)
    expect_equal(titles(learner, "```\n~~~\n# nog code\n`````\n# wel", "Een fence moet sluiten."), [(1, "wel")],
                 "Een fence met backticks sluit niet met tildes, wel met meer backticks.", show=False)
    expect_equal(titles(learner, "~~~~\n~~~\n# nog code\n~~~~~\n# wel", "Een fence moet sluiten."), [(1, "wel")],
                 "Een fence met vier tildes sluit niet op drie tildes, wel op vijf.", show=False)


@test(CHECKPOINT, "na de sluiter alleen spaties of tabs")
def closer_trailing(learner):
    expect_equal(titles(learner, "```\n``` x\n# nog code\n```\n# wel", "Een fence moet sluiten."), [(1, "wel")],
                 "Een regel met tekst achter de backticks sluit een fence niet.", show=False)
    expect_equal(titles(learner, "```\n``` \t\n# wel", "Een fence moet sluiten."), [(1, "wel")],
                 "Een sluiter mag door spaties en tabs gevolgd worden.", show=False)
    expect_equal(titles(learner, "```\n```\xa0\n# code\n```\f\n# code\n```\n# wel", "Een fence moet sluiten."), [(1, "wel")],
                 "Na een sluiter mogen alleen spaties en tabs staan: een harde spatie (U+00A0) of \\f erachter maakt er geen sluiter van, dus strip() is hier te ruim.", show=False)


@test(CHECKPOINT, "opener en sluiter met 0-3 spaties ervoor")
def fence_indentation(learner):
    expect_equal(titles(learner, "   ```\n# code\n   ```\n# wel", "Een fence moet sluiten."), [(1, "wel")],
                 "Een fence mag met drie spaties ervoor openen en sluiten.", show=False)
    expect_equal(titles(learner, "    ```\n# wel\n", "Vier spaties maken geen fence."), [(1, "wel")],
                 "Met vier spaties ervoor opent een regel met backticks geen fence.", show=False)
    expect_equal(titles(learner, "```\n    ```\n# code\n```\n# wel", "Een fence moet sluiten."), [(1, "wel")],
                 "Met vier spaties ervoor sluit een regel een fence niet.", show=False)
    expect_equal(titles(learner, "\t```\n# wel\n\xa0~~~\n# ook", "Een tab of harde spatie ervoor maakt geen fence."), [(1, "wel"), (1, "ook")],
                 "Voor een fence tellen alleen spaties: met een tab of harde spatie (U+00A0) ervoor opent een regel met backticks of tildes geen fence.", show=False)
    expect_equal(titles(learner, "```\n\t```\n# code\n\xa0```\n# code\n```\n# wel", "Een fence moet sluiten."), [(1, "wel")],
                 "Voor een sluiter tellen alleen spaties: een tab of harde spatie ervoor maakt er geen sluiter van, dus lstrip() zonder argument is hier te ruim.", show=False)


@test(CHECKPOINT, "een fence zonder sluiter loopt door tot het eind")
def unclosed_fence(learner):
    expect_headings(learner, "# a\n~~~\n# b\n## c", [(1, "a", 0, 0, 3)], "Een fence zonder sluitregel loopt door tot het eind van de tekst.")


@test(CHECKPOINT, "backticks met een backtick in de info-string openen geen fence")
def info_string(learner):
    expect_equal(titles(learner, "``` a`b\n# wel", "Dit is geen fence."), [(1, "wel")],
                 "Na backticks mag de info-string geen backtick bevatten; anders is het geen fence.", show=False)
    expect_equal(titles(learner, "~~~ a`b\n# code\n~~~\n# wel", "Dit is een fence."), [(1, "wel")],
                 "Na tildes mag de info-string wel een backtick bevatten.", show=False)
    expect_equal(titles(learner, "``\n# wel", "Dit is geen fence."), [(1, "wel")],
                 "Twee backticks zijn geen fence: er zijn er minstens drie nodig.", show=False)


@test(CHECKPOINT, "alleen \\n beëindigt een regel")
def only_newline_ends_a_line(learner):
    for separator in ("\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r"):
        expect_headings(learner, "tekst" + separator + "# geen kopje\n# kop", [(1, "kop", 1, 19, 24)],
                        "Alleen \\n beëindigt een regel: splitlines() knipt ook op \\v, \\x1c, U+2028 en andere tekens.")


@test(CHECKPOINT, "Windows-regeleinden")
def windows_line_endings(learner):
    expect_headings(learner, "# a\r\n```\r\n# code\r\n```\r\n## b ##\r\n", [(1, "a", 0, 0, 3), (2, "b", 4, 23, 30)],
                    "Een \\r aan het eind van een regel hoort niet bij de regel: niet bij de titel, niet bij end, en een fence sluit er gewoon mee.")
    expect_headings(learner, "# a\r\r\nb", [(1, "a\r", 0, 0, 4)], "Alleen één \\r aan het eind van een regel valt weg.")


@test(CHECKPOINT, "posities in codepunten, ook na emoji")
def astral_offsets(learner):
    expect_headings(learner, "😀👩‍💻 tekst\n## 𝔘𝔫𝔦 kop\n", [(2, "𝔘𝔫𝔦 kop", 1, 11, 21)],
                    "start en end tellen Python-codepunten: een emoji is één teken, geen twee of vier.")


@test(CHECKPOINT, "meer randgevallen van fences")
def fence_edges(learner):
    expect_equal(titles(learner, "```\n```x\n# nog code\n```\n# wel", "Een fence moet sluiten."), [(1, "wel")],
                 "Een regel met tekst direct achter de backticks sluit een fence niet.", show=False)
    expect_equal(titles(learner, "```\n```     \n# wel", "Een fence moet sluiten."), [(1, "wel")],
                 "Een sluiter mag door veel spaties gevolgd worden.", show=False)
    expect_equal(titles(learner, "~~\n# wel", "Dit is geen fence."), [(1, "wel")],
                 "Twee tildes zijn geen fence: er zijn er minstens drie nodig.", show=False)
    expect_equal(titles(learner, "  ``` a`b\n# wel", "Dit is geen fence."), [(1, "wel")],
                 "Ook met spaties ervoor opent backticks met een backtick in de info-string geen fence.", show=False)


def _random_cases():
    rng = random.Random(2024)
    return [(text, reference.markdown_headings(text)) for text in (shared.random_markdown(rng, rng.randint(1, 30)) for _ in range(20))]


@test(CHECKPOINT, "willekeurige Markdown, vergeleken met de voorbeeldoplossing")
def property_random_markdown(learner):
    message = "Voor gegenereerde Markdown (kopjes, fences, Unicode-witruimte, \\r\\n) kloppen je kopjes niet."
    for text, expected in shared.generated_cases("markdown_headings/2024", _random_cases):
        expect_equal(headings_of(learner, text, message), expected, message, show=False)
