"""The repository is self-contained: no file cites the team's notes or the papers' text files outside it (the
design and the specification live in docs/, the papers are cited bibliographically)."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(r"\bSPEC\b|DESIGN\.md|DESIGN page|shared/|seeds/|\w+_dp_\w+\.txt|_hadamard\.txt")
#: Tests whose job is to forbid these references in user-visible text (they spell them out on purpose).
GUARDS = ("tests/app/test_user_text.py", "tests/test_audit.py", "tests/test_descriptors.py",
          "tests/privacy/test_ledger.py", "tests/architecture/test_self_contained.py")


def outside_references():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    found = []
    for rel in files:
        if rel in GUARDS or not rel.endswith((".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".sh")):
            continue
        for number, line in enumerate((ROOT / rel).read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{rel}:{number}: {line.strip()[:120]}")
    return found


def test_the_detector_catches_each_form():
    spec, design, notes = "SP" + "EC", "DES" + "IGN", "sha" + "red/" + "se" + "eds"  # in parts: no citation here
    for line in (f"see {spec} §5.2", f"{design}.md public API", f"../{notes}/x.txt", "gaussian_dp_riemannian" + ".txt"):
        assert OUTSIDE.search(line), line
    assert not OUTSIDE.search("docs/specification.md §5.2 (Jiang et al. 2023)")


def test_no_reference_outside_the_repository():
    found = outside_references()
    assert not found, f"{len(found)} references outside the repository:\n" + "\n".join(found[:40])
