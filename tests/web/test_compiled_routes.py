"""The suite's apps share each URL rule's compiled builders (tests/compiled_routes.py):
the same functions for the same rule in every app, building the URLs werkzeug's own
builders build."""

from compiled_routes import COMPILE_BUILDER
from helpers import TEST_SECRET_KEY

from bidder.web import create_app


def apps():
    return [create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET_KEY}) for _ in range(2)]


def test_two_apps_share_each_rules_builders():
    first, second = (list(app.url_map.iter_rules()) for app in apps())
    assert [rule.rule for rule in first] == [rule.rule for rule in second]
    for one, other in zip(first, second):
        assert one._build.__func__ is other._build.__func__
        assert one._build_unknown.__func__ is other._build_unknown.__func__


def test_a_shared_builder_builds_what_werkzeugs_own_builds():
    for rule in apps()[0].url_map.iter_rules():
        values = {name: f"{name} 1/x" for name in rule.arguments}
        for unknown in (False, True):
            own = COMPILE_BUILDER(rule, unknown).__get__(rule, None)
            extra = {"page": "2 3"} if unknown else {}
            built = (rule._build_unknown if unknown else rule._build)(**values, **extra)
            assert built == own(**values, **extra)
            assert built[1].endswith("?page=2+3") is unknown
