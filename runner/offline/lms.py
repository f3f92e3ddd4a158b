"""The round trip with a school's learning environment: Brightspace, Canvas and Moodle
(docs/grading.md, "From and to Brightspace, Canvas and Moodle").

    read_download     an assignment's bulk download (the zip, or the folder it unpacks to) as
                      attempts: who (the LMS's own name and id), when (where the LMS says), late
                      (where the LMS says), and the files
    read_class_list   the LMS's own export that links learners to the ids its imports need
    choose_attempts   the attempt that counts per learner, with the deadline rule
    write_imports     the grade file each LMS imports, and the feedback pages packed as its bulk
                      feedback upload expects

What each rule rests on, and how sure it is, is in docs/grading.md (and the research note it
cites). Everything in a download is hostile: entries are read as data, never extracted by the
zip's own paths; links, special files, absolute and `..` paths are skipped; sizes are capped.
Only the chosen file of each attempt is written, under a name of our own, in `--out`.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
import stat
import unicodedata
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from pathlib import Path, PurePosixPath

from runner.offline.grading.grades import LearnerGrade, format_grade, format_points
from runner.offline.grading.records import ResultRecord
from runner.offline.grading.submission import MAX_SUBMISSION_BYTES
from runner.offline.outputs.gradebook import safe_cell, visible_text
from runner.offline.outputs.html_kit import e
from runner.offline.outputs.reasons import reason_text

LMS_NAMES = ("brightspace", "canvas", "moodle")
STAGED_DIR = "lms-inzendingen"
MAX_ENTRIES = 20_000
MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024  # what is read of a download in all
CODE_SUFFIXES = (".py", ".json")

# Brightspace: "<n1>-<n2> - <Name> - <Mon D, YYYY hmm AM>[ - <file>]", a flat file or a folder.
BRIGHTSPACE_ENTRY = re.compile(
    r"^(?P<ids>\d+-\d+) - (?P<name>.+?) - (?P<ts>[A-Z][a-z]{2} \d{1,2}, \d{4} \d{3,4} [AP]M)(?: - (?P<orig>.+))?$")
BRIGHTSPACE_TIME = "%b %d, %Y %I%M %p"
# Canvas: "<sortable name>[_LATE]_<user id>_<file id>_<file>", flat; text and link entries are html.
CANVAS_UPLOAD = re.compile(
    r"^(?P<name>.*?)(?:_(?P<late>LATE))?_(?P<uid>\d+|anon_[A-Za-z0-9]+)_(?P<fileid>\d+)_(?P<orig>.+)$")
CANVAS_TEXT = re.compile(r"^(?P<name>.*?)(?:_(?P<late>LATE))?_(?P<uid>\d+|anon_[A-Za-z0-9]+)_(?:text|link)\.html$")
# Moodle: "<Full Name>_<participant id>_assignsubmission_<plugin>" folders (a trailing "_" before
# 4.1), or the same as a prefix of a flat file name.
MOODLE_FOLDER = re.compile(r"^(?P<name>[^_]+)_(?P<pid>\d+)_assignsubmission_(?P<plugin>[a-z0-9]+)_?$")
MOODLE_FLAT = re.compile(r"^(?P<name>[^_]+)_(?P<pid>\d+)_assignsubmission_(?P<plugin>[a-z0-9]+)_(?P<orig>.+)$")


class LmsError(ValueError):
    """A download or class list that cannot be used at all: one line for the teacher."""


@dataclass(frozen=True)
class DownloadFile:
    path: str  # inside the download, with "/" between folders
    data: bytes  # at most MAX_SUBMISSION_BYTES + 1 bytes: more is over the limit anyway
    size: int


@dataclass
class Attempt:
    """One learner's hand-in as the download holds it."""

    lms: str
    key: str  # the LMS's id of the learner in the download (Canvas user id, Moodle participant id; Brightspace: the name)
    name: str  # the name as the download writes it
    entry: str  # the download's own name for it: folder, or Canvas's "<name>[_LATE]_<uid>_<fileid>"
    submitted_at: datetime | None = None  # only Brightspace says when
    late_marker: bool = False  # Canvas's _LATE_
    files: list[DownloadFile] = field(default_factory=list)


@dataclass(frozen=True)
class Download:
    lms: str
    attempts: list[Attempt]
    ignored: list[str]  # entries that are not a learner's file of this LMS (index.html, online text...)
    index_html: bytes | None = None  # Brightspace's index.html, put back in its feedback package


# ---- reading the download ----------------------------------------------------------------


