"""Why a submission could not be graded, in the reader's language (docs/grading.md, "Bad input").

`results.jsonl` keeps the grader's one-line reason in English (`message`): it is a log for tools
and for the teacher's terminal. Every page and table a person reads (the gradebook, the report,
the feedback pages) shows the reason through `reason_text`, Dutch by default. The Dutch text is
made from the English one by pattern, so results written by earlier runs read the same; a reason
no pattern knows is shown as a general Dutch sentence, never as English inside a Dutch page.

A syntax error's own words come from CPython (`expected ':'`); the common ones have a Dutch
explanation here (`SYNTAX_DUTCH`), the rest are named by their line only.
"""

from __future__ import annotations

import re
from collections.abc import Callable

SYNTAX = re.compile(r"syntax error(?: on line (?P<line>\d+))?(?:: (?P<what>.*))?\Z", re.DOTALL)

# CPython's SyntaxError messages a beginner meets most, as a Dutch explanation.
SYNTAX_DUTCH: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"expected '(.)'"), lambda m: f"hier ontbreekt een '{m.group(1)}'"),
    (re.compile(r"invalid syntax(?:\. Perhaps you forgot a comma\?)?"), lambda m: "deze regel is geen geldige Python"),
    (re.compile(r"unexpected indent"), lambda m: "deze regel springt in waar dat niet mag"),
    (re.compile(r"unindent does not match any outer indentation level"),
     lambda m: "de inspringing past bij geen enkele regel erboven"),
    (re.compile(r"expected an indented block.*"), lambda m: "hier hoort een ingesprongen blok te beginnen"),
    (re.compile(r"unterminated (?:triple-quoted )?string literal.*"), lambda m: "een tekst (string) wordt niet afgesloten"),
    (re.compile(r"'(.)' was never closed"), lambda m: f"de '{m.group(1)}' wordt nergens gesloten"),
    (re.compile(r"unmatched '(.)'"), lambda m: f"deze '{m.group(1)}' sluit niets af"),
    (re.compile(r"closing parenthesis '(.)' does not match opening parenthesis '(.)'.*"),
     lambda m: f"de '{m.group(1)}' past niet bij de '{m.group(2)}'"),
    (re.compile(r"invalid character '(.)' \((U\+[0-9A-F]+)\)"),
     lambda m: f"het teken '{m.group(1)}' ({m.group(2)}) hoort niet in Python-code"),
    (re.compile(r"invalid non-printable character (U\+[0-9A-F]+)"),
     lambda m: f"een onzichtbaar teken ({m.group(1)}) hoort niet in Python-code"),
    (re.compile(r"cannot assign to .*|cannot delete .*"), lambda m: "hier staat links van '=' iets waaraan je niets kunt toekennen"),
    (re.compile(r"Missing parentheses in call to '(\w+)'.*"), lambda m: f"na {m.group(1)} horen haakjes"),
    (re.compile(r"inconsistent use of tabs and spaces in indentation"),
     lambda m: "tabs en spaties door elkaar gebruikt om in te springen"),
    (re.compile(r"'return' outside function"), lambda m: "'return' staat buiten een functie"),
    (re.compile(r"invalid decimal literal"), lambda m: "een getal is verkeerd geschreven"),
]

