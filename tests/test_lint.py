"""The code base is ruff-clean (the same check the developers run)."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_ruff_check_is_clean():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", str(REPO)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
