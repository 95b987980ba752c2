"""The learned value pipeline: self-play positions, a small model trained on them, weights as package data.

1. **Self-play** (:mod:`.selfplay`): seeded games of the game's heuristic (its ``model``, read off the full
   state) against itself, each move replaced by a uniformly random legal one with probability
   ``epsilon`` so that positions vary. At every decision that shows something new (a simultaneous
   choice does not), each seat's features (:mod:`robotable.ai.learned`'s feature module for the game) are
   recorded; the game's final ranks label them. Games run in this process, in local worker processes
   (``--workers``) or as Ray tasks (``--ray ADDRESS``); game ``i`` always has the same seed, so the data do
   not depend on where they were played.
2. **Training** (:mod:`.train`, numpy): every pair of seats of a position is one example, labelled 1 if
   the first finished ahead, 1/2 for a tie, 0 behind; the model's strength difference is fitted to it by
   cross-entropy (full-batch Adam, L2 decay, a fixed number of steps from a seeded start: the same data
   give the same weights). By default the model is linear (``--hidden 0``) and the weights of the
   features the game lists in ``NONNEGATIVE`` stay >= 0: more of a resource never lowers a seat's value,
   which self-play's confounded outcomes would otherwise teach (and search would exploit). The last
   tenth of the games is held out and the log-loss there is reported beside the hand-written comparison
   of projected totals.
3. **Weights** go to a JSON file (``--out``; shipped as ``robotable/ai/data/<game>-value.json``), read at
   play time by :func:`robotable.ai.learned.value_evaluator` with the standard library only.

``python -m robotable.ai.learn tf22-reload --players 2,4 --games 3000,300 --seed 2911 \
    --out robotable/ai/data/tf22-value.json``
"""

from __future__ import annotations