# The grader's reasons (runner.offline.submission, batch, cli), most specific first.
PATTERNS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"cannot read file: (.*)"), lambda m: "het bestand kon niet worden gelezen"),
    (re.compile(r"file is (.+), over the (.+) limit"), lambda m: f"het bestand is {m.group(1)}, meer dan de grens van {m.group(2)}"),
    (re.compile(r"code is over the (.+) limit"), lambda m: f"de code is groter dan de grens van {m.group(1)}"),
    (re.compile(r"not UTF-8 text \(byte (0x[0-9a-f]+) at offset (\d+)\)"),
     lambda m: f"geen UTF-8-tekst (byte {m.group(1)} op positie {m.group(2)})"),
    (re.compile(r"not UTF-8 text.*"), lambda m: "geen UTF-8-tekst"),
    (re.compile(r"empty file"), lambda m: "het bestand is leeg"),
    (re.compile(r"file holds only whitespace"), lambda m: "het bestand bevat alleen witruimte"),
    (re.compile(r"field 'code' is empty"), lambda m: "het veld 'code' is leeg"),
    (re.compile(r"field 'code' holds only whitespace"), lambda m: "het veld 'code' bevat alleen witruimte"),
    (re.compile(r"malformed JSON: .*\(line (\d+), column (\d+)\)"),
     lambda m: f"geen geldige JSON (regel {m.group(1)}, kolom {m.group(2)})"),
    (re.compile(r"malformed JSON.*"), lambda m: "geen geldige JSON"),
    (re.compile(r"malformed submission: the JSON must be an object"), lambda m: "de JSON is geen object"),
    (re.compile(r"missing fields?: (.*)"), lambda m: f"ontbrekende velden: {m.group(1)}"),
    (re.compile(r"field '(\w+)' must be a string"), lambda m: f"het veld '{m.group(1)}' moet tekst zijn"),
    (re.compile(r"field 'learner' is empty"), lambda m: "het veld 'learner' (de naam) is leeg"),
    (re.compile(r"field 'learner' is longer than (\d+) characters"),
     lambda m: f"het veld 'learner' (de naam) is langer dan {m.group(1)} tekens"),
    (re.compile(r"field 'browser_verdicts' must map .*"),
     lambda m: "het veld 'browser_verdicts' moet per checkpoint pass, fail, error of timeout geven"),
    (re.compile(r"submission is for lesson ('.*'), not ('.*')"),
     lambda m: f"de inzending is voor les {m.group(1)}, niet voor {m.group(2)}"),
    (re.compile(r"submission is for lesson ('.*'), which this checkpoints tree does not have.*"),
     lambda m: f"de inzending is voor les {m.group(1)}, die hier niet bestaat"),
    (re.compile(r"a \.py file does not say which lesson it is for.*"),
     lambda m: "een .py-bestand zegt niet voor welke les het is: je docent moet de les erbij opgeven"),
    (re.compile(r"module export: lesson ('.*') appears twice"),
     lambda m: f"module-export: les {m.group(1)} staat er twee keer in"),
    (re.compile(r"module export: field 'learner' must be a non-empty string"),
     lambda m: "module-export: het veld 'learner' (de naam) ontbreekt of is leeg"),
    (re.compile(r"module export: field 'lessons' must be a list of objects"),
     lambda m: "module-export: het veld 'lessons' is geen lijst van objecten"),
    (re.compile(r"module export: fields 'module' and 'created_at' must be strings"),
     lambda m: "module-export: de velden 'module' en 'created_at' moeten tekst zijn"),
    (re.compile(r"module export: every entry of 'lessons' needs a field 'lesson'.*"),
     lambda m: "module-export: elk onderdeel van 'lessons' moet een veld 'lesson' hebben"),
    (re.compile(r"module export holds no work for lesson ('.*')"),
     lambda m: f"de module-export bevat geen werk voor les {m.group(1)}"),
    (re.compile(r"unsupported file type ('.*'): expected \.py or \.json"),
     lambda m: f"bestandstype {m.group(1)} wordt niet nagekeken: alleen .py of .json"),
    (re.compile(r"(?:not a regular file|refused|a link).*", re.IGNORECASE),
     lambda m: "geen gewoon bestand in de klasmap (bijvoorbeeld een link): niet gelezen"),
]

UNKNOWN_DUTCH = "de inzending kon niet worden nagekeken (de reden staat in results.jsonl)"


def syntax_line(message: str | None) -> int | None:
    """The line of a syntax error named in a reason, for marking it in the code."""
    found = SYNTAX.match(message or "")
    return int(found.group("line")) if found and found.group("line") else None


def syntax_dutch(what: str) -> str:
    for pattern, make in SYNTAX_DUTCH:
        found = pattern.fullmatch(what.strip())
        if found:
            return make(found)
    return "Python kan deze regel niet lezen"


def reason_text(message: str | None, language: str = "nl") -> str:
    """The reason a submission is invalid, for a reader of `language` ("nl" or "en")."""
    message = (message or "").strip()
    if language == "en":
        return message or "invalid"
    found = SYNTAX.match(message)
    if found:
        line = found.group("line")
        what = syntax_dutch(found.group("what") or "")
        return f"syntaxfout op regel {line}: {what}" if line else f"syntaxfout: {what}"
    for pattern, make in PATTERNS:
        found = pattern.fullmatch(message)
        if found:
            return make(found)
    return UNKNOWN_DUTCH