def _entries(source: Path) -> Iterable[DownloadFile]:
    """Every regular file of a zip or a folder, as data; links, devices and unsafe paths skipped."""
    total = 0
    count = 0
    if source.is_file():
        try:
            archive = zipfile.ZipFile(source)
        except (OSError, zipfile.BadZipFile) as error:
            raise LmsError(f"not a zip file or folder: {str(source)!r} ({error})") from None
        with archive:
            for info in archive.infolist():
                count += 1
                if count > MAX_ENTRIES:
                    raise LmsError(f"{str(source)!r} holds more than {MAX_ENTRIES} entries")
                mode = info.external_attr >> 16
                # Only the type bits count: plain writers leave them 0, a link or device sets them.
                if info.is_dir() or (stat.S_IFMT(mode) and not stat.S_ISREG(mode)):
                    continue  # folders, and links or devices that an unpacker would restore
                name = info.filename.replace("\\", "/")
                parts = PurePosixPath(name).parts
                if not parts or name.startswith("/") or ".." in parts or any(":" in part for part in parts[:1]):
                    continue
                try:
                    with archive.open(info) as stream:
                        data = stream.read(MAX_SUBMISSION_BYTES + 1)
                except (OSError, zipfile.BadZipFile, RuntimeError, NotImplementedError):
                    continue  # an encrypted or broken entry: nothing to grade
                total += len(data)
                if total > MAX_TOTAL_BYTES:
                    raise LmsError(f"{str(source)!r} is larger than {MAX_TOTAL_BYTES >> 30} GiB")
                yield DownloadFile("/".join(parts), data, max(info.file_size, len(data)))
        return
    for folder, dirs, files in os.walk(source, followlinks=False):
        dirs.sort()
        for name in sorted(files):
            path = Path(folder) / name
            count += 1
            if count > MAX_ENTRIES:
                raise LmsError(f"{str(source)!r} holds more than {MAX_ENTRIES} files")
            try:
                descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
            except OSError:
                continue  # a link, or unreadable
            with os.fdopen(descriptor, "rb") as stream:
                status = os.fstat(stream.fileno())
                if not stat.S_ISREG(status.st_mode):
                    continue
                data = stream.read(MAX_SUBMISSION_BYTES + 1)
            total += len(data)
            if total > MAX_TOTAL_BYTES:
                raise LmsError(f"{str(source)!r} is larger than {MAX_TOTAL_BYTES >> 30} GiB")
            yield DownloadFile(path.relative_to(source).as_posix(), data, status.st_size)


def read_download(source: Path, lms: str) -> Download:
    if lms not in LMS_NAMES:
        raise LmsError(f"unknown LMS {lms!r} (known: {', '.join(LMS_NAMES)})")
    if not source.exists():
        raise LmsError(f"no such file or directory: {str(source)!r}")
    reader = {"brightspace": _brightspace, "canvas": _canvas, "moodle": _moodle}[lms]
    download = reader(list(_entries(source)))
    if not download.attempts:
        raise LmsError(f"{str(source)!r} holds no submission named as a {lms} download names them "
                       "(see docs/grading.md, 'From and to Brightspace, Canvas and Moodle')")
    return download


def _brightspace(entries: list[DownloadFile]) -> Download:
    attempts: dict[str, Attempt] = {}
    ignored, index = [], None
    for entry in entries:
        parts = entry.path.split("/")
        if len(parts) > 1 and BRIGHTSPACE_ENTRY.match(parts[1]) and not BRIGHTSPACE_ENTRY.match(parts[0]):
            parts = parts[1:]  # the zip unpacked into a folder of the assignment's name
        if parts[-1] == "index.html" and len(parts) <= 2 and not BRIGHTSPACE_ENTRY.match(parts[0]):
            index = entry.data  # at the top, or in the folder of the assignment's name
            continue
        found = BRIGHTSPACE_ENTRY.match(parts[0])
        if found is None or (len(parts) == 1 and not found.group("orig")):
            ignored.append(entry.path)
            continue
        folder = f"{found.group('ids')} - {found.group('name')} - {found.group('ts')}"
        try:
            when = datetime.strptime(found.group("ts"), BRIGHTSPACE_TIME)
        except ValueError:
            when = None
        attempt = attempts.setdefault(folder, Attempt("brightspace", found.group("name").strip(),
                                                      found.group("name").strip(), folder, when))
        name = found.group("orig") if len(parts) == 1 else "/".join(parts[1:])
        attempt.files.append(DownloadFile(name, entry.data, entry.size))
    return Download("brightspace", list(attempts.values()), ignored, index)


def _canvas(entries: list[DownloadFile]) -> Download:
    attempts: dict[str, Attempt] = {}
    ignored = []
    for entry in entries:
        name = entry.path.split("/")[-1]
        found = CANVAS_UPLOAD.match(name)
        if found is None:
            ignored.append(entry.path)  # a text or link submission (CANVAS_TEXT), or something else
            continue
        prefix = name[: found.start("orig") - 1]
        attempt = attempts.setdefault(found.group("uid"), Attempt(
            "canvas", found.group("uid"), found.group("name"), prefix, None, bool(found.group("late"))))
        attempt.files.append(DownloadFile(found.group("orig"), entry.data, entry.size))
    return Download("canvas", list(attempts.values()), ignored)


