import hashlib
import re

# Nothing written yet.
