"""The environments against PettingZoo's and Gymnasium's own checkers, and their refusals."""
import re

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import wonderlab


@pytest.mark.parametrize("players", [3, 5, 7])
def test_aec_passes_pettingzoo_api_test(players):
    env = wonderlab.env(players=players, seed=players)
    api_test(env, num_cycles=400)
    env.close()


def test_aec_passes_pettingzoo_seed_test():
    seed_test(lambda: wonderlab.env(players=3), num_cycles=100)


def test_the_default_gymnasium_env_passes_check_env_without_a_warning():
    """Gymnasium's own checker on the env as made by default: it steps with an unmasked sampled
    action (an illegal one must be accepted), renders every declared mode (render_fps declared)
    and closes twice."""
    import warnings

    env = gymnasium.make("Wonderlab-v0")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    env.close()
    assert [str(w.message) for w in caught if "WARN:" in str(w.message)] == []


def play_aec(env, seed, rng):
    env.reset(seed=seed)
    env.final_rewards = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.final_rewards[agent] = reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


def test_aec_game_ends_with_rank_rewards_and_the_engine_result(tmp_path):
    env = play_aec(wonderlab.env(players=4), 11, np.random.default_rng(1))
    u = env.unwrapped
    record = u.record()
    vp = [s["total"] for s in record["result"]["scores"]]
    assert u.result["vp"] == vp
    ranks = np.array(u.result["rank"])
    # rank reward: 1 for first, 0 for last, and the seat with the most VP is first.
    assert [env.final_rewards[a] for a in u.possible_agents] == pytest.approx(list((4 - ranks) / 3))
    assert ranks[int(np.argmax(vp))] == 1
    assert record["config"]["seed"] == 11
    env.close()


def test_a_game_played_from_python_replays_in_the_engine(tmp_path):
    """The record written from Python is the lab's: `wonderlab replay` re-applies its moves from its seed and agrees."""
    import json
    import subprocess

    from wonderlab._server import server_command

    env = play_aec(wonderlab.env(players=5), 2024, np.random.default_rng(7))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(env.unwrapped.record()))
    env.close()
    replay = subprocess.run(server_command()[:-1] + ["replay", str(path)], capture_output=True, text=True)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert json.loads(replay.stdout) == {"matches": True, "differences": []}
    # And a changed move is caught, so the check can fail.
    record = json.loads(path.read_text())
    built = next(m for st in record["steps"] for m in st["moves"] if m["action"] == "build")
    built.update(action="discard", payLeft=0, payRight=0)
    path.write_text(json.dumps(record))
    changed = subprocess.run(server_command()[:-1] + ["replay", str(path)], capture_output=True, text=True)
    assert changed.returncode != 0


# A name as the server gives it: "build Lumber Yard", "discard Loom (Age II)".
NAME = r"\w+ [A-Za-z ]+(?: \(Age I+\))?"


def test_gymnasium_default_ends_the_episode_on_an_illegal_action():
    env = gymnasium.make("Wonderlab-v0", opponents=["random", "random"])
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    # The last rank's reward (rank reward: 0), as PettingZoo's TerminateIllegalWrapper gives the loser's.
    assert terminated and not truncated and reward == 0.0 and info["illegal_action"] == illegal
    assert re.fullmatch(rf"action {illegal} \({NAME}\) is not legal; legal: \d+ \({NAME}\)(, \d+ \({NAME}\))*", info["illegal"])
    # The episode has ended: it does not go on with a legal action, and reset starts another.
    with pytest.raises(wonderlab.WonderlabError, match=r"^the episode has ended: call reset\(\) before step\(\)$"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    obs, info = env.reset(seed=3)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.close()


def test_gymnasium_illegal_reward_is_the_reward_functions_last_rank_or_given():
    from wonderlab.dqn import rank_reward

    for kwargs, expected in (({"reward": rank_reward(3)}, -1.0), ({"illegal_reward": -5}, -5.0)):
        env = gymnasium.make("Wonderlab-v0", opponents=["random", "random"], **kwargs)
        obs, info = env.reset(seed=3)
        assert env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))[1] == expected
        env.close()


def test_gymnasium_raise_mode_names_the_action_and_the_legal_ones_by_card():
    env = gymnasium.make("Wonderlab-v0", opponents=["rulebased", "rulebased"], illegal_action="raise")
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    legal = [int(a) for a in np.flatnonzero(info["action_mask"])]
    named = ", ".join(f"{a} ({wonderlab.describe_action(a)})" for a in legal)
    with pytest.raises(wonderlab.WonderlabError) as refused:
        env.step(illegal)
    assert str(refused.value) == f"action {illegal} ({wonderlab.describe_action(illegal)}) is not legal; legal: {named}"
    assert re.fullmatch(rf"action {illegal} \({NAME}\) is not legal; legal: \d+ \({NAME}\)(, \d+ \({NAME}\))*", str(refused.value))
    # Nothing changed: a legal action still plays.
    env.step(legal[0])
    env.close()


