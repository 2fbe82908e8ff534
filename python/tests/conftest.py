import pytest

import wonderlab


@pytest.fixture
def games():
    made = []

    def make(**kwargs):
        v = wonderlab.VectorGames(**kwargs)
        made.append(v)
        return v

    yield make
    for v in made:
        v.close()
