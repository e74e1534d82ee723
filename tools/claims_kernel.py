"""A compiled claim-listing kernel, as a measured prototype (issue 43's throughput item).

    python tools/claims_kernel.py --games 150 --rounds 3

Profiling the random-game benchmark (`ttr_nb.bench.random_games`, what the comparison with
bingsoup/ticket-to-ride-ai times) puts more than half of its time in the fast path's claim
listing (`FastPath.claims`), and `tools/bench_claims_ceiling.py` measured the most any
kernel could give: 2.15x to 2.28x with claims listed in no time. This is one such kernel,
a CPython extension written in C, for maps with the base rules' payments and one kind of
wild card (USA): every claim a map can ever offer (route x colour x cards of that colour)
is built once as a Python object; per call the C loop reads the hand and the owners from
their dicts, walks the routes in map order, skips the taken, closed and too long ones, and
returns the list of the claims the hand can pay, in the engine's order. (A first version
loaded with ctypes gained only 1.19x: converting the arguments and building the list in
Python ate most of the gain.)

The run first plays the seeded games with both listings side by side and checks that
every list is the same, claim by claim, then times the games each way (CPU seconds,
best of `--rounds`). It needs a C compiler (`cc`); it is a prototype, not part of the
package: the engine stays pure Python so that it runs in a browser (Pyodide) too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import tempfile
import time
from pathlib import Path

from ttr_nb import new_game
from ttr_nb.actions import ClaimRoute
from ttr_nb.bench import WARM_SEEDS, random_games
from ttr_nb.rules import fastpath
from ttr_nb.rules.fastpath import mark_well_formed

SOURCE = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

/* One map's tables (the prototype holds one map at a time). */
static int R, C;
static int *LENGTH, *NCOL, *COLSTART, *COLOURS, *WILD, *PARSTART, *PARS, *BASE, *INDEX;
static int *OWNER, *OUT;
static int MAXID;
static PyObject **CARD_IDS;  /* the hand's keys, in card order */
static PyObject *UNIVERSE;   /* every claim the map can offer, numbered */
static int HAND[64];

static int *ints(PyObject *seq) {
    Py_ssize_t n = PySequence_Size(seq);
    int *out = malloc(sizeof(int) * (n + 1));
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        out[i] = (int)PyLong_AsLong(item);
        Py_DECREF(item);
    }
    return out;
}

static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *t[9], *cards, *universe;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOO", &t[0], &t[1], &t[2], &t[3], &t[4], &t[5],
                          &t[6], &t[7], &t[8], &cards, &universe))
        return NULL;
    R = (int)PySequence_Size(t[0]);
    MAXID = (int)PySequence_Size(t[8]) - 1;
    LENGTH = ints(t[0]); NCOL = ints(t[1]); COLSTART = ints(t[2]); COLOURS = ints(t[3]);
    WILD = ints(t[4]); PARSTART = ints(t[5]); PARS = ints(t[6]); BASE = ints(t[7]);
    INDEX = ints(t[8]);
    C = (int)PySequence_Size(cards);
    CARD_IDS = malloc(sizeof(PyObject *) * C);
    for (int i = 0; i < C; i++) CARD_IDS[i] = PySequence_GetItem(cards, i);  /* kept */
    Py_INCREF(universe);
    UNIVERSE = universe;
    OWNER = malloc(sizeof(int) * R);
    OUT = malloc(sizeof(int) * (PyList_GET_SIZE(universe) + 1));
    Py_RETURN_NONE;
}

static PyObject *claims(PyObject *self, PyObject *args) {
    PyObject *hand, *owner, *key, *value;
    int seat, closes, pieces, k = 0, r, i, j;
    Py_ssize_t pos = 0;
    if (!PyArg_ParseTuple(args, "O!O!iii", &PyDict_Type, &hand, &PyDict_Type, &owner, &seat,
                          &closes, &pieces))
        return NULL;
    for (i = 0; i < C; i++) {
        PyObject *n = PyDict_GetItemWithError(hand, CARD_IDS[i]);
        HAND[i] = n ? (int)PyLong_AsLong(n) : 0;
    }
    for (r = 0; r < R; r++) OWNER[r] = -1;
    while (PyDict_Next(owner, &pos, &key, &value)) {
        long rid = PyLong_AsLong(key);
        if (rid >= 0 && rid <= MAXID) OWNER[INDEX[rid]] = (int)PyLong_AsLong(value);
    }
    if (PyErr_Occurred()) return NULL;
    for (r = 0; r < R; r++) {
        int need = LENGTH[r];
        if (OWNER[r] >= 0 || pieces < need) continue;
        int blocked = 0;
        for (i = PARSTART[r]; i < PARSTART[r + 1]; i++) {
            int other = OWNER[PARS[i]];
            if (closes ? other >= 0 : other == seat) { blocked = 1; break; }
        }
        if (blocked) continue;
        int spare = WILD[r] >= 0 ? HAND[WILD[r]] : 0;
        for (j = 0; j < NCOL[r]; j++) {
            int have = HAND[COLOURS[COLSTART[r] + j]];
            if (!have || have + spare < need) continue;
            int top = have < need ? have : need;
            int low = need - spare > 1 ? need - spare : 1;
            for (int n = top; n >= low; n--) OUT[k++] = BASE[r] + j * need + (need - n);
        }
        if (WILD[r] >= 0 && spare >= need) OUT[k++] = BASE[r] + NCOL[r] * need;
    }
    PyObject *list = PyList_New(k);
    if (!list) return NULL;
    for (i = 0; i < k; i++) {
        PyObject *claim = PyList_GET_ITEM(UNIVERSE, OUT[i]);
        Py_INCREF(claim);
        PyList_SET_ITEM(list, i, claim);
    }
    return list;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "Load one map's tables."},
    {"claims", claims, METH_VARARGS, "Claims open to a seat with a hand."},
    {NULL, NULL, 0, NULL},
};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "claims_kernel", NULL, -1, methods};
PyMODINIT_FUNC PyInit_claims_kernel(void) { return PyModule_Create(&module); }
"""


