"""Every authoring mistake stops the build with one exact line, exit code 1, and the old site intact."""

from __future__ import annotations

import traceback

import pytest
from project_copy import LESSON, ProjectCopy


@pytest.fixture
def project(tmp_path) -> ProjectCopy:
    copy = ProjectCopy(tmp_path)
    copy.place_old_site()
    return copy


def assert_fails(project: ProjectCopy, expected_line: str, *options: str) -> None:
    run = project.build(*options)
    assert run.stderr == expected_line + "\n"
    assert run.returncode == 1
    assert project.old_site_untouched()


def test_missing_field(project):
    project.replace(LESSON, "subtitle: Splits een zin op witruimte en tel wat er overblijft.\n", "")
    assert_fails(project, f"{LESSON}:1: missing field 'subtitle' in the front matter")


def test_mistyped_field_name(project):
    project.replace(LESSON, "title: Tel de woorden", "titel: Tel de woorden")
    line = project.line_of(LESSON, "titel:")
    assert_fails(project, f"{LESSON}:{line}: unknown field 'titel' (did you mean 'title'?)")


def test_wrong_field_type(project):
    project.replace(LESSON, "duration: 20", "duration: twintig minuten")
    line = project.line_of(LESSON, "duration:")
    assert_fails(project, f"{LESSON}:{line}: field 'duration' must be a whole number of at least 1, "
                          "got 'twintig minuten'")


def test_wrong_type_inside_a_mapping(project):
    project.replace(LESSON, "module: {id: tekst, number: 2,", "module: {id: tekst, number: twee,")
    line = project.line_of(LESSON, "module:")
    assert_fails(project, f"{LESSON}:{line}: field 'module' key 'number' must be a whole number "
                          "of at least 1, got 'twee'")


def test_invalid_yaml(project):
    project.replace(LESSON, "module: {id: tekst, number: 2, title: Tekst}", "module: {id: tekst, number: 2")
    line = project.line_of(LESSON, "lesson: 1")
    assert_fails(project, f"{LESSON}:{line}: invalid YAML in the front matter: expected ',' or '}}', but got ':'")


def test_unknown_directive(project):
    project.replace(LESSON, ":::{checkpoint} count_words", ":::{chekpoint} count_words")
    line = project.line_of(LESSON, ":::{chekpoint}")
    assert_fails(project, f"{LESSON}:{line}: unknown directive 'chekpoint' (did you mean 'checkpoint'?)")


def test_duplicate_lesson_id(project):
    text = (project.root / LESSON).read_text(encoding="utf-8")
    (project.root / "lessons" / "tekst-02.md").write_text(text.replace("lesson: 1", "lesson: 2"), encoding="utf-8")
    assert_fails(project, "lessons/tekst-02.md:2: duplicate lesson id 'tekst-01' (also used by lessons/tekst-01.md)")


def test_unknown_checkpoint_id_in_a_marker(project):
    project.replace(LESSON, ":::{checkpoint} count_words", ":::{checkpoint} count_word")
    line = project.line_of(LESSON, ":::{checkpoint}")
    assert_fails(project, f"{LESSON}:{line}: unknown checkpoint 'count_word'")


def test_unknown_checkpoint_id_in_the_front_matter(project):
    project.replace(LESSON, "checkpoints: [count_words]", "checkpoints: [count_words, average_length]")
    line = project.line_of(LESSON, "checkpoints:")
    assert_fails(project, f"{LESSON}:{line}: unknown checkpoint 'average_length' "
                          "(not in checkpoints/tekst-01/checkpoints.toml)")


def test_wrong_example_output_in_a_trailing_comment(project):
    project.replace(LESSON, '"De lamp  brandt"))  # 3', '"De lamp  brandt"))  # 4')
    line = project.line_of(LESSON, "# 4")
    assert_fails(project, f"{LESSON}:{line}: example printed '3', comment expects '4'")


def test_wrong_example_output_in_a_comment_block(project):
    project.replace(LESSON, "# ['een', 'twee']", "# ['een', 'twee', 'drie']")
    line = project.line_of(LESSON, "# ['een', 'twee', 'drie']")
    assert_fails(project, f"{LESSON}:{line}: example printed \"['een', 'twee']\", "
                          "comment expects \"['een', 'twee', 'drie']\"")