def _moodle(entries: list[DownloadFile]) -> Download:
    attempts: dict[str, Attempt] = {}
    ignored = []
    for entry in entries:
        parts = entry.path.split("/")
        if len(parts) > 1 and not MOODLE_FOLDER.match(parts[0]) and MOODLE_FOLDER.match(parts[1]):
            parts = parts[1:]  # unpacked into a folder of the zip's name
        folder = MOODLE_FOLDER.match(parts[0]) if len(parts) > 1 else None
        flat = MOODLE_FLAT.match(parts[0]) if len(parts) == 1 else None
        found = folder or flat
        if found is None or found.group("plugin") != "file":
            ignored.append(entry.path)  # online text, or not Moodle's naming
            continue
        if folder is not None:
            entry_name, inner = parts[0], "/".join(parts[1:])
        else:
            assert flat is not None
            entry_name, inner = parts[0][: flat.start("orig") - 1], flat.group("orig")
        attempt = attempts.setdefault(found.group("pid"), Attempt(
            "moodle", found.group("pid"), found.group("name"), entry_name))
        attempt.files.append(DownloadFile(inner, entry.data, entry.size))
    return Download("moodle", list(attempts.values()), ignored)


# ---- which attempt counts, and was it late -----------------------------------------------


@dataclass(frozen=True)
class Lateness:
    status: str  # "on_time", "late", "no_deadline", "unknown"
    note: str = ""


@dataclass
class Chosen:
    """The attempt that counts for one learner, with what the LMS says about its time."""

    attempt: Attempt
    attempts: list[Attempt]  # every attempt of this learner, oldest first
    lateness: Lateness
    learner: str = ""  # the name in every output (the class list's when matched)
    member: ClassMember | None = None


def choose_attempts(download: Download, deadline: datetime | None) -> list[Chosen]:
    """Per learner the attempt that counts. Brightspace (every attempt, each with its time): the
    newest at or before the deadline; when every attempt is after it, the newest, marked late.
    Canvas: its one attempt, late when Canvas marked it so (Canvas's own due date). Moodle: its
    one attempt; the download holds no time, so lateness is not judged. The learner's own
    `created_at` is never used."""
    groups: dict[str, list[Attempt]] = {}
    for attempt in download.attempts:
        groups.setdefault(attempt.key, []).append(attempt)
    chosen = []
    for attempts in groups.values():
        attempts.sort(key=lambda a: (a.submitted_at or datetime.min, a.entry))
        if download.lms == "brightspace":
            if deadline is None:
                chosen.append(Chosen(attempts[-1], attempts, Lateness("no_deadline")))
                continue
            naive = deadline.replace(tzinfo=None)
            in_time = [a for a in attempts if a.submitted_at is not None and a.submitted_at <= naive]
            if in_time:
                chosen.append(Chosen(in_time[-1], attempts, Lateness("on_time")))
            else:
                chosen.append(Chosen(attempts[-1], attempts, Lateness("late")))
        elif download.lms == "canvas":
            attempt = attempts[-1]
            chosen.append(Chosen(attempt, attempts, Lateness("late" if attempt.late_marker else "on_time")))
        else:
            chosen.append(Chosen(attempts[-1], attempts, Lateness("unknown")))
    return chosen


def choose_file(files: Sequence[DownloadFile]) -> tuple[DownloadFile | None, str | None]:
    """The file to grade of an attempt: its one .json export, else its one .py file, else main.py;
    or why there is none."""
    code = [f for f in files if PurePosixPath(f.path).suffix.lower() in CODE_SUFFIXES]
    exports = [f for f in code if f.path.lower().endswith(".json")]
    scripts = [f for f in code if f.path.lower().endswith(".py")]
    if len(exports) == 1:
        return exports[0], None
    if len(scripts) == 1 and not exports:
        return scripts[0], None
    main = [f for f in scripts if PurePosixPath(f.path).name == "main.py"]
    if len(main) == 1:
        return main[0], None
    if not code:
        return None, f"no .py or .json file among: {', '.join(f.path for f in files)[:300]}"
    return None, f"several files could be the work ({', '.join(f.path for f in code)[:300]}); name one main.py"


def slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^A-Za-z0-9]+", "-", plain).strip("-")[:50] or "x"


