# after: solution.py
# caught by: de titel: spaties, tabs en het afsluitende rijtje hekjes

CLOSING_SEQUENCE = re.compile(r"[ \t]*#+$")
