"""The Gin Rummy family: rule sets ``gin`` and ``oklahoma`` (RULES.md §6).

Standard library only. ``rules`` (knobs, presets), ``deadwood`` (melds, exact and
OpenSpiel deadwood), ``moves`` (notation), ``outcome``, ``hand`` (one hand's engine) and
``view`` (what a seat sees).
"""
