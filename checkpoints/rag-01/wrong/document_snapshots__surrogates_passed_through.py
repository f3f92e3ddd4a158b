# after: solution.py
# caught by: tekst met een losse surrogaat geeft een ValueError
"""Bewust foute oplossing voor document_snapshots: Codeert met surrogatepass, zodat een losse surrogaat geen fout geeft.

De andere functies zijn goed; alleen checkpoint document_snapshots hoort te falen.
"""


def sha256_of(text):
    # encode() weigert losse surrogaten met UnicodeEncodeError, en dat is al een ValueError.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