def stage(chosen: Chosen, out_dir: Path) -> tuple[Path, str | None]:
    """Write the file that counts to `<out>/lms-inzendingen/`, under a name of our own that stays
    the same from run to run (so results resume); returns its path and, when the attempt has no
    file to grade, the reason (the path is then a placeholder that is never written)."""
    attempt = chosen.attempt
    # The exact key's hash too: "Zoë Çelik" and "Zoe Celik" are two learners, with two folders.
    digest = hashlib.sha256(attempt.key.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    folder = out_dir / STAGED_DIR / f"{attempt.lms}-{slug(attempt.key)}-{digest}"
    when = attempt.submitted_at.strftime("%Y%m%d-%H%M") if attempt.submitted_at else "laatste"
    picked, problem = choose_file(attempt.files)
    if picked is None:
        return folder / f"{when}-geen-bestand.py", problem
    suffix = PurePosixPath(picked.path).suffix.lower()
    target = folder / f"{when}-{slug(PurePosixPath(picked.path).stem)}{suffix}"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        current = target.read_bytes() if not target.is_symlink() else None
    except OSError:
        current = None
    if current != picked.data:
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(picked.data)
        os.replace(temporary, target)
    return target, None


# ---- class lists ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ClassMember:
    key: str  # what a download entry is matched on: Canvas ID, Moodle participant id, Brightspace name key
    name: str  # as the teacher knows the learner
    ids: dict[str, str]  # the columns the LMS's import needs (OrgDefinedId, Username, SIS User ID, ...)
    row: dict[str, str] = field(default_factory=dict)  # Moodle: the worksheet row as it is


@dataclass(frozen=True)
class ClassList:
    lms: str
    members: list[ClassMember]
    header: list[str] = field(default_factory=list)  # Moodle: the worksheet's own headers, in its language


def _read_csv(path: Path) -> list[list[str]]:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise LmsError(f"cannot read the class list {str(path)!r}: {error.strerror or error}") from None
    if len(data) > 16 * 1024 * 1024:
        raise LmsError(f"the class list {str(path)!r} is larger than 16 MiB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LmsError(f"the class list {str(path)!r} is not UTF-8 text") from None
    lines = text.splitlines()[:3]
    delimiter = ";" if sum(line.count(";") for line in lines) > sum(line.count(",") for line in lines) else ","
    if "\t" in (lines[0] if lines else "") and "," not in lines[0] and ";" not in lines[0]:
        delimiter = "\t"
    try:
        return [row for row in csv.reader(io.StringIO(text), delimiter=delimiter)]
    except csv.Error as error:
        raise LmsError(f"the class list {str(path)!r} is not readable CSV ({error})") from None


def name_key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).casefold().replace(",", " ").split())


def _column(header: list[str], *names: str) -> int | None:
    lowered = [cell.strip().casefold() for cell in header]
    for name in names:
        if name.casefold() in lowered:
            return lowered.index(name.casefold())
    return None


def read_class_list(path: Path, lms: str) -> ClassList:
    rows = _read_csv(path)
    if not rows:
        raise LmsError(f"the class list {str(path)!r} is empty")
    header = [cell.strip() for cell in rows[0]]
    members = []
    if lms == "brightspace":
        org, user = _column(header, "OrgDefinedId"), _column(header, "Username")
        last, first = _column(header, "Last Name"), _column(header, "First Name")
        if org is None or last is None or first is None:
            raise LmsError(f"{str(path)!r} is not a Brightspace grades export: it needs the columns OrgDefinedId, "
                           "Last Name and First Name (Grades > Export, key field Both, with the user details)")
        for row in rows[1:]:
            if len(row) <= max(org, last, first) or not row[org].strip():
                continue
            full = f"{row[first].strip()} {row[last].strip()}".strip()
            ids = {"OrgDefinedId": row[org].strip().lstrip("#"),
                   "Username": row[user].strip().lstrip("#") if user is not None and user < len(row) else ""}
            members.append(ClassMember(name_key(full), full, ids, {"last": row[last].strip(),
                                                                   "first": row[first].strip()}))
    elif lms == "canvas":
        student, ident = _column(header, "Student"), _column(header, "ID")
        if student is None or ident is None:
            raise LmsError(f"{str(path)!r} is not a Canvas gradebook export: it needs the columns Student and ID "
                           "(Grades > Export)")
        optional = {name: _column(header, name) for name in ("SIS User ID", "SIS Login ID", "Section")}
        for row in rows[1:]:
            if len(row) <= max(student, ident) or "Points Possible" in row[0] or not row[ident].strip().isdigit():
                continue
            ids = {name: row[index].strip() if index is not None and index < len(row) else ""
                   for name, index in optional.items()}
            members.append(ClassMember(row[ident].strip(), row[student].strip(), ids))
    else:
        ident = _column(header, *MOODLE_IDENTIFIER.values())
        full_column = _column(header, *MOODLE_FULL_NAME.values())
        if ident is None:
            raise LmsError(f"{str(path)!r} is not a Moodle grading worksheet: it needs the column Identifier "
                           "(Identificatie in Dutch); download it under Assignment > View all submissions > "
                           "Download grading worksheet")
        for row in rows[1:]:
            if len(row) <= ident:
                continue
            found = re.search(r"(\d+)\s*$", row[ident])
            if not found:
                continue
            name = row[full_column].strip() if full_column is not None and full_column < len(row) else ""
            members.append(ClassMember(found.group(1), name, {}, dict(zip(header, row))))
    if not members:
        raise LmsError(f"the class list {str(path)!r} holds no learners")
    return ClassList(lms, members, header)


