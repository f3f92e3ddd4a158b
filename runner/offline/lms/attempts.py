"""Per learner the attempt that counts (the deadline rule), its one file to grade, who it is on the
class list, and that file written under a name of our own in `--out`."""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath

from runner.offline.lms.class_list import ClassList, ClassMember, name_key
from runner.offline.lms.download import CODE_SUFFIXES, STAGED_DIR, Attempt, Download, DownloadFile


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
