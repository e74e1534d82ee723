"""Rules variants, chosen by the ``rules`` field of a map file."""

from __future__ import annotations

from functools import cache

from ..errors import UnknownVariantError
from ..maps import MAP_CHECKS, Map, available_maps, load_map
from .base import Rules
from .europe import EuropeRules
from .germany import GermanyRules
from .maerklin import MaerklinRules
from .world import WorldRules

VARIANTS: dict[str, type[Rules]] = {
    "usa": Rules,
    "germany": GermanyRules,
    "maerklin": MaerklinRules,
    "world": WorldRules,
    "europe": EuropeRules,
}

# load_map refuses a map its rules could not play: it asks the variant through this table.
MAP_CHECKS.update({name: cls.map_problems for name, cls in VARIANTS.items()})


@cache
def rules_for(game_map: Map) -> Rules:
    """The rules object that plays ``game_map`` (shared: rules objects hold no game state).

    Raises
    ------
    UnknownVariantError
        If the map's rules are not implemented yet.
    """
    try:
        cls = VARIANTS[game_map.rules]
    except KeyError:
        playable = ", ".join(sorted(VARIANTS))
        raise UnknownVariantError(
            f"the {game_map.name} map needs the {game_map.rules!r} rules, which are not "
            f"implemented yet (playable rules: {playable})"
        ) from None
    return cls(game_map)


def playable_maps() -> list[str]:
    """Shipped maps whose rules exist."""
    return [m for m in available_maps() if load_map(m).rules in VARIANTS]


__all__ = ["Rules", "VARIANTS", "rules_for", "playable_maps"]
