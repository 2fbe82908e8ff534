"""python/setup.sh installs torch only when asked (--train): the real script, with a fake .venv
whose pip writes down what it was asked to install."""
import shutil
import subprocess
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1]


def run_setup(tmp_path, *args):
    repo = tmp_path / "repo"
    if not repo.exists():
        (repo / "python").mkdir(parents=True)
        shutil.copy(PYTHON_DIR / "setup.sh", repo / "python" / "setup.sh")
        bin_dir = repo / ".venv" / "bin"
        bin_dir.mkdir(parents=True)
        # An executable .venv/bin/python: setup.sh makes no venv. Its pip only records its arguments.
        for name in ("python", "pip"):
            fake = bin_dir / name
            fake.write_text(f'#!/bin/sh\necho "$*" >> "{tmp_path}/pip.log"\n')
            fake.chmod(0o755)
    log = tmp_path / "pip.log"
    log.unlink(missing_ok=True)
    done = subprocess.run(["bash", str(repo / "python" / "setup.sh"), *args], capture_output=True, text=True)
    return done, log.read_text() if log.exists() else ""


def test_setup_installs_the_package_and_its_tests_and_torch_only_with_train(tmp_path):
    done, pip = run_setup(tmp_path)
    assert done.returncode == 0, done.stderr
    assert pip.split()[-2:] == ["-e", "python[test]"]
    done, pip = run_setup(tmp_path, "--train")
    assert done.returncode == 0, done.stderr
    assert pip.split()[-2:] == ["-e", "python[test,train]"]
    done, pip = run_setup(tmp_path, "--tarin")
    assert done.returncode == 2 and pip == ""
    assert "usage: bash python/setup.sh [--train]" in done.stderr

