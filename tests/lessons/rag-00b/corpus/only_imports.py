import unicodedata

# Nog niets geschreven.