def python_error_line(code: str) -> str:
    """The last line of what this Python prints for the error `code` raises. The build quotes it,
    and Python 3.12 and later end some with a hint ("Did you mean: 'split'?") that 3.11 leaves out."""
    try:
        exec(code, {})
    except Exception as error:
        return traceback.format_exception_only(type(error), error)[-1].strip()
    raise AssertionError(f"{code!r} raised nothing")


def test_example_that_raises(project):
    project.replace(LESSON, 'words = "een twee".split()', 'words = "een twee".splitt()')
    line = project.line_of(LESSON, ".splitt()")
    raised = python_error_line('"een twee".splitt()')
    assert raised.startswith("AttributeError: 'str' object has no attribute 'splitt'")
    assert_fails(project, f"{LESSON}:{line}: example raised {raised}")


def test_unknown_prerequisite_id_is_a_warning(project):
    project.replace(LESSON, "- {title: Werken met strings}", "- {id: tekst-00, title: Werken met strings}")
    line = project.line_of(LESSON, "prerequisites:")
    run = project.build()
    assert run.returncode == 0
    assert run.stderr == (f"{LESSON}:{line}: warning: unknown lesson id 'tekst-00' in prerequisites: "
                          "add it to lessons/planned.yaml if it is planned\n")
    page = (project.site / "tekst-01" / "index.html").read_text(encoding="utf-8")
    # shown, but not as a dead link
    assert '<li>Werken met strings <span class="not-available">(nog niet beschikbaar)</span></li>' in page


def test_unknown_prerequisite_id_is_an_error_under_strict(project):
    project.replace(LESSON, "- {title: Werken met strings}", "- {id: tekst-00, title: Werken met strings}")
    line = project.line_of(LESSON, "prerequisites:")
    assert_fails(project, f"{LESSON}:{line}: unknown lesson id 'tekst-00' in prerequisites: "
                          "add it to lessons/planned.yaml if it is planned", "--strict")


def test_level_one_heading_in_the_body(project):
    project.replace(LESSON, "## 1. Splitsen", "# 1. Splitsen")
    line = project.line_of(LESSON, "# 1. Splitsen")
    assert_fails(project, f"{LESSON}:{line}: use '## ' for sections: the lesson title is the only level-1 heading")


def test_every_mistake_of_a_lesson_is_reported_in_one_build(project):
    project.replace(LESSON, "title: Tel de woorden", "titel: Tel de woorden")
    project.replace(LESSON, "duration: 20", "duration: twintig")
    project.replace(LESSON, ":::{checkpoint} count_words", ":::{chekpoint} count_words")
    project.replace(LESSON, "De verhouding $W/N$", "De verhouding $\\fracc{W}{N}$")
    assert_fails(project, "\n".join([
        f"{LESSON}:{project.line_of(LESSON, 'titel:')}: unknown field 'titel' (did you mean 'title'?)",
        f"{LESSON}:{project.line_of(LESSON, 'duration:')}: field 'duration' must be a whole number of at least 1, "
        "got 'twintig'",
        f"{LESSON}:{project.line_of(LESSON, 'De verhouding')}: cannot read the formula '\\fracc{{W}}{{N}}': "
        "unknown command '\\fracc' (did you mean '\\frac'?)",
        f"{LESSON}:{project.line_of(LESSON, ':::{chekpoint}')}: unknown directive 'chekpoint' (did you mean 'checkpoint'?)",
        "4 mistakes; nothing was written",
    ]))


def test_examples_do_not_run_while_the_front_matter_is_broken(project):
    project.replace(LESSON, "title: Tel de woorden", "titel: Tel de woorden")
    project.replace(LESSON, '"De lamp  brandt"))  # 3', '"De lamp  brandt"))  # 4')
    line = project.line_of(LESSON, "titel:")
    assert_fails(project, f"{LESSON}:{line}: unknown field 'titel' (did you mean 'title'?)")


def test_unquoted_colon_in_a_goal_is_explained(project):
    project.replace(LESSON, "  - Je weet waarom", "  - Let op: je weet waarom")
    line = project.line_of(LESSON, "goals:")
    assert_fails(project, f"{LESSON}:{line}: field 'goals' item 2 contains ': ', so YAML reads it as "
                          "'key: value': put the whole text between quotes")