def test_aec_illegal_action_names_the_agent_the_action_and_the_legal_ones_by_card():
    env = wonderlab.env(players=3)
    env.reset(seed=4)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(wonderlab.WonderlabError, match=rf"^player_0: action {illegal} \({NAME}\) is not legal; legal: \d+ \({NAME}\)(, \d+ \({NAME}\))*$"):
        env.step(illegal)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    env.close()


@pytest.mark.parametrize("illegal_action", ["terminate", "raise"])
def test_an_action_outside_the_space_is_an_error_naming_it_and_the_space(illegal_action):
    env = gymnasium.make("Wonderlab-v0", opponents=["random", "random"], illegal_action=illegal_action)
    env.reset(seed=3)
    with pytest.raises(wonderlab.WonderlabError, match=r"^action 9999 is outside the action space Discrete\(390\): the actions are 0\.\.389$"):
        env.step(9999)
    with pytest.raises(TypeError, match=r"^action: expected an integer index of Discrete\(390\), got 3\.5 \(float\)$"):
        env.step(3.5)
    env.close()
    aec = wonderlab.env(players=3)
    aec.reset(seed=3)
    with pytest.raises(wonderlab.WonderlabError, match=r"^player_0: action 9999 is outside the action space Discrete\(390\): the actions are 0\.\.389$"):
        aec.step(9999)
    with pytest.raises(wonderlab.WonderlabError, match=r"^player_0: action -1 is outside"):
        aec.step(-1)
    aec.close()


def test_describe_action_names_an_index_by_its_kind_and_card():
    assert wonderlab.describe_action(0) == "build Lumber Yard"
    assert wonderlab.describe_action(np.int64(2)) == "discard Lumber Yard"
    assert wonderlab.describe_action(389) == "buildDiscarded Builders Guild"
    # Loom is a card of Age I and of Age II: each action names its Age.
    looms = [n for n in wonderlab.action_names() if n.startswith("build Loom")]
    assert looms == ["build Loom (Age I)", "build Loom (Age II)"]
    with pytest.raises(wonderlab.WonderlabError, match=r"^action 390 is outside the action space Discrete\(390\)"):
        wonderlab.describe_action(390)


def test_gymnasium_illegal_action_policy_is_checked():
    with pytest.raises(ValueError, match=r"^illegal_action: expected one of 'terminate', 'raise', got 'lose'$"):
        wonderlab.WonderlabEnv(illegal_action="lose")


