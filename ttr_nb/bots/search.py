"""A bot that searches: determinised Monte Carlo tree search (information-set style).

The bot does not know the other players' cards and tickets, nor the order of the
decks. For each move it imagines many complete games that agree with everything it
has seen, plays each of them to the end quickly, and keeps the move that did best
over all of them. It thinks for a fixed time per move (1 second by default), so it
gets stronger on a faster machine or with a longer budget.

Notes
-----
One decision is made in four steps, repeated until the budget is spent:

1. **Imagine a world** (*determinisation*). The hidden information is drawn at
   random, consistently with what the bot has seen since the deal
   (:class:`ttr_nb.bots.determinise.Knowledge`): cards an opponent took face up stay in
   their hand, a reshuffled deck holds exactly the discards the bot saw, the
   tickets it gave back lie at the bottom of their deck. An opponent's hidden
   tickets lean towards those their claims fit (:mod:`~ttr_nb.bots.inference`): a
   player with a line from Los Angeles to New York more likely holds a ticket along
   it than one in the north-west.
2. **Compare the candidate moves in that world.** The root's candidates (at most
   ``ROOT_CANDIDATES``: one claim per route, one face-up draw per kind of card,
   blind draws, ticket draws and keeps, a few of each variant move, always
   including the rollout policy's and the greedy bot's choices) are each played in
   a copy of the same world with the same random seed (common random numbers: the
   comparison is not blurred by luck). The root runs *sequential halving*: the
   budget is split into ``ceil(log2(candidates))`` rounds, and after each round the
   worse half of the candidates drops out, so the promising moves get most of the
   play-outs.
3. **Walk down the tree, then play out.** Below a root move, the bot's own later
   decisions form a tree (the other players' moves are not in it: the bot cannot
   know their cards). At a node it tries a new candidate while there are untried
   ones (progressive widening: ``1 + sqrt(visits)`` candidates are open), otherwise
   the child with the best *upper confidence bound* (UCB1: average result plus
   ``EXPLORATION * sqrt(log(available) / visits)``, where ``available`` counts the
   iterations in which that move was legal: in some worlds it is not). After one new
   node the rest of the game is played by :class:`~ttr_nb.bots.rollout.PlanFollower` for
   every player (follow the shortest paths of one's tickets, like the greedy bot).
4. **Learn.** The final scores become a result between 0 and 1 (:func:`reward`: the
   logistic curve of the margin over the best opponent), added to every node on the
   way.

When the budget is spent it plays the root candidate with the best average among
the last ones still racing, provided that candidate was tried in at least
``MIN_EVIDENCE`` worlds; when none was (too little time, or a slow variant), it plays
the greedy bot's move instead (``SearchResult.fell_back``). Without that rule a
starved search is worse than no search: at 0.1 s a move on USA (two or three worlds
per decision) it drew tickets that had looked good in one lucky world, kept five
tickets a game and failed half of them, and won 17 of 100 games against greedy.

One tree is shared by all the worlds and a node's statistics mix many possible hands
and decks, which makes this *information-set* MCTS with determinisation rather than a
separate tree per world [1]_.

Everything goes through the generic game API (``legal_actions``, ``apply``,
``clone``, :func:`~ttr_nb.bots.determinise.determinise`), so it plays every variant. With
``worlds=N`` in place of a time budget the search is reproducible: the same seed and
position give the same move.

Cost: a play-out is a whole game, O(moves x listing cost): on one core about 5 ms
for USA, 8 ms for Germany and Märklin and 12–18 ms for Rails & Sails World (its log
lines are not written: ``Game.quiet``); a 1-second budget gives about 190 USA
play-outs and 55–90 on the World map (docs/bots.md, "Faster play-outs").

References
----------
.. [1] P. I. Cowling, E. J. Powley and D. Whitehouse, "Information Set Monte Carlo
   Tree Search", IEEE Transactions on Computational Intelligence and AI in Games
   4(2), 2012.

Examples
--------
>>> from ttr_nb import new_game
>>> game = new_game("usa", 2, seed=3)
>>> bot = SearchBot(seed=1, worlds=4)
>>> action = bot.choose(game)
>>> action in game.legal_actions(), bot.last.playouts > 0
(True, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from ..game import Game
from .determinise import Knowledge
from .greedy import GreedyBot, unavailable_routes, variant_hook
from .inference import ticket_weights
from .rollout import PlanFollower

__all__ = ["Node", "SearchBot", "SearchResult", "reward"]

DEFAULT_BUDGET = 1.0  # seconds per move
EXPLORATION = 0.7  # UCB1's constant, for results between 0 and 1
MARGIN_SCALE = 12.0  # points: a margin this large counts as about 73 % of a win
MAX_PER_KIND = 6  # at most this many candidates of one variant action type
ROOT_CANDIDATES = 10  # moves compared at the root
OTHER_CLAIMS = 2  # claims off the plan worth a look (the longest: points, or a block)
MIN_EVIDENCE = 8  # worlds before a move may overrule greedy's (why: the module text)
PAIRED_Z = 1.0  # a move overrules greedy's only when it beats it by this many standard errors
EXPAND_AFTER = 0  # visits a node needs before the searching player's later moves branch there
GUESS_TICKETS = True  # imagine opponents holding tickets their claims fit (inference module)


def paired_margin(mine: dict[int, float], theirs: dict[int, float]) -> tuple[float, float]:
    """Mean and standard error of ``mine - theirs`` over the worlds both were played in
    (common random numbers: the same world and seed); (0, 0) with fewer than two.

    >>> margin, noise = paired_margin({0: 0.7, 1: 0.6, 2: 0.8}, {0: 0.5, 1: 0.5, 2: 0.5, 3: 0.9})
    >>> round(margin, 3), round(noise, 3)
    (0.2, 0.058)
    """
    diffs = [mine[w] - theirs[w] for w in mine if w in theirs]
    n = len(diffs)
    if n < 2:
        return 0.0, 0.0
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n)


def _best_mean(nodes: list[Node]) -> Any:
    return max(nodes, key=lambda c: (c.mean, c.visits)).action if nodes else None


def reward(scores: list[int], seat: int) -> float:
    """A game's result for ``seat`` between 0 and 1: the logistic curve of its margin over
    the best other player (0.5 for a tie), so a narrow win is worth a little more than
    half and a big one almost 1.

    >>> reward([100, 100], 0), round(reward([112, 100], 0), 2), round(reward([88, 100], 0), 2)
    (0.5, 0.73, 0.27)
    """
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    return 1 / (1 + math.exp(-(scores[seat] - best_other) / MARGIN_SCALE))


@dataclass(eq=False)
class Node:
    """One of the searching player's decisions in the tree.

    Attributes
    ----------
    action : Any
        The move that led here (None at the root).
    visits : int
        Iterations that went through this node.
    total : float
        Sum of their results.
    wins : int
        Iterations whose imagined game the searching player won outright (the coach
        reports them: "won 21 of 31 look-ahead games").
    available : int
        Iterations in which this node's move was a candidate at its parent (UCB1
        uses it in place of the parent's visits: in some worlds a move is not legal).
    children : dict
        Action -> Node.
    """

    action: Any = None
    parent: Node | None = None
    visits: int = 0
    total: float = 0.0
    wins: int = 0
    available: int = 0
    children: dict[Any, Node] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        """Average result of the iterations through this node (0.5 before any)."""
        return self.total / self.visits if self.visits else 0.5

    def ucb(self, exploration: float) -> float:
        """The node's UCB1 score: its mean result plus ``exploration`` times its uncertainty."""
        return self.mean + exploration * math.sqrt(math.log(max(self.available, 1)) / self.visits)

    def best_child(self) -> Node | None:
        """The child tried most often (ties: the better average)."""
        if not self.children:
            return None
        return max(self.children.values(), key=lambda c: (c.visits, c.mean))

    def size(self) -> int:
        """Nodes in this subtree."""
        return 1 + sum(child.size() for child in self.children.values())


