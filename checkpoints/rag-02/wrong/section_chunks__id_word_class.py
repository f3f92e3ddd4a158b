# after: solution.py
# caught by: het document volgt de regels van rag-01
import re

# \w laat ook é, ß en Arabische cijfers toe; het id mag alleen A-Z, a-z, 0-9, _ en - bevatten.
ID_PATTERN = re.compile(r"[\w-]{1,40}")
