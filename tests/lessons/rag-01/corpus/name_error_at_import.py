# after: solution.py
print(dokument)  # a typo at the top level stops the module before any test
