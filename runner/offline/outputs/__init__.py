"""What a graded class becomes for the teacher and the learners: files worked out from the records.

`write` writes every output of one lesson or module at once; `gradebook` the CSV, `report` the
Dutch (or English) teacher's report, `feedback` one page per learner, `similarity` the pairs of
submissions too alike to be independent. Nothing here grades: it reads `grading.records`.
"""