def _extension():
    """The kernel, compiled with ``cc -O2`` against this Python's headers into a temporary
    folder (once per source), and imported."""
    import importlib.util
    import sysconfig

    digest = hashlib.sha256(SOURCE.encode()).hexdigest()[:12]
    folder = Path(tempfile.gettempdir()) / f"ttr-nb-claims-kernel-{digest}"
    folder.mkdir(exist_ok=True)
    library = folder / ("claims_kernel" + sysconfig.get_config_var("EXT_SUFFIX"))
    if not library.exists():
        source = folder / "claims_kernel.c"
        source.write_text(SOURCE)
        include = sysconfig.get_paths()["include"]
        command = ["cc", "-O2", "-shared", "-fPIC", f"-I{include}", "-o", str(library)]
        subprocess.run([*command, str(source)], check=True)
    spec = importlib.util.spec_from_file_location("claims_kernel", library)
    extension = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extension)
    return extension


class Kernel:
    """Claim listing for one fast path (one map's rules), compiled."""

    def __init__(self, fast: fastpath.FastPath) -> None:
        rules = fast.rules
        if not fast.capped or not fast.plain_pickups or not fast.plain_reach:
            raise SystemExit("the prototype covers the base rules' payments only (USA)")
        if fast.one_kind is None:
            raise SystemExit("the prototype covers maps of one kind of route only")
        card_index = {cid: i for i, cid in enumerate(fast.card_ids)}
        self.kind = fast.one_kind
        self.closes_upto = rules.closed_parallel_max_players
        rows = fast.rows
        row_of = {row[1]: i for i, row in enumerate(rows)}
        lengths, ncol, colstart, colours, wild, parstart, pars, base = (
            [],
            [],
            [],
            [],
            [],
            [0],
            [],
            [],
        )
        universe: list[ClaimRoute] = []
        for _route, rid, length, _kind, parallel, _number in rows:
            colour_ids, wild_ids = rules.fitting[rid]
            if len(wild_ids) > 1:
                raise SystemExit("the prototype covers maps with one kind of wild card only")
            w = wild_ids[0] if wild_ids else None
            lengths.append(length)
            ncol.append(len(colour_ids))
            colstart.append(len(colours))
            colours.extend(card_index[c] for c in colour_ids)
            wild.append(card_index[w] if w else -1)
            pars.extend(row_of[p] for p in parallel)
            parstart.append(len(pars))
            base.append(len(universe))
            for cid in colour_ids:
                for n in range(length, 0, -1):  # numbered base + j * length + (length - n)
                    if n == length:
                        pay = ((cid, n),)
                    elif w is None:  # never listed: no wild card pays for this route
                        pay = ((cid, length),)
                    elif cid < w:
                        pay = ((cid, n), (w, length - n))
                    else:
                        pay = ((w, length - n), (cid, n))
                    universe.append(mark_well_formed(ClaimRoute.trusted(rid, pay)))
            pay = ((w, length),) if w else ((colour_ids[0], length),)  # (none: never listed)
            universe.append(mark_well_formed(ClaimRoute.trusted(rid, pay)))
        index = [0] * (max(row_of) + 1)
        for rid, i in row_of.items():
            index[rid] = i
        self.extension = _extension()
        tables = (lengths, ncol, colstart, colours, wild, parstart, pars, base, index)
        self.extension.setup(*tables, list(fast.card_ids), universe)

    def claims(self, state, seat: int, hand: dict[str, int]) -> list[ClaimRoute]:
        """The same list as :meth:`FastPath.claims`, from the kernel."""
        return self.extension.claims(
            hand,
            state.owner,
            seat,
            len(state.players) <= self.closes_upto,
            state.players[seat].pieces.get(self.kind, 0),
        )