def test_a_quote_left_open_is_blamed_on_its_own_line(project):
    project.replace(LESSON, '  - "`split()` zonder argument negeert extra witruimte."',
                    '  - "`split()` zonder argument negeert extra witruimte.')
    line = project.line_of(LESSON, "zonder argument negeert")
    assert_fails(project, f"{LESSON}:{line}: invalid YAML in the front matter: the '\"' on this line has no closing '\"'")


def test_unknown_key_in_checkpoints_toml(project):
    toml = "checkpoints/tekst-01/checkpoints.toml"
    project.replace(toml, 'title = "Tel de woorden"', 'titel = "Tel de woorden"')
    line = project.line_of(toml, "titel =")
    assert_fails(project, f"{toml}:{line}: checkpoint 1 has unknown key 'titel' (did you mean 'title'?)")


@pytest.mark.parametrize("uses, reason", [
    ('"count_words"', "checkpoint 1 'uses' must be a list of checkpoint ids, got 'count_words'"),
    ('["count_words"]', "checkpoint 1 uses itself"),
    ('["tel_woorden"]', "checkpoint 1 uses unknown checkpoint 'tel_woorden'"),
])
def test_uses_must_name_earlier_checkpoints(project, uses, reason):
    toml = "checkpoints/tekst-01/checkpoints.toml"
    project.replace(toml, 'title = "Tel de woorden"', f'title = "Tel de woorden"\nuses = {uses}')
    assert_fails(project, f"{toml}:{project.line_of(toml, 'uses =')}: {reason}")


def test_a_checkpoint_without_a_marker_is_a_warning(project):
    project.replace(LESSON, ":::{checkpoint} count_words\n:::\n", "")
    run = project.build()
    assert run.returncode == 0
    assert run.stderr == (f"{LESSON}:{project.line_of(LESSON, 'checkpoints:')}: warning: checkpoint 'count_words' "
                          "has no marker in the text: add ':::{checkpoint} count_words' after the section that teaches it\n")


def test_strict_reports_every_warning_as_a_mistake(project):
    project.replace(LESSON, ":::{checkpoint} count_words\n:::\n", "")
    project.replace(LESSON, "De verhouding $W/N$", "De verhouding $W/N")
    assert_fails(project, "\n".join([
        f"{LESSON}:{project.line_of(LESSON, 'De verhouding')}: a '$' without a closing '$' is shown as a dollar "
        "sign: close the formula, or write '\\$' for a dollar sign",
        f"{LESSON}:{project.line_of(LESSON, 'checkpoints:')}: checkpoint 'count_words' has no marker in the text: "
        "add ':::{checkpoint} count_words' after the section that teaches it",
        "2 mistakes; nothing was written",
    ]), "--strict")


def test_an_escaped_dollar_is_no_warning(project):
    project.replace(LESSON, "De verhouding $W/N$ meet je later.", "De verhouding $W/N$ kost \\$5.")
    run = project.build()
    assert (run.returncode, run.stderr) == (0, "")


def test_a_hidden_solution_stays_off_the_page(project):
    run = project.build()
    assert run.returncode == 0, run.stderr
    assert 'data-testid="solution"' in (project.site / "tekst-01" / "index.html").read_text(encoding="utf-8")
    project.replace(LESSON, "reviewed: 2026-11-02\n", "reviewed: 2026-11-02\nsolution: hidden\n")
    run = project.build()
    assert run.returncode == 0, run.stderr
    page = (project.site / "tekst-01" / "index.html").read_text(encoding="utf-8")
    assert 'data-testid="solution"' not in page and "Voorbeeldoplossing" not in page


def test_solution_must_be_shown_or_hidden(project):
    project.replace(LESSON, "reviewed: 2026-11-02\n", "reviewed: 2026-11-02\nsolution: verborgen\n")
    line = project.line_of(LESSON, "solution:")
    assert_fails(project, f"{LESSON}:{line}: field 'solution' must be 'shown' or 'hidden', got 'verborgen'")


def test_an_unclosed_callout_is_blamed_not_the_checkpoint_marker_after_it(project):
    # The marker's closing ':::' ends the callout, which leaves the marker itself unclosed.
    project.replace(LESSON, "De verhouding $W/N$", ":::{callout} tip Verhouding\nDe verhouding $W/N$")
    assert_fails(project, f"{LESSON}:{project.line_of(LESSON, ':::{callout} tip')}: ':::{{callout}}' is not "
                          f"closed before the ':::{{checkpoint}}' on line {project.line_of(LESSON, ':::{checkpoint}')}: "
                          "end it with a ':::' line (or, to put that directive inside it, open it with '::::')")


