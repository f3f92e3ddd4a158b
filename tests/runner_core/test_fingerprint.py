"""runner.core.fingerprint: a checkpoint's fingerprint follows its function and what that
function reaches, and nothing else in main.py."""

from runner.core.fingerprint import checkpoint_fingerprints

BASE = '''import re
import hashlib
from dataclasses import dataclass

LIMIT = 3


@dataclass
class Box:
    value: int


def count_a(text):
    return min(len(re.findall("a", text)), LIMIT) + scale(1)


def snapshot(text):
    return Box(len(hashlib.sha256(text.encode()).hexdigest()))


def scale(x):
    return x * 2
'''


def prints(source):
    return checkpoint_fingerprints(source, ["count_a", "snapshot"])


def test_unrelated_edits_keep_every_fingerprint():
    before = prints(BASE)
    assert prints(BASE + "\n\nprint(count_a('banaan'))\n\t\n") == before  # an example below
    assert prints(BASE.replace("LIMIT = 3\n", "LIMIT = 3   \n\n\n# grens\n")) == before  # whitespace, comments between
    assert prints(BASE.replace("import re\n", "import re\nimport math\n")) == before  # an unused import
    # An example below that imports a module again, with its own names.
    assert prints(BASE + "\nimport hashlib\nsource = 'x'\nprint(snapshot(source))\n") == before


def test_an_edit_changes_only_the_functions_that_reach_it():
    before = prints(BASE)
    own = prints(BASE.replace("hexdigest()", "digest()"))
    assert own["snapshot"] != before["snapshot"] and own["count_a"] == before["count_a"]
    helper_below = prints(BASE.replace("return x * 2", "return x * 3"))  # defined below its user
    assert helper_below["count_a"] != before["count_a"] and helper_below["snapshot"] == before["snapshot"]
    constant = prints(BASE.replace("LIMIT = 3", "LIMIT = 4"))
    assert constant["count_a"] != before["count_a"] and constant["snapshot"] == before["snapshot"]
    import_line = prints(BASE.replace("import hashlib", "import hashlib as hashlib"))
    assert import_line["snapshot"] != before["snapshot"] and import_line["count_a"] == before["count_a"]
    used_class = prints(BASE.replace("value: int", "value: float"))
    assert used_class["snapshot"] != before["snapshot"] and used_class["count_a"] == before["count_a"]
    decorator_import = prints(BASE.replace("from dataclasses import dataclass", "from dataclasses import dataclass, field"))
    assert decorator_import["snapshot"] != before["snapshot"]


def test_a_redefinition_below_counts():
    before = prints(BASE)
    after = prints(BASE + "\n\ndef scale(x):\n    return 0\n")
    assert after["count_a"] != before["count_a"] and after["snapshot"] == before["snapshot"]


def test_code_that_does_not_parse_matches_no_earlier_fingerprint():
    broken = prints(BASE + "\ndef oops(:\n")
    assert broken["count_a"] != prints(BASE)["count_a"]
    assert broken["count_a"].startswith("f1:unparsable:")


def test_line_endings_do_not_matter():
    assert prints(BASE.replace("\n", "\r\n")) == prints(BASE)


def test_a_parameter_or_local_is_no_use_of_a_global_with_its_name():
    before = prints(BASE)
    # The example below names a list `text`, like count_a's parameter, and sets a local's name.
    assert prints(BASE + "\ntext = 'banaan'\nx = 5\nprint(count_a(text), scale(x))\n") == before
    # A global the function declares and assigns is a use.
    source = BASE.replace("def scale(x):\n", "def scale(x):\n    global LIMIT\n    LIMIT = 2\n")
    assert prints(source + "LIMIT = 9\n")["count_a"] != prints(source)["count_a"]
