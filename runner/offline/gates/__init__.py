"""The gates a lesson's hidden tests must pass before a build or a release: quality and mutation.

`quality_gate` grades the known solutions and mistakes and checks each verdict; `mutants` makes
single-change mutants of the reference solution and `mutate` grades each (one forked,
memory-capped child per mutant: `forked`), so a mutant no test kills is reported.
"""
