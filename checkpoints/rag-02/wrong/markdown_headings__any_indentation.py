# after: solution.py

ATX_HEADING = re.compile(r"\s*(#{1,6})(?:[ \t](.*))?")
