"""Analysis of a study's dataset: statistics, paired comparisons, figures and reports.

- ``stats``: intervals, paired tests, sample sizes (pure functions, one implementation each);
- ``summary``: the short per-variant summary a run prints;
- ``compare``: paired comparisons of two variants or runs on common seeds, and sample plans;
- ``verdict``: the answer a report (and ``vsim compare``) opens with, in a sentence each;
- ``figures``: matplotlib figures; ``report``: the Markdown and HTML report (Jinja2).
"""
