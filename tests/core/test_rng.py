"""The game generator: its fast shuffle deals exactly what ``random.shuffle`` deals."""

from __future__ import annotations

import random

import pytest

from karavan_core.rng import Rng, shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 55, 65, 200])
def test_shuffle_draws_as_random_shuffle_does(size):
    for seed in range(40):
        ours, theirs = list(range(size)), list(range(size))
        generator, reference = random.Random(seed), random.Random(seed)
        shuffle(generator, ours)
        reference.shuffle(theirs)
        assert ours == theirs
        assert generator.getstate() == reference.getstate()  # and left it in the same state


def test_shuffled_is_the_shuffle_of_its_own_generator():
    rng = Rng(12345, 6)
    reference = list("abcdefghijklmnopqrstuvwxyz")
    rng._generator().shuffle(reference)
    advanced, cards = rng.shuffled("abcdefghijklmnopqrstuvwxyz")
    assert list(cards) == reference
    assert advanced == Rng(12345, 7)


def test_another_kind_of_generator_shuffles_itself():
    class Reversing(random.Random):
        def shuffle(self, x):  # a stand-in that is easy to recognise
            x.reverse()

    items = [1, 2, 3]
    shuffle(Reversing(0), items)
    assert items == [3, 2, 1]
