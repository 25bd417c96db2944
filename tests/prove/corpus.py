#!/usr/bin/env python3
"""corpus.py [--soundness] TLOP CORPUS — the prover's targets on a labelled corpus (tests/prove/README.md).

Runs `tlop prove --format json CORPUS`; each claim is labelled by the comment line above it,
`# true: why` or `# false: why`. Fails when a false claim is proved, when fewer than 85 % of
the true claims are proved, or when fewer than 85 % of the false ones are refuted with a
counterexample that holds: its platform (printed as tlop source in the JSON) and point are
given to `tlop eval`, which must price the two sides as printed and break the relation.
Prints the figures; exit 0 on success, 1 on a failure."""
import json
import os
import re
import subprocess
import sys
import tempfile

TARGET = 0.85
RELATIONS = (">=", "<=", "=", ">", "<")


def labels(path):
    """Line number of each claim → (true?, reason), from the comment above it."""
    out, label = {}, None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = re.match(r"#\s*(true|false):\s*(.*)", line)
            if m:
                label = (m.group(1) == "true", m.group(2).strip())
            elif line.startswith("claim "):
                if label is None:
                    sys.exit(f"{path}:{number}: a claim without a '# true:' or '# false:' label")
                out[number], label = label, None
    return out


def split_claim(text):
    """'lhs REL rhs [when facts]' → (lhs, rel, rhs), splitting at the top-level relation."""
    text = re.sub(r"^strict\s+", "", text.strip().rstrip(";"))
    text = re.split(r"\s+when\s+", text)[0]
    depth = 0
    for i, c in enumerate(text):
        depth += c in "([" and 1 or 0
        depth -= c in ")]" and 1 or 0
        if depth == 0 and text[i] == " ":
            for rel in RELATIONS:
                if text.startswith(" " + rel + " ", i):
                    return text[:i].strip(), rel, text[i + len(rel) + 2:].strip()
    raise ValueError(f"no relation in {text!r}")


def broken(rel, left, right):
    tol = 1e-9 * max(1.0, abs(left), abs(right))
    return {">=": left < right - tol, "<=": left > right + tol, ">": left <= right + tol,
            "<": left >= right - tol, "=": abs(left - right) > tol}[rel]


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def check_counterexample(tlop, corpus_text, claim_text, cx):
    """None when the counterexample holds, else why not."""
    lhs, rel, rhs = split_claim(claim_text)
    model = "\n".join(l for l in corpus_text.splitlines() if not l.startswith("claim ")) + "\n" + cx["platform"]
    values = ",".join(part.replace(" ", "") for part in cx["at"].split(", ")) if cx["at"] else ""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "counterexample.tlop")
        with open(path, "w", encoding="utf-8") as f:
            f.write(model)
        sides = []
        for expr in (lhs, rhs):
            cmd = [tlop, "eval", "-f", "plain", "--platform", "counterexample", "-I", os.path.dirname(CORPUS)]
            if values:
                cmd += ["--set", values]
            run = subprocess.run(cmd + [path, expr], capture_output=True, text=True)
            if run.returncode != 0:
                return f"tlop eval {expr!r} failed: {run.stderr.strip()}"
            sides.append(float(run.stdout.split()[0]))
    if not (close(sides[0], cx["left"]) and close(sides[1], cx["right"])):
        return f"tlop eval gives {sides[0]!r} and {sides[1]!r}, the proof printed {cx['left']!r} and {cx['right']!r}"
    if not broken(rel, *sides):
        return f"left = {sides[0]!r} {rel} right = {sides[1]!r} holds there"
    return None


def main():
    global CORPUS
    # --soundness: only a false claim proved or a counterexample that fails is a failure (a
    # file of claims the prover was not built for: its figures are reported, not targets)
    soundness_only = "--soundness" in sys.argv
    tlop, CORPUS = [a for a in sys.argv[1:] if a != "--soundness"][:2]
    label = labels(CORPUS)
    with open(CORPUS, encoding="utf-8") as f:
        corpus_text = f.read()
    # a claim is decided in milliseconds; the long time bound keeps a loaded machine (or a
    # sanitizer build) from turning proofs into unknowns
    run = subprocess.run([tlop, "prove", "--timeout", "120", "--format", "json", CORPUS], capture_output=True,
                         text=True)
    proofs = [json.loads(l) for l in run.stdout.splitlines() if l.startswith("{")]
    if len(proofs) != len(label):
        sys.exit(f"{len(proofs)} proofs for {len(label)} claims; stderr: {run.stderr}")
    failures, true_proved, false_refuted = [], 0, 0
    for proof in proofs:
        m = re.match(r".*?:(\d+):\s+(.*)", proof["claim"])
        number, text = int(m.group(1)), m.group(2)
        is_true, why = label[number]
        verdict = proof["verdict"]
        where = f"{CORPUS}:{number}: {text}"
        if is_true:
            true_proved += verdict == "proved"
            if verdict != "proved":
                print(f"true, {verdict}: {where}  ({why})")
        elif verdict == "proved":
            failures.append(f"FALSE CLAIM PROVED: {where}  ({why})")
        elif verdict == "refuted":
            bad = check_counterexample(tlop, corpus_text, text, proof.get("counterexample") or {"platform": ""}) \
                if proof.get("counterexample") else "no counterexample in the JSON"
            if bad:
                failures.append(f"counterexample does not hold: {where}: {bad}")
            else:
                false_refuted += 1
        else:
            print(f"false, {verdict}: {where}  ({why})")
    ntrue = sum(1 for t, _ in label.values() if t)
    nfalse = len(label) - ntrue
    print(f"corpus: {ntrue} true claims, {true_proved} proved ({100 * true_proved / ntrue:.1f} %); "
          f"{nfalse} false, {false_refuted} refuted with a counterexample tlop eval confirms "
          f"({100 * false_refuted / nfalse:.1f} %)")
    if not soundness_only and true_proved < TARGET * ntrue:
        failures.append(f"fewer than {100 * TARGET:.0f} % of the true claims proved")
    if not soundness_only and false_refuted < TARGET * nfalse:
        failures.append(f"fewer than {100 * TARGET:.0f} % of the false claims refuted")
    for f in failures:
        print(f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