def match_class_list(chosen: list[Chosen], class_list: ClassList | None) -> tuple[list[ClassMember], list[Chosen]]:
    """Fill in each learner's class-list entry and name; returns who is on the list but handed
    in nothing (missing), and which hand-ins matched no one."""
    if class_list is None:
        for item in chosen:
            item.learner = item.attempt.name
        _disambiguate(chosen)
        return [], []
    by_key = {member.key: member for member in class_list.members}
    unmatched = []
    for item in chosen:
        attempt = item.attempt
        member = by_key.get(attempt.key if attempt.lms != "brightspace" else name_key(attempt.name))
        if member is None and attempt.lms == "brightspace":
            member = _brightspace_member(attempt.name, class_list.members)
        item.member = member
        item.learner = member.name if member is not None and member.name else attempt.name
        if member is None:
            unmatched.append(item)
    _disambiguate(chosen)
    matched = {id(item.member) for item in chosen if item.member is not None}
    missing = [member for member in class_list.members if id(member) not in matched]
    return missing, unmatched


def _brightspace_member(shown: str, members: Sequence[ClassMember]) -> ClassMember | None:
    """Brightspace's download shows a display name only: "First Last", "Last, First", or with a
    username or student number in it. One member whose forms fit, or none."""
    key = name_key(shown)
    fits = []
    for member in members:
        first, last = member.row.get("first", ""), member.row.get("last", "")
        forms = {name_key(f"{first} {last}"), name_key(f"{last}, {first}"), name_key(f"{last} {first}")}
        username = member.ids.get("Username", "")
        if key in forms or (username and any(key == name_key(f"{username} {form}") or key == name_key(f"{form} {username}")
                                             for form in forms)):
            fits.append(member)
    return fits[0] if len(fits) == 1 else None


def _disambiguate(chosen: list[Chosen]) -> None:
    """Two learners with the same name get their LMS id after it: a grade is never shared."""
    counts: dict[str, int] = {}
    for item in chosen:
        counts[item.learner] = counts.get(item.learner, 0) + 1
    for item in chosen:
        if counts[item.learner] > 1:
            item.learner = f"{item.learner} ({item.attempt.key})"


# ---- writing what each LMS imports ------------------------------------------------------


MOODLE_IDENTIFIER = {"en": "Identifier", "nl": "Identificatie"}
MOODLE_PARTICIPANT = {"en": "Participant ", "nl": "Deelnemer "}
MOODLE_FULL_NAME = {"en": "Full name", "nl": "Volledige naam"}
MOODLE_GRADE = {"en": "Grade", "nl": "Cijfer"}
MOODLE_MAXIMUM = {"en": "Maximum Grade", "nl": "Maximumcijfer"}
MOODLE_MODIFIED_GRADE = {"en": "Last modified (grade)", "nl": "Laatst gewijzigd (beoordeling)"}
MOODLE_FEEDBACK = {"en": "Feedback comments", "nl": "Feedback als opmerking"}
IMPORT_FILES = {"brightspace": "brightspace-cijfers.csv", "canvas": "canvas-cijfers.csv",
                "moodle": "moodle-beoordelingsblad.csv"}
FEEDBACK_PACKAGES = {lms: f"{lms}-terugkoppeling.zip" for lms in LMS_NAMES}
FEEDBACK_PAGE = "terugkoppeling.html"


@dataclass(frozen=True)
class LmsGrade:
    """What goes back for one learner: the grade (None: nothing gradable), a one-paragraph
    Dutch comment, and the feedback page."""

    chosen: Chosen
    grade: LearnerGrade | None
    comment: str
    page: bytes | None


def _csv_text(rows: Sequence[Sequence[object]], delimiter: str = ",", formulas: bool = True) -> str:
    """CSV for an LMS; `formulas`: cells a spreadsheet would evaluate get a leading "'" (files a
    teacher may open first). Moodle's worksheet is read by Moodle as text, where a "'" would end up
    in the grade or comment: there only hidden characters are escaped."""
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\r\n", delimiter=delimiter)
    for row in rows:
        writer.writerow([safe_cell(cell) if formulas else visible_text("" if cell is None else str(cell),
                                                                       keep_lines=False) for cell in row])
    return output.getvalue()


