"""Each variant's advice to the bots, one module per rules name (``germany``, ``maerklin``,
``world``); :func:`ttr_nb.bots.variant_hook` finds them. A module may define ``advise``
(the variant's own moves), ``claim_bonus`` (what a claim is worth beyond its route points)
and ``ticket_draw`` (which of several ticket draws to make)."""
