# after: solution.py
# caught by: het document volgt de regels van rag-01
import hashlib


def sha256_of(text):
    # errors="replace" maakt van een losse surrogaat een "?": zo'n tekst hoort een ValueError te geven.
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
