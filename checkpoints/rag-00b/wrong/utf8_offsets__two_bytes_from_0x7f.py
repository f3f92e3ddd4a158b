# after: solution.py
# caught by: twee bytes vanaf U+0080
"""Bewust foute oplossing voor utf8_offsets: laat twee bytes al bij U+007F beginnen.

De andere functies zijn goed; alleen checkpoint utf8_offsets (en wat die gebruikt) hoort te falen."""

TWO_BYTES_FROM = 0x7F