def brightspace_import(grades: Sequence[LmsGrade], item: str) -> tuple[str, list[str]]:
    """`OrgDefinedId,Username,<item> Points Grade <Numeric MaxPoints:10>,End-of-Line Indicator`:
    the grade 1.0-10.0 as points of 10, ids with Brightspace's own leading '#'. Learners without
    an OrgDefinedId (not on the class list) cannot be imported: named in the notes."""
    rows: list[list[object]] = [["OrgDefinedId", "Username", f"{item} Points Grade <Numeric MaxPoints:10>",
                                 "End-of-Line Indicator"]]
    notes = []
    for entry in grades:
        member = entry.chosen.member
        if member is None:
            notes.append(f"{entry.chosen.learner}: not on the class list, so not in {IMPORT_FILES['brightspace']}")
            continue
        rows.append([f"#{member.ids['OrgDefinedId']}", f"#{member.ids['Username']}" if member.ids["Username"] else "",
                     format_grade(entry.grade.grade, False) if entry.grade is not None else "", "#"])
    return _csv_text(rows), notes


def canvas_import(grades: Sequence[LmsGrade], item: str) -> str:
    """`Student,ID,SIS User ID,SIS Login ID,Section,<item>` with a `Points Possible` row of 10;
    Canvas matches a learner by ID, which its download carries."""
    rows: list[list[object]] = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", item],
                                ["    Points Possible", "", "", "", "", "10"]]
    for entry in grades:
        member = entry.chosen.member
        ids = member.ids if member is not None else {}
        rows.append([entry.chosen.learner, entry.chosen.attempt.key, ids.get("SIS User ID", ""),
                     ids.get("SIS Login ID", ""), ids.get("Section", ""),
                     format_grade(entry.grade.grade, False) if entry.grade is not None else ""])
    return _csv_text(rows)


def moodle_worksheet(grades: Sequence[LmsGrade], class_list: ClassList | None, language: str) -> str:
    """The grading worksheet Moodle imports: with the teacher's own downloaded worksheet as class
    list, exactly its columns and rows (in its language, its `Last modified (grade)` kept) with
    the grade and the feedback comment filled in; without one, the columns Moodle needs in
    `language`. Grades with a decimal comma in Dutch, as Moodle reads them for a Dutch user."""
    comma = language == "nl"
    by_key = {entry.chosen.attempt.key: entry for entry in grades}
    if class_list is not None and class_list.header:
        header = class_list.header
        grade_column = _column(header, *MOODLE_GRADE.values(), "Beoordeling")
        feedback_column = _column(header, *MOODLE_FEEDBACK.values())
        rows: list[list[object]] = [list(header)]
        for member in class_list.members:
            row: list[object] = [member.row.get(name, "") for name in header]
            entry = by_key.get(member.key)
            if entry is not None:
                if grade_column is not None and entry.grade is not None:
                    row[grade_column] = format_grade(entry.grade.grade, comma)
                if feedback_column is not None:
                    row[feedback_column] = entry.comment
            rows.append(row)
        return "\ufeff" + _csv_text(rows, formulas=False)
    rows = [[MOODLE_IDENTIFIER[language], MOODLE_FULL_NAME[language], MOODLE_GRADE[language],
             MOODLE_MAXIMUM[language], MOODLE_MODIFIED_GRADE[language], MOODLE_FEEDBACK[language]]]
    for entry in grades:
        rows.append([f"{MOODLE_PARTICIPANT[language]}{entry.chosen.attempt.key}", entry.chosen.learner,
                     format_grade(entry.grade.grade, comma) if entry.grade is not None else "",
                     format_grade(Decimal(10), comma), "",
                     entry.comment])
    return "\ufeff" + _csv_text(rows, formulas=False)


def feedback_package(grades: Sequence[LmsGrade], download: Download) -> bytes:
    """The feedback pages packed as the LMS's bulk feedback upload takes them: Brightspace and
    Moodle in the download's own folder names, Canvas as files named like the download's."""
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for entry in sorted(grades, key=lambda g: g.chosen.attempt.entry):
            if entry.page is None:
                continue
            attempt = entry.chosen.attempt
            if download.lms == "canvas":
                name = f"{attempt.entry}_{FEEDBACK_PAGE}"
            else:
                name = f"{attempt.entry}/{FEEDBACK_PAGE}"
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, entry.page, compress_type=zipfile.ZIP_DEFLATED)
        if download.lms == "brightspace" and download.index_html is not None:
            info = zipfile.ZipInfo("index.html", date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, download.index_html)
    return output.getvalue()


