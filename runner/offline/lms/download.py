"""An assignment's bulk download from Brightspace, Canvas or Moodle (the zip, or the folder it
unpacks to), read as attempts: who (the LMS's own name and id), when and late (where the LMS
says), and the files. Everything in it is hostile: entries are read as data, never extracted by
the zip's own paths; links, special files, absolute and `..` paths are skipped; sizes are capped."""

from __future__ import annotations

import os
import re
import stat
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

from runner.offline.grading.submission import MAX_SUBMISSION_BYTES

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
