"""The LMS's own export that links learners to the ids its imports need: Brightspace's grades
export, Canvas's gradebook export, Moodle's grading worksheet (whose columns the Moodle import
writes back)."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from runner.offline.lms.download import LmsError

MOODLE_IDENTIFIER = {"en": "Identifier", "nl": "Identificatie"}


MOODLE_PARTICIPANT = {"en": "Participant ", "nl": "Deelnemer "}


MOODLE_FULL_NAME = {"en": "Full name", "nl": "Volledige naam"}


MOODLE_GRADE = {"en": "Grade", "nl": "Cijfer"}


MOODLE_MAXIMUM = {"en": "Maximum Grade", "nl": "Maximumcijfer"}


MOODLE_MODIFIED_GRADE = {"en": "Last modified (grade)", "nl": "Laatst gewijzigd (beoordeling)"}


MOODLE_FEEDBACK = {"en": "Feedback comments", "nl": "Feedback als opmerking"}


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


def column_index(header: list[str], *names: str) -> int | None:
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
        org, user = column_index(header, "OrgDefinedId"), column_index(header, "Username")
        last, first = column_index(header, "Last Name"), column_index(header, "First Name")
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
        student, ident = column_index(header, "Student"), column_index(header, "ID")
        if student is None or ident is None:
            raise LmsError(f"{str(path)!r} is not a Canvas gradebook export: it needs the columns Student and ID "
                           "(Grades > Export)")
        optional = {name: column_index(header, name) for name in ("SIS User ID", "SIS Login ID", "Section")}
        for row in rows[1:]:
            if len(row) <= max(student, ident) or "Points Possible" in row[0] or not row[ident].strip().isdigit():
                continue
            ids = {name: row[index].strip() if index is not None and index < len(row) else ""
                   for name, index in optional.items()}
            members.append(ClassMember(row[ident].strip(), row[student].strip(), ids))
    else:
        ident = column_index(header, *MOODLE_IDENTIFIER.values())
        full_column = column_index(header, *MOODLE_FULL_NAME.values())
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
