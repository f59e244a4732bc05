#!/usr/bin/env python3
"""A self-play loop and a tiny policy trained on observation tensors, NumPy only.

The gomoku engine plays itself at a few milliseconds a move from random two-stone starts; each
position's observation tensor is kept with the engine's move. A linear softmax policy over the
board's points is then fitted to those moves by gradient descent, and its top-1 agreement with
the engine on held-out games is compared with a policy that plays next to the last stone.

  PYTHONPATH=build/release/python python3 python/examples/policy_training.py [GAMES] [MOVETIME_MS]
"""
import random
import sys

import numpy as np

import kibitz


def self_play(game, engine, games, movetime, rng):
    """(observation, action, game index) for every engine move of every game."""
    data = []
    size = game.observation_tensor_shape()[-1]
    for g in range(games):
        engine.new_game()
        state = game.new_initial_state()
        for _ in range(2):  # a random start near the centre
            state.apply_move(rng.choice([f"{chr(ord('a') + x)}{y + 1}" for x in range(5, 10)
                                         for y in range(5, 10)
                                         if f"{chr(ord('a') + x)}{y + 1}" in state.legal_moves()]))
        while not state.is_terminal() and len(state.history()) < size * size:
            action = engine.search(state, movetime_ms=movetime)["action"]
            data.append((state.observation_tensor(), action, g))
            state.apply_action(action)
    return data


def train(x, y, n_actions, epochs=300, lr=0.5, l2=1e-4):
    """Softmax regression: weights [features, actions], full-batch gradient descent."""
    w = np.zeros((x.shape[1], n_actions), dtype=np.float32)
    onehot = np.eye(n_actions, dtype=np.float32)[y]
    for _ in range(epochs):
        logits = x @ w
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        w -= lr * (x.T @ (p - onehot) / len(x) + l2 * w)
    return w


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    movetime = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    game = kibitz.load_game("gomoku")
    engine = game.engine()
    rng = random.Random(3)
    data = self_play(game, engine, games, movetime, rng)
    n_actions = game.num_distinct_actions()
    train_set = [d for d in data if d[2] % 4 != 0]
    test_set = [d for d in data if d[2] % 4 == 0] or train_set
    x = np.stack([d[0].ravel() for d in train_set])
    y = np.array([d[1] for d in train_set])
    w = train(x, y, n_actions)
    xt = np.stack([d[0].ravel() for d in test_set])
    yt = np.array([d[1] for d in test_set])
    # Only empty points can be played: mask the others out of the policy's choice.
    empty = 1 - xt.reshape(len(xt), 3, -1)[:, :2].sum(axis=1)
    policy = np.where(empty > 0, xt @ w, -np.inf).argmax(axis=1)
    print(f"{len(data)} positions from {games} self-play games; "
          f"held-out top-1 agreement with the engine: {np.mean(policy == yt):.1%}")
    # The yardstick: a random empty point next to any stone (np.roll wraps at the edges).
    size = game.observation_tensor_shape()[-1]
    stones = 1 - empty.reshape(-1, size, size)
    near = np.zeros_like(stones)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            near = np.maximum(near, np.roll(np.roll(stones, dy, axis=1), dx, axis=2))
    choice = []
    for i in range(len(xt)):
        points = np.flatnonzero((near[i].ravel() > 0) & (empty[i] > 0))
        choice.append(rng.choice(list(points)) if len(points) else 0)
    print(f"a random point next to a stone: {np.mean(np.array(choice) == yt):.1%}")


if __name__ == "__main__":
    main()