def test_a_callout_that_holds_a_marker_opens_with_more_colons(project):
    project.replace(LESSON, "De verhouding $W/N$ meet je later.\n\n:::{checkpoint} count_words\n:::\n",
                    "::::{callout} tip Verhouding\nDe verhouding $W/N$ meet je later.\n\n"
                    ":::{checkpoint} count_words\n:::\n::::\n")
    run = project.build("--strict")
    assert (run.returncode, run.stderr) == (0, "")
    page = (project.site / "tekst-01" / "index.html").read_text(encoding="utf-8")
    assert page.index('<aside class="callout callout--tip">') < page.index('data-checkpoint-marker="count_words"')


# -- planned lessons (lessons/planned.yaml) -----------------------------------------------------

PLANNED = "lessons/planned.yaml"


def plan(project: ProjectCopy, text: str) -> None:
    (project.root / PLANNED).write_text(text, encoding="utf-8")


def test_a_link_to_a_planned_lesson_passes_strict(project):
    plan(project, "# nog te schrijven\ntekst-00: Werken met strings\n")
    project.replace(LESSON, "- {title: Werken met strings}", "- {id: tekst-00, title: Werken met strings}")
    run = project.build("--strict")
    assert (run.returncode, run.stderr) == (0, "")
    page = (project.site / "tekst-01" / "index.html").read_text(encoding="utf-8")
    assert '<li>Werken met strings <span class="not-available">(nog niet beschikbaar)</span></li>' in page


def test_an_id_that_is_neither_written_nor_planned_still_fails_strict(project):
    plan(project, "tekst-00: Werken met strings\n")
    project.replace(LESSON, "- {title: Werken met strings}", "- {id: strings-01, title: Werken met strings}")
    line = project.line_of(LESSON, "prerequisites:")
    assert_fails(project, f"{LESSON}:{line}: unknown lesson id 'strings-01' in prerequisites: "
                          "add it to lessons/planned.yaml if it is planned", "--strict")


def test_a_mistyped_link_gets_a_did_you_mean_among_written_and_planned_lessons(project):
    plan(project, "tekst-02: Gemiddelde woordlengte\n")
    project.replace(LESSON, "reviewed: 2026-11-02\n",
                    "reviewed: 2026-11-02\nnext: {id: tekst-2, title: Gemiddelde woordlengte, teaser: Straks.}\n")
    run = project.build()
    assert run.returncode == 0
    assert run.stderr == (f"{LESSON}:{project.line_of(LESSON, 'next:')}: warning: unknown lesson id 'tekst-2' "
                          "in next (did you mean 'tekst-02'?)\n")


def test_a_planned_lesson_that_exists_now_is_a_warning(project):
    plan(project, "tekst-00: Werken met strings\ntekst-01: Tel de woorden\n")
    run = project.build()
    assert run.returncode == 0
    assert run.stderr == (f"{PLANNED}:2: warning: lesson 'tekst-01' exists now ({LESSON}): "
                          "remove it from the planned lessons\n")


def test_every_mistake_in_the_planned_lessons_is_reported(project):
    plan(project, "tekst-00: Werken met strings\nTekst 03: Zinnen\ntekst-04:\ntekst-00: Nog eens\n")
    assert_fails(project, "\n".join([
        f"{PLANNED}:2: 'Tekst 03' is not a lesson id: use lowercase letters, digits and '-'",
        f"{PLANNED}:3: planned lesson 'tekst-04' needs a title after 'tekst-04: ', got nothing",
        f"{PLANNED}:4: planned lesson 'tekst-00' is listed twice (also on line 1)",
        "3 mistakes; nothing was written",
    ]))


def test_planned_lessons_are_id_title_lines(project):
    plan(project, "# gepland\n- tekst-00: Werken met strings\n")
    assert_fails(project, f"{PLANNED}:2: planned lessons are 'id: title' lines, one per lesson")


def test_invalid_yaml_in_the_planned_lessons(project):
    plan(project, "tekst-00: [Werken met strings\n")
    assert_fails(project, f"{PLANNED}:2: invalid YAML: expected ',' or ']', but got '<stream end>'")


