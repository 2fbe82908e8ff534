"""The built-in `random` player as an outside agent: uniform among the legal moves, drawn with the
lab's generator from the state the lab gives this seat, so that it replays `random` move for move
(the lab lists the legal moves in the order its own agents see them)."""
from wonderlab import Agent, LabRng


class RandomAgent(Agent):
    name = "py-random"
    version = "1.0.0"

    def new_game(self, info):
        self.rng = LabRng.from_state(info["rng"])

    def act(self, observation, legal, info):
        return legal[self.rng.int(len(legal))]["action"]