@dataclass
class SearchResult:
    """What one search found: the move, the tree, and how much work it took.

    Attributes
    ----------
    action : Any
        The move chosen.
    root : Node
        The tree: the root's children are the candidate moves.
    worlds : int
        Worlds imagined (each root candidate still in the race played once in each).
    playouts : int
        Imagined games played to the end.
    seconds : float
        Time spent (on the bot's clock).
    seat : int
        The player who searched.
    rounds : list of list
        The candidates still in the race at the start of each round of sequential
        halving (the last round's winner is the move).
    fell_back : bool
        The move is the greedy bot's although another candidate averaged better: none
        was tried in ``min_evidence`` worlds, or the best did not beat greedy's move in
        the same worlds by more than ``paired_z`` times the noise.
    margin, noise : float
        The best candidate's average result minus greedy's move's, over the worlds both
        were played in, and the standard error of that difference.
    """

    action: Any
    root: Node
    worlds: int
    playouts: int
    seconds: float
    seat: int
    rounds: list[list[Node]] = field(default_factory=list)
    fell_back: bool = False
    margin: float = 0.0
    noise: float = 0.0


class SearchBot:
    """Determinised Monte Carlo tree search (see the module text).

    Parameters
    ----------
    seed : int
        Seeds the worlds it imagines and its rollouts.
    budget : float
        Seconds of thinking per move (default 1).
    worlds : int, optional
        Imagine this many worlds instead of watching the clock (reproducible, for
        tests and lessons).
    clock : callable, optional
        The clock the budget is measured on: ``time.perf_counter`` (wall time, the
        default: what a person waits) or ``time.process_time`` (CPU time of this
        process: the same strength on a busy machine, for benchmarks).
    exploration : float
        UCB1's exploration constant below the root.
    min_evidence : int
        Worlds a candidate must have been tried in before it may be played instead
        of the greedy bot's move (``MIN_EVIDENCE``; 1 trusts any average).
    paired_z : float or None
        When given (the named bots of :func:`ttr_nb.bots.make_bot` use ``PAIRED_Z``),
        the greedy bot's move races to the end as a yardstick, and another candidate
        replaces it only when, over the worlds both were played in, it did better by
        more than ``paired_z`` standard errors of the difference. None (the default):
        the best average among the last candidates racing is played.
    expand_after : int
        Visits a node needs before the searching player's later decisions branch
        below it (``EXPAND_AFTER``, 0: from the first visit); until then the rollout
        policy plays them. A very large value gives a flat search (root moves only).
    """

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        budget: float = DEFAULT_BUDGET,
        worlds: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        exploration: float = EXPLORATION,
        min_evidence: int = MIN_EVIDENCE,
        paired_z: float | None = None,
        expand_after: int = EXPAND_AFTER,
        guess_tickets: bool = GUESS_TICKETS,
    ) -> None:
        if worlds is None and not budget > 0:
            raise ValueError(f"the time budget must be positive, not {budget!r}")
        if worlds is not None and worlds < 1:
            raise ValueError(f"at least one world must be imagined, not {worlds!r}")
        self.rng = random.Random(seed)
        self.budget = budget
        self.worlds = worlds
        self.clock = clock
        self.exploration = exploration
        self.min_evidence = min_evidence
        self.paired_z = paired_z
        self.expand_after = expand_after
        self.guess_tickets = guess_tickets
        self.policy = PlanFollower(seed)
        self.greedy = GreedyBot(seed)
        self.last: SearchResult | None = None
        # Each opponent's weights, kept until their claims or closed routes change.
        self._fits: dict[int, tuple[Any, dict[int, float] | None]] = {}

    def choose(self, game: Game) -> Any:
        """The move to play now (the search's best; a forced move at once)."""
        return self.search(game).action

    def search(self, game: Game) -> SearchResult:
        """Search from ``game``'s position for its current player; the result (with the
        tree) is kept in ``self.last`` too (the lessons draw it)."""
        clock = self.clock
        start = clock()
        seat = game.current_player
        root = Node()
        legal = game.legal_actions()
        self.policy.reset()
        greedy_move = self.greedy.choose(game)
        options = self.candidates(game, legal, ROOT_CANDIDATES, also=greedy_move)
        if len(options) == 1:
            self.last = SearchResult(options[0], root, 0, 0, clock() - start, seat)
            return self.last
        for action in options:
            root.children[action] = Node(action, root)
        knowledge = Knowledge.of(game, seat)
        weights = None
        if self.guess_tickets:
            weights = [
                None if p == seat else self._ticket_weights(game, p)
                for p in range(game.num_players)
            ]
        racing = list(root.children.values())
        baseline = root.children[greedy_move]
        rounds = max(1, math.ceil(math.log2(len(racing))))
        deadline = start + self.budget
        worlds = playouts = 0
        history = []
        results: dict[Node, dict[int, float]] = {child: {} for child in racing}
        for r in range(rounds):
            history.append(list(racing))
            # Each round of sequential halving has an equal share of the budget (of the
            # worlds, when a number of worlds is asked for instead of a time).
            end_time = start + self.budget * (r + 1) / rounds
            end_worlds = None if self.worlds is None else self.worlds * (r + 1) // rounds
            while clock() < end_time if end_worlds is None else worlds < end_worlds:
                world = knowledge.sample(self.rng, weights)
                world.quiet = True  # nobody reads a play-out's log
                seed = self.rng.getrandbits(32)
                for child in racing:
                    if end_worlds is None and clock() >= deadline:
                        break  # the budget is a promise: stop even in the middle of a world
                    results[child][worlds] = self.playout(child, world.clone(), seed, seat)
                    playouts += 1
                worlds += 1
            if r < rounds - 1:
                racing.sort(key=lambda c: (c.mean, c.visits), reverse=True)
                racing = racing[: math.ceil(len(racing) / 2)]
                if self.paired_z is not None and baseline not in racing:
                    racing.append(baseline)  # greedy's move races to the end: the yardstick
        trusted = [c for c in racing if c.visits >= self.min_evidence]
        best = max(trusted, key=lambda c: (c.mean, c.visits)) if trusted else baseline
        margin, noise = paired_margin(results[best], results[baseline])
        if best is not baseline and (
            self.paired_z is not None and not margin > self.paired_z * noise
        ):
            best = baseline  # it did not beat greedy's move by more than luck explains
        self.last = SearchResult(
            best.action,
            root,
            worlds,
            playouts,
            clock() - start,
            seat,
            history,
            best is baseline and best.action != _best_mean(trusted),
            margin,
            noise,
        )
        return self.last

    # --------------------------------------------------------------- playing
    def playout(self, child: Node, world: Game, seed: int, seat: int) -> float:
        """Play root move ``child`` in ``world`` and on to the end: the searching player's
        later decisions walk down ``child``'s subtree (UCB1, adding one node), everyone
        else and everything past the tree follow the rollout policy."""
        policy = self.policy
        policy.reset()
        policy.rng.seed(seed)
        world.apply(child.action)
        node = child
        path = [child]
        expanded = False
        while not world.is_over:
            if world.current_player != seat or expanded:
                world.apply(policy.choose(world))
                continue
            if node.visits < self.expand_after:
                expanded = True  # too few visits to branch here: the policy plays on
                continue
            allowed = 1 + int(math.sqrt(node.visits))  # progressive widening
            options = self.candidates(world, world.legal_actions(), allowed)
            for action in options:
                known = node.children.get(action)
                if known is not None:
                    known.available += 1
            untried = [a for a in options if a not in node.children]
            if untried:
                nxt = node.children[untried[0]] = Node(untried[0], node, available=1)
                expanded = True
            else:
                exploration = self.exploration
                nxt = max((node.children[a] for a in options), key=lambda c: c.ucb(exploration))
            world.apply(nxt.action)
            node = nxt
            path.append(node)
        scores = [row["total"] for row in world.scores()]
        result = reward(scores, seat)
        won = scores[seat] > max(s for i, s in enumerate(scores) if i != seat)
        child.parent.visits += 1 if child.parent is not None else 0
        for visited in path:
            visited.visits += 1
            visited.total += result
            visited.wins += won
        return result

    # ----------------------------------------------------------- candidates
    def _ticket_weights(self, game: Game, player: int) -> dict[int, float] | None:
        """:func:`~ttr_nb.bots.inference.ticket_weights`, recomputed only when the
        player's routes or the routes closed to them have changed since the last move."""
        closed = frozenset(unavailable_routes(game, player))
        key = (game.map.name, frozenset(game.state.players[player].routes), closed)
        kept = self._fits.get(player)
        if kept is None or kept[0] != key:
            kept = (key, ticket_weights(game, player, closed=closed))
            self._fits[player] = kept
        return kept[1]

    def candidates(self, game: Game, legal: list[Any], limit: int, also: Any = None) -> list[Any]:
        """At most ``limit`` moves worth trying, most promising first: the rollout policy's
        move (and ``also``), claims of planned routes (longest first), ticket draws, card
        draws the plan needs, other draws, the longest other claims, variant moves, ticket
        keeps; one claim per route and one draw per kind of card (see the module text)."""
        if len(legal) <= 1:
            return legal
        state = game.state
        seat = state.current
        hand = state.players[seat].hand
        cards = game.rules.cards
        route_by_id = game.map.route_by_id
        preferred = self.policy.choose(game)
        wanted = self.policy.wanted(game, seat) if state.phase == "play" else set()
        needed = {(route_by_id[r].kind, route_by_id[r].color) for r in wanted}
        bonus = variant_hook(game.rules.name, "claim_bonus")
        # A claim's bonus depends on its route and pickups, not on how it is paid: a hand
        # of many cards lists the same pickups with dozens of payments.
        bonuses: dict[tuple[int, Any], float] = {}
        claims: dict[int, tuple[tuple[float, int, int], ClaimRoute]] = {}
        face_up: dict[tuple[str, str], Any] = {}
        blind: list[Any] = []
        tickets: list[Any] = []
        variant: dict[type, list[Any]] = {}
        for action in legal:
            kind = type(action)
            if kind is ClaimRoute:
                wilds = sum(n for c, n in action.cards if cards[c].wild)
                plain = max((hand[c] for c, _ in action.cards if not cards[c].wild), default=0)
                # What the claim takes besides the route (Germany: passengers) counts first.
                extra = 0.0
                if bonus is not None and action.pickups:
                    taken = (action.route, action.pickups)
                    extra = bonuses.get(taken)
                    if extra is None:
                        extra = bonuses[taken] = bonus(game, action)
                key = (extra, -wilds, plain)
                old = claims.get(action.route)
                if old is None or key > old[0]:
                    claims[action.route] = (key, action)
            elif kind is DrawFaceUp:
                face_up.setdefault((state.face_up[action.slot], action.refill), action)
            elif kind is DrawBlind:
                blind.append(action)
            elif kind is DrawTickets:
                # New tickets only once the plans are done (as the greedy bot does): the
                # play-outs finish tickets more easily than real games do, so a search free
                # to draw kept ten tickets a game on Germany and failed four.
                if not wanted:
                    tickets.append(action)
            elif kind in (KeepTickets, Pass):
                tickets.append(action)
            else:
                variant.setdefault(kind, []).append(action)
        by_length = sorted(
            (action for _, action in claims.values()),
            key=lambda a: -route_by_id[a.route].length,
        )
        planned = [a for a in by_length if a.route in wanted]
        others = [a for a in by_length if a.route not in wanted][:OTHER_CLAIMS]
        useful_draws = []
        other_draws = []
        for (card_id, _refill), action in face_up.items():
            card = cards[card_id]
            if (card.deck, card.color) in needed or card.wild:
                useful_draws.append(action)
            else:
                other_draws.append(action)
        spread = []
        for actions in variant.values():
            if len(actions) > MAX_PER_KIND:
                step = (len(actions) - 1) / (MAX_PER_KIND - 1)
                actions = [actions[round(i * step)] for i in range(MAX_PER_KIND)]
            spread.extend(actions)
        order = [preferred, also, *planned, *tickets, *useful_draws, *blind, *others]
        order += [*other_draws, *spread]
        out: list[Any] = []
        for action in order:
            if action is not None and action not in out:
                out.append(action)
                if len(out) >= limit:
                    break
        return out