LATENESS_NL = {"on_time": "op tijd", "late": "te laat", "no_deadline": "geen deadline opgegeven",
               "unknown": "onbekend: Moodle geeft geen inlevertijd"}


def overview_csv(chosen: Sequence[Chosen], missing: Sequence[ClassMember], unmatched: Sequence[Chosen],
                 staged: dict[int, Path]) -> str:
    """lms-overzicht.csv: per learner the LMS id, the file graded, when (where the LMS says),
    late or not, every attempt, and whether they are on the class list; then who is missing."""
    rows: list[list[object]] = [["leerling", "lms-id", "bestand", "ingeleverd op", "te laat", "pogingen",
                                 "op de klaslijst"]]
    unmatched_ids = {id(item) for item in unmatched}
    for item in sorted(chosen, key=lambda c: (c.learner.casefold(), c.learner)):
        attempt = item.attempt
        rows.append([item.learner, attempt.key, str(staged.get(id(item), "")),
                     attempt.submitted_at.strftime("%Y-%m-%d %H:%M") if attempt.submitted_at else "",
                     LATENESS_NL[item.lateness.status],
                     "; ".join(a.submitted_at.strftime("%Y-%m-%d %H:%M") if a.submitted_at else a.entry
                               for a in item.attempts),
                     "nee" if id(item) in unmatched_ids else ("ja" if item.member is not None else "")])
    for member in missing:
        rows.append([member.name, member.key if member.key.isdigit() else member.ids.get("OrgDefinedId", ""),
                     "", "", "", "niets ingeleverd", "ja"])
    return "\ufeff" + _csv_text(rows)


# ---- one LMS run: from the download to the files the LMS takes back ------------------------


@dataclass
class LmsRun:
    download: Download
    chosen: list[Chosen]
    class_list: ClassList | None
    missing: list[ClassMember]
    unmatched: list[Chosen]
    staged: dict[int, Path]  # id(chosen) -> the file graded
    problems: dict[int, str]  # id(chosen) -> why there is nothing to grade
    deadline: datetime | None
    notes: list[str]

    def learner_of(self, submission_path: str) -> str | None:
        path = submission_path.split("#", 1)[0]
        for item in self.chosen:
            if str(self.staged[id(item)]) == path:
                return item.learner
        return None


def prepare(source: Path, lms: str, out_dir: Path, class_list_path: Path | None,
            deadline: datetime | None) -> LmsRun:
    """Read the download and the class list, choose the attempt per learner, and stage the file
    of each in `--out`."""
    download = read_download(source, lms)
    class_list = read_class_list(class_list_path, lms) if class_list_path is not None else None
    chosen = choose_attempts(download, deadline)
    missing, unmatched = match_class_list(chosen, class_list)
    staged, problems = {}, {}
    for item in chosen:
        path, problem = stage(item, out_dir)
        staged[id(item)] = path.resolve()
        if problem is not None:
            problems[id(item)] = problem
    notes = []
    if deadline is not None and lms == "canvas":
        notes.append("Canvas's download marks late work itself (_LATE_, by the due date set in Canvas); "
                     "--deadline is not used for it")
    if deadline is not None and lms == "moodle":
        notes.append("Moodle's download holds no submission time: lateness is not judged (see Moodle's own "
                     "grading table)")
    if download.ignored:
        shown = ", ".join(download.ignored[:5]) + (f" and {len(download.ignored) - 5} more"
                                                  if len(download.ignored) > 5 else "")
        notes.append(f"skipped {len(download.ignored)} entries that are no learner's file in a {lms} download: "
                     f"{shown}")
    for item in unmatched:
        notes.append(f"not on the class list: {item.attempt.name} ({item.attempt.entry})")
    for member in missing:
        notes.append(f"on the class list but nothing handed in: {member.name}")
    return LmsRun(download, chosen, class_list, missing, unmatched, staged, problems, deadline, notes)


def dutch_comment(grade: LearnerGrade | None, reason: str | None, lateness: Lateness) -> str:
    """The feedback comment that goes into the LMS's own comment field (Moodle's worksheet)."""
    if grade is None:
        text = f"Je inzending kon niet worden nagekeken: {reason}." if reason else "Geen cijfer."
    else:
        text = (f"Cijfer {format_grade(grade.grade, True)} ({'voldoende' if grade.passed else 'onvoldoende'}): "
                f"{format_points(grade.points, True)} van {grade.max_points} punten.")
    if lateness.status == "late":
        text += " Te laat ingeleverd."
    return text + " Zie de terugkoppeling in het bestand erbij."


