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

By step: `download` (read_download), `class_list` (read_class_list), `attempts`
(choose_attempts, staging, matching the class list), `imports` (the grade files and feedback
packages), `lms_run` (one run of all of it, as `python -m runner grade --lms` does).
"""

from runner.offline.lms.attempts import Chosen, Lateness, choose_attempts
from runner.offline.lms.class_list import ClassList, ClassMember, read_class_list
from runner.offline.lms.download import LMS_NAMES, Attempt, Download, DownloadFile, LmsError, read_download
from runner.offline.lms.imports import FEEDBACK_PACKAGES, IMPORT_FILES
from runner.offline.lms.lms_run import LmsRun, prepare, report_section, write_lms_outputs

__all__ = [
    "FEEDBACK_PACKAGES", "IMPORT_FILES", "LMS_NAMES", "Attempt", "Chosen", "ClassList", "ClassMember", "Download",
    "DownloadFile", "Lateness", "LmsError", "LmsRun", "choose_attempts", "prepare", "read_class_list",
    "read_download", "report_section", "write_lms_outputs",
]
