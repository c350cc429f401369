"""Each URL rule's builders compiled once per test process, not once per app.

Werkzeug compiles two small functions for each URL rule of each new app (those that
build its URLs), through ast and compile(): that was three quarters of the cost of making
an app, and the web tests make one for nearly every test. Every app the suite makes shares
the functions compiled for a rule of the same shape instead. A builder is made from the
rule's text, its parts, its converters, its defaults and whether it appends unknown
arguments, all in the key below; it reads everything else from the rule it is called on
(werkzeug binds it to each rule as a method), so what was compiled for one app's rule
builds the same rule of another's."""

from __future__ import annotations

from werkzeug.routing import rules

COMPILE_BUILDER = rules.Rule._compile_builder  # werkzeug's own: fails loudly if it goes


def share_compiled_routes() -> None:
    """Make every rule bound from now on in this process share compiled builders."""
    kept: dict[tuple, object] = {}

    def shared(rule: rules.Rule, append_unknown: bool = True):
        key = (rule.rule, tuple(rule._trace), append_unknown,
               tuple((name, type(converter), repr(sorted(
                   (field, value) for field, value in vars(converter).items() if field != "map")))
                     for name, converter in rule._converters.items()),
               repr(sorted((rule.defaults or {}).items())))
        if key not in kept:
            kept[key] = COMPILE_BUILDER(rule, append_unknown)
        return kept[key]

    rules.Rule._compile_builder = shared