def report_section(run: LmsRun, language: str) -> str:
    """A section for report.html: who is missing, which hand-in matched no one, lateness."""
    nl = language == "nl"
    lines = []
    rows = []
    for item in sorted(run.chosen, key=lambda c: (c.learner.casefold(), c.learner)):
        when = item.attempt.submitted_at.strftime("%Y-%m-%d %H:%M") if item.attempt.submitted_at else ""
        late = LATENESS_NL[item.lateness.status] if nl else item.lateness.status.replace("_", " ")
        rows.append(f"<tr><td>{e(item.learner)}</td><td>{e(item.attempt.key)}</td><td>{e(when)}</td>"
                    f"<td>{e(late)}</td><td class=\"num\">{len(item.attempts)}</td></tr>")
    head = (("Leerling", "LMS-id", "Ingeleverd op", "Te laat", "Pogingen") if nl else
            ("Learner", "LMS id", "Handed in", "Late", "Attempts"))
    if run.missing:
        label = "Op de klaslijst, niets ingeleverd" if nl else "On the class list, nothing handed in"
        lines.append(f"<p><b>{e(label)}:</b> {e(', '.join(member.name for member in run.missing))}</p>")
    if run.unmatched:
        label = "Niet op de klaslijst" if nl else "Not on the class list"
        lines.append(f"<p><b>{e(label)}:</b> {e(', '.join(item.attempt.entry for item in run.unmatched))}</p>")
    title = f"Uit {run.download.lms}" if nl else f"From {run.download.lms}"
    table = "".join(f"<th>{e(h)}</th>" for h in head)
    return (f"<h2>{e(title)}</h2>{''.join(lines)}<div class=\"table-scroll\"><table><thead><tr>{table}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>\n")


def write_lms_outputs(run: LmsRun, lessons: Sequence, out_dir: Path, options, item: str,
                      moodle_language: str) -> list[str]:
    """The LMS's import file, its feedback package and lms-overzicht.csv, beside the gradebook.
    `lessons`: runner.offline.outputs.LessonBatch, the same the other outputs were written from."""
    from runner.offline.grading import batch
    from runner.offline.outputs import write as outputs
    from runner.offline.outputs.class_view import class_view
    from runner.offline.outputs.feedback import FEEDBACK_DIR, feedback_file_names

    corrections = outputs.read_lesson_corrections(out_dir, [lesson.bundle for lesson in lessons])
    results: dict[str, ResultRecord] = {}
    grade_of: dict[str, LearnerGrade | None] = {}
    notes = []
    if len(lessons) == 1 and options.counted_lessons is None:
        grading = outputs.lesson_grading(lessons[0].bundle, corrections, options.pass_percent)
        for learner in class_view(lessons[0].results, grading).learners:
            results[learner.result.learner] = learner.result
            grade_of[learner.result.learner] = learner.grade
    else:
        module_run = outputs.module_totals(lessons, options, corrections)
        modules = module_run.totals
        for lesson in lessons:
            for learner in module_run.views[lesson.bundle.lesson].learners:
                results.setdefault(learner.result.learner, learner.result)
        if modules:
            grade_of = dict(modules[0].totals)
            if len(modules) > 1:
                notes.append(f"{IMPORT_FILES[run.download.lms]} carries the total of module "
                             f"{modules[0].counted.module} only")
    names = feedback_file_names(list(results))
    graded = []
    for chosen in run.chosen:
        own = results.get(chosen.learner)
        page = None
        if own is not None:
            try:
                page = (out_dir / FEEDBACK_DIR / names[chosen.learner]).read_bytes()
            except (OSError, KeyError):
                page = None
        reason = run.problems.get(id(chosen)) or (reason_text(own.message) if own is not None and
                                                   not own.graded else None)
        grade = grade_of.get(chosen.learner)
        graded.append(LmsGrade(chosen, grade, dutch_comment(grade, reason, chosen.lateness), page))
    lms = run.download.lms
    if lms == "brightspace":
        if run.class_list is None:
            notes.append(f"{IMPORT_FILES[lms]} not written: Brightspace imports need each learner's OrgDefinedId, "
                         "which only a class list has (--class-list: Grades > Export)")
        else:
            text, more = brightspace_import(graded, item)
            notes += more
            batch.write_atomically(out_dir / IMPORT_FILES[lms], text.encode("utf-8"))
    elif lms == "canvas":
        batch.write_atomically(out_dir / IMPORT_FILES[lms], canvas_import(graded, item).encode("utf-8"))
    else:
        batch.write_atomically(out_dir / IMPORT_FILES[lms],
                               moodle_worksheet(graded, run.class_list, moodle_language).encode("utf-8"))
    batch.write_atomically(out_dir / FEEDBACK_PACKAGES[lms], feedback_package(graded, run.download))
    batch.write_atomically(out_dir / "lms-overzicht.csv",
                           overview_csv(run.chosen, run.missing, run.unmatched, run.staged).encode("utf-8"))
    return notes