# -- build.py --only ID --------------------------------------------------------------------------

def add_second_lesson(project: ProjectCopy, body_mistake: str = "") -> str:
    """lessons/tekst-02.md, the next lesson of the module (with a mistake in its body, if given)."""
    text = (project.root / LESSON).read_text(encoding="utf-8")
    text = (text.replace("id: tekst-01", "id: tekst-02").replace("lesson: 1", "lesson: 2")
            .replace("Tel de woorden in een zin", "Tel de zinnen").replace("checkpoints: [count_words]", "checkpoints: []")
            .replace(":::{checkpoint} count_words\n:::\n", body_mistake))
    (project.root / "lessons" / "tekst-02.md").write_text(text, encoding="utf-8")
    project.replace(LESSON, "reviewed: 2026-11-02\n",
                    "reviewed: 2026-11-02\nnext: {id: tekst-02, title: Tel de zinnen, teaser: Straks.}\n")
    return "lessons/tekst-02.md"


def test_only_builds_that_lesson_alone(project):
    second = add_second_lesson(project, body_mistake=":::{plaatje}\n:::\n")
    assert project.build().stderr.startswith(f"{second}:")  # the whole build sees the other lesson
    run = project.build("--only", "tekst-01", "--strict")
    assert (run.returncode, run.stderr) == (0, "")  # its link to tekst-02 is no warning
    assert run.stdout.startswith(f"built 1 lesson into {project.site} in ")
    assert sorted(path.name for path in project.site.glob("tekst-*")) == ["tekst-01"]
    index = (project.site / "index.html").read_text(encoding="utf-8")
    assert 'href="tekst-01/"' in index and "tekst-02" not in index
    page = (project.site / "tekst-01" / "index.html").read_text(encoding="utf-8")
    assert 'href="../tekst-02/"' in page  # linked where it is in the whole site


def test_only_reports_the_mistakes_of_that_lesson(project):
    second = add_second_lesson(project, body_mistake=":::{plaatje}\n:::\n")
    line = project.line_of(second, ":::{plaatje}")
    assert_fails(project, f"{second}:{line}: unknown directive 'plaatje'", "--only", "tekst-02")


def test_only_finds_a_lesson_whose_front_matter_is_broken_by_its_file_name(project):
    project.replace(LESSON, "id: tekst-01\n", "")
    assert_fails(project, f"{LESSON}:1: missing field 'id' in the front matter", "--only", "tekst-01")


def test_only_with_an_unknown_id_says_which_one_was_meant(project):
    assert_fails(project, "--only: there is no lesson with the id 'tekst-1' (did you mean 'tekst-01'?)",
                 "--only", "tekst-1")


def test_serve_only_with_an_unknown_id_does_not_start_a_server(project):
    run = project.build("serve", "--only", "woorden", "--port", "1")
    assert (run.returncode, run.stderr) == (1, "--only: there is no lesson with the id 'woorden'\n")


def test_only_with_the_file_name_of_a_lesson_whose_id_differs_names_that_id(project):
    (project.root / LESSON).rename(project.root / "lessons" / "woorden.md")
    assert_fails(project, "--only: there is no lesson with the id 'woorden' (lessons/woorden.md has the id 'tekst-01')",
                 "--only", "woorden")


def test_the_index_lists_the_planned_lessons_that_do_not_exist_yet_as_coming_soon(project):
    plan(project, "tekst-00: Werken met <strings>\ntekst-01: Tel de woorden\ntekst-03: Zinnen tellen\n")
    run = project.build()
    assert run.returncode == 0, run.stderr
    index = (project.site / "index.html").read_text(encoding="utf-8")
    coming_soon = index[index.index('<section class="coming-soon"'):index.index("</section>", index.index("coming-soon"))]
    assert '<h2 id="binnenkort-title">Binnenkort</h2>' in coming_soon
    # In the file's order, as text; the lesson that exists now is a lesson card, not "Binnenkort".
    assert [line.strip() for line in coming_soon.splitlines() if line.strip().startswith("<li>")] == [
        "<li>Werken met &lt;strings&gt;</li>", "<li>Zinnen tellen</li>"]


def test_without_planned_lessons_the_index_has_no_coming_soon(project):
    assert project.build().returncode == 0
    assert "coming-soon" not in (project.site / "index.html").read_text(encoding="utf-8")
