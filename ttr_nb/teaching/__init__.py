"""Teaching material behind the lesson notebooks in ``notebooks/``.

* :mod:`ttr_nb.teaching.scenarios` — scripted positions, one per rule, with
  plain-text views and a helper to show them on the board widget;
* :mod:`ttr_nb.teaching.quiz` — small multiple-choice quizzes whose answers are
  stored sealed, checked with ``quiz.check(number, "b")``.

Nothing is imported here, so importing one module never pulls in the others
(or the widgets): ``from ttr_nb.teaching import scenarios, quiz``.
"""
