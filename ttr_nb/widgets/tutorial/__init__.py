"""The app's guided tutorial and its first screen (see :mod:`.model` for what a tutorial is)."""

from .model import (
    LEARNER,
    TUTORIALS,
    Goal,
    Marks,
    Rule,
    Step,
    Tutorial,
    register_tutorial,
    tutorial_for,
    tutorial_maps,
)

__all__ = [
    "LEARNER",
    "TUTORIALS",
    "Goal",
    "Marks",
    "Rule",
    "Step",
    "Tutorial",
    "register_tutorial",
    "tutorial_for",
    "tutorial_maps",
]
