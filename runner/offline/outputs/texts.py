"""Every text of the teacher's report (report.html, one lesson's or a module's) and of the learners'
feedback pages, per language: one table, Dutch first (feedback pages are always Dutch)."""

from __future__ import annotations

from typing import Any

LANGUAGES = ("nl", "en")


def by_language(rows: dict[str, tuple[Any, Any]]) -> dict[str, dict[str, Any]]:
    """The texts of each language of LANGUAGES, from rows that give every text once with its Dutch
    and its English (None: this text is not in that language, and its reader falls back)."""
    return {language: {key: texts[column] for key, texts in rows.items() if texts[column] is not None}
            for column, language in enumerate(LANGUAGES)}


# Every sentence the report says, Dutch then English. Dutch is the default: the teacher's own
# language and the learners' (their messages inside are Dutch either way).
TEXTS = by_language({
    "lang": ("nl", "en"),
    "title": ("Nakijkrapport: {lesson}", "Grading report: {lesson}"),
    "generated": ("Gemaakt {when} door runner {version}; testbundel <code>{bundle}</code>.",
                  "Generated {when} by runner {version}; test bundle <code>{bundle}</code>."),
    "cards": (("leerlingen", "voldoende", "alles gehaald", "niet begonnen", "inzendingen", "ongeldig"),
              ("learners", "passed", "learners passed every checkpoint", "not started", "submissions", "invalid")),
    "status": ({"pass": "gehaald", "fail": "niet gehaald", "error": "fout", "timeout": "te traag",
                "invalid": "ongeldig", "not-started": "niet begonnen"},
               {"pass": "pass", "fail": "fail", "error": "error", "timeout": "timeout", "invalid": "invalid",
                "not-started": "not started"}),
    "pass_rate": ("Gehaald per checkpoint", "Pass rate per checkpoint"),
    "pass_rate_intro": ("Aandeel van de {count} leerlingen van wie de laatste inzending het checkpoint haalt; een "
                        "laatste inzending die niet kon worden nagekeken telt als niet gehaald.",
                        "Share of the {count} learners whose most recent submission passes each checkpoint; a most "
                        "recent submission that could not be graded counts as not passed."),
    "bar_title": ("{checkpoint}: {passed} van {total} leerlingen gehaald",
                  "{checkpoint}: {passed} of {total} learners passed"),
    "chart_label": ("Gehaald per checkpoint", "Pass rate per checkpoint"),
    "grades": ("Cijfers", "Grades"),
    "grades_intro": ("Punten per checkpoint uit de les ({points}); cijfer 1 tot 10 met één decimaal, 5,5 bij "
                     "{pass_percent}% van de punten, half naar boven afgerond, maar onder de cesuur nooit een "
                     "voldoende. Correcties van de docent zijn meegeteld.",
                     "Points per checkpoint from the lesson ({points}); grade 1 to 10 with one decimal, 5.5 at "
                     "{pass_percent}% of the points, rounded half up, but never a pass below the pass mark "
                     "(docs/grading.md, \"Points and grades\"). The teacher's corrections are included."),
    "grade_headers": (("Leerling", "Punten", "Cijfer", "Correcties"),
                      ("Learner", "Points", "Grade", "Corrections")),
    "most_failed": ("Meest gemaakte fouten", "Most-failed tests"),
    "most_failed_intro": ("Over de laatste nagekeken inzending van elke leerling: de test die bepaalde dat een "
                          "checkpoint niet gehaald werd, één rij per test met de leerlingen erbij (code die niet "
                          "laadde telt één keer, voor alle checkpoints). Wie niet begon, staat hier niet.",
                          "Over the learners' most recent graded submissions: the test that decided each "
                          "checkpoint that did not pass, one row per test with its learners (code that did not "
                          "load counts once, for all checkpoints). Learners who did not start are not counted."),
    "most_failed_headers": (("Checkpoint", "Test", "Leerlingen", "Meldingen"),
                            ("Checkpoint", "Test", "Learners", "Messages")),
    "no_failures": ("Geen enkele test faalde.", "No test failed."),
    "and_more": ("en nog {count}", "and {count} more"),
    "not_started": ("Niet begonnen", "Not started"),
    "not_started_intro": ("De inzending is (bijna) de startcode: niets gehaald en hoogstens een tiende eigen code.",
                          "The submission is (nearly) the starter: nothing passed, at most a tenth own code."),
    "none_not_started": ("Iedereen is begonnen.", "Everyone started."),
    "similar": ("Inzendingen die sterk op elkaar lijken", "Near-identical submissions"),
    "similar_intro": ("Paren waarvan de eigen code (zonder de startcode en wat meer dan tien leerlingen of de "
                      "helft van de klas delen) na het gelijk maken van namen en opmaak bijna hetzelfde is. Dit is "
                      "een reden om te kijken, geen beschuldiging: korte opdrachten kun je maar op weinig manieren "
                      "schrijven.",
                      "Pairs whose own code (without the starter and what more than ten learners or half the class "
                      "share) is nearly the same once names and layout are made equal. A prompt to look, never an "
                      "accusation: short tasks can be written in few ways."),
    "similar_headers": (("Leerling", "Leerling", "Gedeeld", "Gedeelde regels"),
                        ("Learner", "Learner", "Shared", "Shared lines")),
    "no_similar": ("Geen paren gevonden.", "No pairs found."),
    "lines_pair": ("regels {a1}-{a2} van {first} ≈ regels {b1}-{b2} van {second}",
                   "lines {a1}-{a2} of {first} ≈ lines {b1}-{b2} of {second}"),
    "shared_code": ("gedeelde code van {learner}", "shared code of {learner}"),
    "corrections": ("Correcties van de docent", "The teacher's corrections"),
    "corrections_intro": ("Uit <code>corrections.csv</code> naast de uitvoer; elke nieuwe nakijkronde houdt ze.",
                          "From <code>corrections.csv</code> beside the outputs; every regrade keeps them."),
    "corrections_headers": (("Leerling", "Checkpoint", "Punten", "Toelichting", "Regel"),
                            ("Learner", "Checkpoint", "Points", "Comment", "Line")),
    "no_corrections": ("Geen correcties.", "No corrections."),
    "learners": ("Leerlingen", "Learners"),
    "learners_intro": ("De laatste inzending van elke leerling. Een cel toont de status van het checkpoint en, als "
                       "het niet gehaald is, de eerste test die faalde.",
                       "The most recent submission of each learner. A cell shows the checkpoint's status and, when "
                       "it did not pass, the first test that did not."),
    "learner_headers": (("Leerling", "Inzending", "Score", "Cijfer"), ("Learner", "Submission", "Score", "Grade")),
    "submissions_count": ("{count} inzendingen", "{count} submissions"),
    "browser_said": ("browser zei {verdict}", "browser said {verdict}"),
    "repeated": ("Leerlingen met meer dan één inzending", "Learners with more than one submission"),
    "repeated_intro": ("Naam en <code>created_at</code> van een export zijn wat de leerling zelf opgaf: kijk of "
                       "deze bestanden echt van één leerling zijn. De nieuwste telt.",
                       "The learner name and <code>created_at</code> of an export are the learner's own claims: "
                       "check that these files really are one learner's. The newest counts."),
    "repeated_headers": (("Leerling", "Inzending", "Gemaakt", "Score", "Telt"),
                         ("Learner", "Submission", "Created", "Score", "Counts")),
    "repeated_none": ("Geen: één inzending per leerling.", "None: one submission per learner."),
    "yes": ("ja", "yes"),
    "disagree": ("Browser en nakijker verschillen", "Browser and grader disagree"),
    "disagree_intro": ("Elke inzending (ook eerdere) waarvan de export zegt dat de browser van de leerling een "
                       "ander oordeel gaf dan deze nakijker. Het oordeel van de nakijker telt; de browser draait "
                       "minder tests (geen offline-tests) en zijn oordeel is te vervalsen.",
                       "Every submission (earlier ones included) whose export says the learner's browser showed "
                       "another verdict than this grader reached. The grader's verdict counts; the browser runs "
                       "fewer tests (no offline-only ones) and its verdict can be faked."),
    "disagree_headers": (("Leerling", "Inzending", "Checkpoint", "Browser", "Nakijker"),
                         ("Learner", "Submission", "Checkpoint", "Browser", "Grader")),
    "disagree_none": ("Geen: waar een export de oordelen van de browser meegaf, kloppen ze.",
                      "None: wherever an export carried the browser's verdicts, they match."),
    "invalid": ("Ongeldige inzendingen", "Invalid submissions"),
    "invalid_headers": (("Inzending", "Leerling", "Reden"), ("Submission", "Learner", "Reason")),
    "invalid_none": ("Geen: elke inzending kon worden nagekeken.", "None: every submission could be graded."),
    "feedback": ("Per leerling", "Feedback per learner"),
    "feedback_intro": ("Elke test van de laatste nagekeken inzending die niet slaagde, met de melding die de "
                       "leerling zag; verwacht en gekregen alleen bij de uitgewerkte voorbeelden van de les. "
                       "Daaronder de code (alleen getoond, nooit uitgevoerd).",
                       "Every test of the most recent graded submission that did not pass, with its message (the "
                       "learner saw the same Dutch text); expected and got only for the lesson's own worked "
                       "examples. Below it the code (shown, never run)."),
    "all_passed": ("Alle tests geslaagd.", "Every test passed."),
    "expected": ("verwacht", "expected"),
    "got": ("gekregen", "got"),
    "code": ("Code", "Code"),
    "no_code": ("De code is niet bewaard in deze resultaten (nagekeken met een oudere runner; --regrade bewaart "
                "hem).",
                "The code is not kept in these results (graded by an older runner; --regrade keeps it)."),
    "warning": ("De code van leerlingen draaide bij sommige inzendingen zonder {missing} (zie het "
                "<code>sandbox</code>-record van elk resultaat). Zonder het eigen bestandssysteem kon ze de "
                "verborgen tests en voorbeeldoplossingen lezen; zonder netwerkisolatie het netwerk gebruiken; "
                "zonder cgroup-limieten samen meer geheugen dan --memory-mb. Meer hierover in docs/grading.md "
                "(over de sandbox).",
                "Learner code ran without {missing} for some submissions (see the <code>sandbox</code> record of "
                "each result). Without the private filesystem it could read the hidden tests and reference "
                "solutions; without network isolation, use the network; without cgroup limits, use more memory "
                "together than --memory-mb. See docs/grading.md, \"The sandbox\"."),
    "protections": ({"sandbox_user": "eigen sandbox-gebruiker", "private_filesystem": "eigen bestandssysteem",
                     "network_isolation": "netwerkisolatie", "cgroup_limits": "cgroup-limieten"},
                    None),  # in English the field names themselves
    "all_checkpoints": ("(alle)", "(all)"),
    "decimal_comma": (True, False),
})


