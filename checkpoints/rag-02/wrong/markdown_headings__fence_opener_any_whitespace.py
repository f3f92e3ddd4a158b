# after: solution.py
# caught by: opener en sluiter met 0-3 spaties ervoor
# Een fence-opener met lstrip(): ook een tab of harde spatie ervoor telt als inspringing.

FENCE_OPENER = re.compile(r"\s{0,3}(`{3,}|~{3,})(.*)")
