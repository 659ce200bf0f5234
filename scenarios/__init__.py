"""The scenarios: one package per game (engine, bots, content, rules, debrief, renderer).

``scenarios.base`` is the engine contract every engine satisfies; ``scenarios.registry`` lists
the installed scenarios (``settings.STORMWISE_SCENARIOS``) for the rest of the platform.
"""