def test_the_gymnasium_player_count_comes_from_opponents():
    env = gymnasium.make("Wonderlab-v0", opponents=["random", "random"], players=3)
    assert env.observation_space.shape == (675,)  # 3 players (docs/python.md, "Observation")
    env.close()
    with pytest.raises(ValueError, match=r"^players: 4 given, but the Gymnasium env's player count comes from opponents: 1 \(the seat played from Python\) \+ len\(opponents\) = 3; for 4 players, give 3 opponent specs"):
        gymnasium.make("Wonderlab-v0", opponents=["random", "random"], players=4)


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: wonderlab.env(players="3"), TypeError, r"^players: expected an integer, got '3' \(str\)$"),
        (lambda: wonderlab.env(players=True), TypeError, r"^players: expected an integer, got True \(bool\)$"),
        (lambda: wonderlab.env(seed=1.5), TypeError, r"^seed: expected an integer, got 1\.5 \(float\)$"),
        (lambda: wonderlab.env(sides=None), TypeError, r"^sides: expected a string, got None \(NoneType\)$"),
        (lambda: wonderlab.env(render_mode="human"), ValueError, r"^render_mode: expected one of None, 'ansi', got 'human'$"),
        (lambda: wonderlab.WonderlabEnv(opponents="rulebased"), TypeError, r"^opponents: expected a list of agent specs such as \['rulebased', 'mcts:100'\], got 'rulebased'$"),
        (lambda: wonderlab.WonderlabEnv(opponents=["random", None]), TypeError, r"^opponents\[1\]: expected an agent spec \(a string\), got None \(NoneType\)$"),
        (lambda: wonderlab.WonderlabEnv(seat="0"), TypeError, r"^seat: expected an integer, got '0' \(str\)$"),
        (lambda: wonderlab.WonderlabEnv(players="3"), TypeError, r"^players: expected an integer, got '3' \(str\)$"),
        (lambda: wonderlab.WonderlabEnv(illegal_reward="-1"), TypeError, r"^illegal_reward: expected a number, got '-1' \(str\)$"),
        (lambda: wonderlab.VectorGames(games="8"), TypeError, r"^games: expected an integer, got '8' \(str\)$"),
        (lambda: wonderlab.VectorGames(seats=[None, 3, None]), TypeError, r"^seats\[1\]: expected an agent spec \(a string\) or None \(played from Python\), got 3 \(int\)$"),
    ],
)
def test_arguments_of_the_wrong_type_are_named_at_the_door(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_unknown_opponent_spec_gets_the_labs_message():
    with pytest.raises(wonderlab.WonderlabError, match=r"seats\.1: .*nosuchagent"):
        wonderlab.WonderlabEnv(opponents=["nosuchagent", "random"])


def test_server_illegal_action_changes_nothing(games):
    v = games(games=2, players=3)
    state = v.reset([1, 2])
    actions = wonderlab.random_actions(state, np.random.default_rng(0))
    bad = actions.copy()
    bad[1, 0] = int(np.flatnonzero(state.mask[1, 0] == 0)[0])
    with pytest.raises(wonderlab.WonderlabError, match=rf"game 1, seat 0: action \d+ \({NAME}\) is not legal; legal: \d+ \({NAME}\)"):
        v.step(bad)
    after = v.step(actions)
    assert not np.array_equal(after.observation, state.observation)


def test_a_dead_server_raises_instead_of_hanging(games):
    v = games(games=1, players=3)
    v.reset()
    v.server._proc.kill()
    v.server._proc.wait()
    with pytest.raises(wonderlab.ServerDied):
        v.step(np.zeros((1, 3), np.int32))


def test_the_record_of_a_game_in_play_is_refused_and_the_server_goes_on():
    env = wonderlab.env(players=3)
    env.reset(seed=5)
    with pytest.raises(wonderlab.WonderlabError, match=r"^record: game 0 is still in play \(age 1, turn 1\); its record is made once it ends, and no game of it has finished yet$"):
        env.unwrapped.record()
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    env.close()


def test_the_record_of_a_vector_game_in_play_points_to_the_finished_one(games):
    v = games(games=1, players=3, seats=[None, "random", "random"])
    state = v.reset()
    rng = np.random.default_rng(0)
    while not state.done[0]:
        state = v.step(wonderlab.random_actions(state, rng))
    with pytest.raises(wonderlab.WonderlabError, match=r"^record: game 0 is still in play \(age 1, turn 1\); .* ask for which=1, the last finished game$"):
        v.record(0, finished=False)
    assert v.record(0, finished=True)["result"]["scores"]


def test_a_server_that_ends_badly_raises_with_what_it_said(games):
    import struct

    v = games(games=1, players=3)
    v.reset()
    # A request cut off: 10 of its 100 bytes, then the end of the server's input.
    v.server._proc.stdin.write(struct.pack("<I", 100) + bytes([3] * 10))
    v.server._proc.stdin.close()
    with pytest.raises(wonderlab.ServerDied, match=r"exited with 1: wonderlab env: input ended inside a frame: 14 of 104 bytes received$"):
        v.step(np.zeros((1, 3), np.int32))


def test_vector_games_reset_themselves_and_count_moves(games):
    v = games(games=8, players=3, seed=100)
    state = v.reset()
    assert list(state.seed) == list(range(100, 108))
    rng = np.random.default_rng(0)
    finished = 0
    steps = 0
    while finished < 8:
        state = v.step(wonderlab.random_actions(state, rng))
        finished += int(state.done.sum())
        steps += 1
    # A game of 3 is 18 steps of play (no seat builds from the discard pile or plays a seventh
    # card more often than its wonder allows): each game ends once, then runs on from seed + 8.
    assert 18 <= steps <= 24
    assert set(state.seed) <= set(range(108, 116))


def test_random_actions_are_legal_and_uniform_over_the_legal_ones():
    from wonderlab._server import State

    mask = np.zeros((2, 1, 390), np.uint8)
    mask[0, 0, [3, 50, 389]] = 1
    mask[1, 0, 7] = 1
    acting = np.array([[True], [False]])
    state = State(None, None, None, None, None, acting, mask, None)
    rng = np.random.default_rng(0)
    draws = np.array([wonderlab.random_actions(state, rng)[:, 0] for _ in range(3000)])
    assert set(draws[:, 1]) == {-1}
    values, counts = np.unique(draws[:, 0], return_counts=True)
    assert list(values) == [3, 50, 389]
    assert counts.min() > 900  # each about 1000 of 3000
