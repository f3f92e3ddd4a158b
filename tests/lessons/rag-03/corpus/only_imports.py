import re

# Nog niets geschreven.