# What a module's report adds.
MODULE_TEXTS = by_language({
    "title": ("Nakijkrapport: {lessons}", "Grading report: {lessons}"),
    "overview": ("Cijfers per les", "Grades per lesson"),
    "overview_intro": ("Het cijfer van de laatste inzending per les en leerling; per module het cijfer over alle "
                       "punten van de lessen die meetellen samen. Leeg: niets ingeleverd voor die les; niets wat "
                       "kon worden nagekeken telt als 0 punten.",
                       "The grade of the most recent submission per lesson and learner; per module the grade over "
                       "all points of the lessons that count. Empty: nothing handed in for that lesson; nothing "
                       "gradable counts as 0 points."),
    "learner": ("Leerling", "Learner"),
    "total": ("Totaal {module}", "Total {module}"),
    "points": ("Punten {module}", "Points {module}"),
    "lesson": ("Les {lesson}", "Lesson {lesson}"),
    "counted": ("Welke lessen meetellen", "Which lessons count"),
    "counted_teacher": ("Module {module}: {lessons}, zoals opgegeven met <code>--lessons</code>.",
                        "Module {module}: {lessons}, as given with <code>--lessons</code>."),
    "counted_published": ("Module {module}: {lessons}: de gepubliceerde lessen van deze module (volgens de "
                          "lesbestanden). Een les die niemand inleverde telt mee met 0 punten; geef "
                          "<code>--lessons</code> om zelf te kiezen welke lessen tellen.",
                          "Module {module}: {lessons}: the published lessons of this module (by the lesson files). "
                          "A lesson nobody handed in counts as 0 points; give <code>--lessons</code> to choose "
                          "which lessons count."),
    "counted_checkpoints": ("Module {module}: {lessons}: de lessen van deze module in de checkpoints-map (er zijn "
                            "geen lesbestanden). Een les die niemand inleverde telt mee met 0 punten; geef "
                            "<code>--lessons</code> om zelf te kiezen welke lessen tellen.",
                            "Module {module}: {lessons}: this module's lessons in the checkpoints tree (there are "
                            "no lesson files). A lesson nobody handed in counts as 0 points; give "
                            "<code>--lessons</code> to choose which lessons count."),
    "pass_mark": ("Een 5,5 bij {pass_percent}% van de {max_points} punten.",
                  "A 5.5 at {pass_percent}% of the {max_points} points."),
    "stray": ("Nagekeken maar niet meegeteld: {lessons}. Inzendingen noemen deze lessen, maar ze horen niet bij de "
              "lessen die meetellen; ze staan hieronder met een eigen cijfer en tellen in geen enkel totaal.",
              "Graded but not counted: {lessons}. Submissions name these lessons, but they are not among the "
              "lessons that count; they have their own grade below and are in no total."),
    "unplaced": ("Inzendingen zonder bekende les", "Submissions without a known lesson"),
    "unplaced_headers": (("Inzending", "Leerling", "Reden"), ("Submission", "Learner", "Reason")),
})


