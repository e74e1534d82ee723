"""Union-find (disjoint sets): which places a growing set of routes joins.

Claiming a route only ever *joins* two pieces of a network; it never cuts one. A
union-find keeps the pieces as trees of places, each named by its root, and answers
"are these two places in one piece?" in almost constant time, however the routes
came. Every union-find of the package is this one: the end-of-game review and the
weak spots of the coach, Europe's borrowed routes, tour tickets, the Steiner-forest
planner, Kruskal's algorithm and the Euler-trail check.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator

__all__ = ["UnionFind"]


class UnionFind:
    """Disjoint sets of hashable elements, joined one pair at a time.

    Parameters
    ----------
    elements : iterable, optional
        Elements that start in sets of their own. Any other element joins the
        structure, alone, the first time :meth:`find` or :meth:`union` meets it.

    See Also
    --------
    networkx.utils.UnionFind : networkx's, which links the smaller set under the
        larger one and so chooses its roots by size.

    Notes
    -----
    ``union(a, b)`` hangs the tree of `a` under the root of `b`: the root of a set
    depends only on the order of the unions, never on the sets' sizes, so a caller
    may rely on which element names a set (the Steiner planner breaks ties by it).
    :meth:`find` halves the path it walks (each element it passes points to its
    grandparent), so a sequence of ``m`` finds and unions over ``n`` elements takes
    ``O(m log n)`` time at worst and close to ``O(m)`` on a board, and the
    structure holds ``O(n)`` memory. Adding an element is ``O(1)``;
    :meth:`copy` is ``O(n)``.

    Examples
    --------
    Claim routes one at a time and ask whether a ticket's cities are joined:

    >>> pieces = UnionFind(["Denver", "Omaha", "Chicago", "Duluth"])
    >>> pieces.union("Denver", "Omaha")
    True
    >>> pieces.union("Omaha", "Chicago")
    True
    >>> pieces.connected("Denver", "Chicago"), pieces.connected("Denver", "Duluth")
    (True, False)
    >>> pieces.union("Chicago", "Denver")  # already one piece: a cycle
    False

    The sets, in the order their first elements came, and their roots:

    >>> pieces.sets()
    [['Denver', 'Omaha', 'Chicago'], ['Duluth']]
    >>> pieces.find("Denver"), len(pieces), pieces.count()
    ('Chicago', 4, 2)
    """

    __slots__ = ("_parent",)

    def __init__(self, elements: Iterable[Hashable] = ()) -> None:
        self._parent: dict[Hashable, Hashable] = {x: x for x in elements}

    def find(self, x: Hashable) -> Hashable:
        """The root that names the set of `x` (a new element is added alone).

        Parameters
        ----------
        x : hashable
            An element.

        Returns
        -------
        hashable
            The root of the set holding `x`: two elements are in one set exactly
            when their roots are equal.

        Examples
        --------
        >>> sets = UnionFind()
        >>> sets.find("Miami")
        'Miami'
        >>> "Miami" in sets
        True
        """
        parent = self._parent
        up = parent.setdefault(x, x)
        while up != x:
            grand = parent[up]
            parent[x] = grand  # path halving: skip a level on the way up
            x, up = grand, parent[grand]
        return x

    def union(self, a: Hashable, b: Hashable) -> bool:
        """Join the sets of `a` and `b`: the root of `b`'s set becomes the root of both.

        Parameters
        ----------
        a, b : hashable
            Two elements (added alone first when new).

        Returns
        -------
        bool
            True if they were in different sets, False if they were already joined
            (a route between them would close a cycle).

        Examples
        --------
        >>> sets = UnionFind()
        >>> sets.union("a", "b"), sets.union("b", "a"), sets.find("a")
        (True, False, 'b')
        """
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self._parent[ra] = rb
        return True

    def connected(self, a: Hashable, b: Hashable) -> bool:
        """Whether `a` and `b` lie in one set (an element not seen yet lies alone).

        Examples
        --------
        >>> sets = UnionFind([1, 2, 3])
        >>> _ = sets.union(1, 2)
        >>> sets.connected(2, 1), sets.connected(1, 3), sets.connected(4, 4)
        (True, False, True)
        """
        if a not in self._parent or b not in self._parent:
            return a == b
        return self.find(a) == self.find(b)

    def sets(self) -> list[list[Hashable]]:
        """The sets, each in the order its elements were added, ordered by their first
        element.

        Examples
        --------
        >>> sets = UnionFind("abcd")
        >>> _ = sets.union("d", "b")
        >>> sets.sets()
        [['a'], ['b', 'd'], ['c']]
        """
        groups: dict[Hashable, list[Hashable]] = {}
        for x in self._parent:
            groups.setdefault(self.find(x), []).append(x)
        return list(groups.values())

    def count(self) -> int:
        """The number of sets.

        Examples
        --------
        >>> sets = UnionFind(range(5))
        >>> _ = sets.union(0, 4)
        >>> sets.count()
        4
        """
        return sum(1 for x, up in self._parent.items() if x == up)

    def copy(self) -> UnionFind:
        """An independent copy: unions in one never reach the other.

        Examples
        --------
        >>> base = UnionFind("ab")
        >>> trial = base.copy()
        >>> _ = trial.union("a", "b")
        >>> trial.connected("a", "b"), base.connected("a", "b")
        (True, False)
        """
        twin = object.__new__(UnionFind)
        twin._parent = dict(self._parent)
        return twin

    def __contains__(self, x: object) -> bool:
        return x in self._parent

    def __iter__(self) -> Iterator[Hashable]:
        """The elements, in the order they were added."""
        return iter(self._parent)

    def __len__(self) -> int:
        """The number of elements (not of sets: see :meth:`count`)."""
        return len(self._parent)

    def __repr__(self) -> str:
        return f"UnionFind({len(self)} elements in {self.count()} sets)"