def script_games(seeds: range) -> float:
    """CPU seconds of random 2-player USA games played as a user's script plays them,
    through the public API alone (``new_game``, ``legal_actions``, ``apply``)."""
    start = time.process_time()
    for seed in seeds:
        game = new_game("usa", players=2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    fast = new_game("usa", players=2, seed=0).rules.fast
    kernel = Kernel(fast)
    original = fastpath.FastPath.claims
    seeds = range(args.games)
    checked = [0]

    def both(self, state, seat, hand):
        want = original(self, state, seat, hand)
        got = kernel.claims(state, seat, hand)
        assert got == want, (state.turn, seat, hand)
        checked[0] += 1
        return want

    def compiled(self, state, seat, hand):
        return kernel.claims(state, seat, hand)

    fastpath.FastPath.claims = both
    try:
        random_games("usa", 2, seeds, False)
        script_games(seeds)
    finally:
        fastpath.FastPath.claims = original
    print(f"the kernel listed the same claims as the engine in {checked[0]:,} positions")
    random_games("usa", 2, WARM_SEEDS, False)  # fill the fast path's memos first
    loops = {
        "bots' loop (ttr_nb.bench.random_games)": lambda: (
            random_games("usa", 2, seeds, False).cpu_s
        ),
        "public API (new_game, legal_actions, apply)": lambda: script_games(seeds),
    }
    print(f"{args.games} random 2-player USA games, best of {args.rounds}, games per CPU second:")
    figures = {"games": args.games, "rounds": args.rounds, "positions_checked": checked[0]}
    for name, play in loops.items():
        engine, kernel_s = [], []
        for _ in range(args.rounds):
            engine.append(play())
            fastpath.FastPath.claims = compiled
            try:
                kernel_s.append(play())
            finally:
                fastpath.FastPath.claims = original
        e, k = min(engine), min(kernel_s)
        print(f"  {name}: engine {args.games / e:.0f}, kernel {args.games / k:.0f}: {e / k:.2f}x")
        figures[name] = {"engine": args.games / e, "kernel": args.games / k, "speedup": e / k}
    if args.out:
        args.out.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
