"""The README's Python example runs as written (with fewer steps and a cheaper MCTS, so that it is quick)."""
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_example_runs():
    section = README.read_text().split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "range(1000)" in code and '"mcts:100"' in code
    code = code.replace("range(1000)", "range(60)").replace('"mcts:100"', '"mcts(it=5,time=0)"')
    scope: dict = {}
    exec(compile(code, "README.md", "exec"), scope)
    assert len(scope["returns"]) >= 2
    assert all(0.0 <= r <= 1.0 for r in scope["returns"])
    scope["env"].close()
