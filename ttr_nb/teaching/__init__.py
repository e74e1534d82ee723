"""Teaching material behind the lesson notebooks in ``notebooks/``.

* :mod:`ttr_nb.teaching.scenarios` — scripted positions, one per rule, with
  plain-text views and a helper to show them on the board widget;
* :mod:`ttr_nb.teaching.germany` — the same for the Germany lesson: passengers,
  the two ticket decks, the majority table;
* :mod:`ttr_nb.teaching.quiz` — small multiple-choice quizzes whose answers are
  stored sealed, checked with ``quiz.check(number, "b")``;
* :mod:`ttr_nb.teaching.exercises` — checks the learner runs on their own
  graph-algorithm solutions (never raising: they say what is wrong);
* :mod:`ttr_nb.teaching.plotting` — matplotlib drawings of a board for lessons;
* :mod:`ttr_nb.teaching.search_animation` — step-by-step search frontiers on the
  board widget;
* :mod:`ttr_nb.teaching.animation` and :mod:`ttr_nb.teaching.algorithm_frames` —
  any algorithm's steps played on the board (spanning trees, Euler trails);
* :mod:`ttr_nb.teaching.solutions` — the worked solutions, folded away in the
  lessons and run against the checks;
* :mod:`ttr_nb.teaching.curriculum` — the course for teachers: order, goals,
  prerequisites, estimated times and exercises to assign;
* :mod:`ttr_nb.teaching.integer_programs` — small integer programs written by hand
  (lesson 12's primer and exercise 12a) and the check of that exercise.

Nothing is imported here, so importing one module never pulls in the others
(or the widgets): ``from ttr_nb.teaching import scenarios, quiz``.
"""
