# after: solution.py
# caught by: hoogstens drie spaties ervoor

ATX_HEADING = re.compile(r"\s*(#{1,6})(?:[ \t](.*))?")
