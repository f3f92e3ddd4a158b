# after: solution.py

ATX_HEADING = re.compile(r" {0,3}(#{1,7})(?:[ \t](.*))?")
