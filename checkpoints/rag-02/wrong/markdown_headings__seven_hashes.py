# after: solution.py
# caught by: 1 tot 6 hekjes, dan een spatie, een tab of het einde van de regel

ATX_HEADING = re.compile(r" {0,3}(#{1,7})(?:[ \t](.*))?")