# The learner's feedback pages (runner.offline.outputs.feedback): Dutch only, as the learner's page.
# Texts with HTML in them are ours; every value put into them is escaped first.
FEEDBACK_TEXTS: dict[str, Any] = {
    "title": "Terugkoppeling", "for": "Voor", "lesson": "Les", "no_lesson": "Inzending zonder les",
    "graded_on": "nagekeken op {graded}, dit overzicht gemaakt op {made}", "made_on": "dit overzicht gemaakt op {made}",
    "grade": "cijfer", "passed": "voldoende", "failed": "onvoldoende", "of": "van", "points": "punten",
    "points_of": "{points} van {worth}", "no_grade": "geen cijfer", "invalid": "ongeldig",
    "point": "punt", "points_unit": "punten",
    "not_graded": "Je inzending kon niet worden nagekeken", "marked_below": " Dit is aangegeven in je code hieronder.",
    "not_started": "Niet begonnen", "not_started_text": "Je inzending is (bijna) de startcode van de les.",
    "checkpoints": "Checkpoints", "checkpoint_headers": ("Checkpoint", "Uitslag", "Punten"),
    "not_yet_right": "Wat nog niet goed ging", "teacher_notes": "Opmerkingen van je docent", "your_code": "Je code",
    "unavailable": "Deze pagina kon niet worden gemaakt. Je docent heeft daar een melding van gekregen en kan je "
                   "resultaat in het overzicht van de klas zien.",
    "module_nothing": "voor module {module}: niets wat kon worden nagekeken ({lessons})",
    "module_grade": "cijfer voor module {module} ({verdict}): {points} van {max_points} punten over {lessons}",
    "nothing_handed_in": "Niets ingeleverd voor {lessons}: die les telt mee met 0 punten.",
    "not_counted": "Dit werk is nagekeken, maar telt niet mee voor een totaalcijfer: het hoort niet bij de lessen "
                   "die je docent meetelt.",
}
