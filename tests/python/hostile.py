"""hostile.py DIR… — every .tlop of tests/bad/*/ (and the inputs its .gen scripts make)
through the package: loaded, then each algorithm evaluated, explained and simplified and
each claim proved; a tlop.Error is the expected answer, a crash of the interpreter the
failure. Run in a child process by test_heavy.py; prints one line per file."""
import sys
import warnings

import tlop

warnings.simplefilter("ignore")
n = errors = 0
for path in sys.argv[1:]:
    n += 1
    try:
        m = tlop.load(path, max_terms=1e6)
        for a in m.algorithms[:3]:
            vals = {p: 64 for p in m.params(a)}
            for call in (lambda: m.eval(a, **vals), lambda: m.explain(a, **vals),
                         lambda: m.simplify(a)):
                try:
                    call()
                except tlop.Error:
                    errors += 1
        for c in m.claims[:2]:
            try:
                c.prove(timeout=0.5)
            except tlop.Error:
                errors += 1
    except tlop.Error:
        errors += 1
    print(path, flush=True)
print(f"{n} files, {errors} errors raised as tlop.Error")
