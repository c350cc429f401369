"""The command line's rule variants: listed with their counts, and used by bid, stats and
deal."""

import json

import pytest
from click.testing import CliRunner

from bidder.cli.commands import cli
from bidder.exact import changes
from bidder.misreadings import space
from bidder.variants import CATALOGUE, VARIANT_BY_ID


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_variants_lists_each_with_its_exact_count():
    result = run("variants")
    assert result.exit_code == 0
    for variant in CATALOGUE:
        assert f"\n{variant.id}\n" in f"\n{result.stdout}"
    hands = changes(VARIANT_BY_ID["r3-unbalanced-only"]).hands
    assert f"changes {hands:,} hands (7.5484%):\n      1C -> None" in result.stdout
    assert "r8-6-8\n" in result.stdout and "    changes no hand\n" in result.stdout
    assert "      ... and 2 more pairs\n" in result.stdout


def test_variants_as_json():
    data = json.loads(run("variants", "--json").stdout)
    assert [entry["id"] for entry in data] == [variant.id for variant in CATALOGUE]
    assert data[0]["hands"] == changes(CATALOGUE[0]).hands


def test_variants_lists_the_generated_space_filtered():
    data = json.loads(run("variants", "--all", "--json").stdout)
    assert len(data) == len(space()) and data[-1]["id"] == space()[-1].id
    about_r1 = json.loads(run("variants", "--all", "--rule", "R1", "--min-hands", "1",
                              "--json").stdout)
    assert "R1.hcp=15-18" in [entry["id"] for entry in about_r1]
    assert all("R1" in entry["id"] + entry["departs"] and entry["hands"]
               for entry in about_r1)
    text = run("variants", "--all", "--rule", "R4", "--min-hands", "1").stdout
    assert text.startswith("R4.shape=any\n") and "R4.hcp=19\n" not in text
    assert run("variants", "--rule", "R9", "--min-hands", "1").stdout == (
        "No misreading fits: try without --rule or --min-hands.\n")


def test_every_door_takes_a_generated_id():
    result = run("bid", "AKQ2.K32.K32.432", "--variant", "R1.hcp=15-18")
    assert result.exit_code == 0 and "Read as R1.hcp=15-18: 1NT (R1) is read as needing " \
        "15-18 HCP." in " ".join(result.stdout.split())
    result = run("deal", "--variant", "R1.hcp=15-18", "--changed", "--count", "1", "--seed",
                 "2", "--key")
    assert result.exit_code == 0 and "read as R1.hcp=15-18: '1NT'" in result.stdout
    result = run("stats", "--exact", "--variant", "omit=R1", "--json")
    counts = {entry["bid"]: entry["count"] for entry in json.loads(result.stdout)["by_bid"]}
    assert counts.get("1NT", 0) == 0
    result = run("deal", "--variant", "R6.points=21+", "--changed")
    assert result.exit_code == 2 and "R6.points=21+ changes no hand" in result.stderr


def test_bid_reads_the_hand_as_a_variant_does():
    result = run("bid", "AKQ2.K32.K32.432", "--variant", "r3-unbalanced-only")
    assert result.exit_code == 0
    assert result.stdout.startswith("Variant    Read as r3-unbalanced-only: The 1C/1D rule")
    assert "It writes this bid as None." in " ".join(result.stdout.split())
    data = json.loads(run("bid", "AKQ2.K32.K32.432", "--variant", "none-as-string",
                          "--json").stdout)
    assert (data["bid"], data["variant"], data["written"]) == ("1C", "none-as-string", "1C")


def test_stats_counts_exactly_as_a_variant_reads():
    result = run("stats", "--exact", "--variant", "no-2nt", "--json")
    assert result.exit_code == 0
    counts = {entry["bid"]: entry["count"] for entry in json.loads(result.stdout)["by_bid"]}
    assert "2NT" not in counts or counts["2NT"] == 0


def test_deal_gives_hands_a_variant_changes_with_both_readings():
    result = run("deal", "--variant", "no-2nt", "--changed", "--count", "2", "--seed", "1",
                 "--key")
    assert result.exit_code == 0
    assert result.stdout.startswith("2 hands no-2nt changes (seed 1;")
    assert "Board 2, read as no-2nt: " in result.stdout
    assert result.stdout.count("Key: Open 2NT: a balanced hand") == 2


@pytest.mark.parametrize("args, message", [
    (["bid", "AKQ2.K32.K32.432", "--variant", "nope"], "'nope' is not a misreading: write a catalogue name"),
    (["stats", "--variant", "no-2nt"], "--variant goes with --exact"),
    (["variants", "--rule", "R12"], "'R12' is not a rule: choose one of R1"),
    (["bid", "AKQ2.K32.K32.432", "--variant", "R1.hcp=9-x"], "'9-x' is not a range"),
    (["deal", "--changed"], "--changed and --variant go together"),
    (["deal", "--variant", "no-2nt"], "--changed and --variant go together"),
    (["deal", "--variant", "no-2nt", "--changed", "--rule", "R5"], "leave out --bid and --rule"),
    (["deal", "--variant", "r8-6-8", "--changed"], "r8-6-8 changes no hand"),
    (["deal", "--variant", "no-2nt", "--changed", "--count", "0"], "ask for 1 to 100 hands"),
], ids=["unknown", "stats-sample", "bad-rule", "bad-range", "changed-alone", "variant-alone", "with-rule",
        "changes-nothing", "bad-count"])
def test_variant_usage_errors_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_separating_hands_come_as_json_with_each_misreadings_bid():
    result = run("deal", "--separating", "r3-unbalanced-only,1nt-15-17", "--count", "2",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["misreadings"] == ["r3-unbalanced-only", "1nt-15-17"] and data["seed"] == 1
    assert len(data["hands"]) == 2
    for entry in data["hands"]:
        assert [bid["by"] for bid in entry["bids"]] == [
            "the assignment", "r3-unbalanced-only", "1nt-15-17"]
        assert len({bid["bid"] for bid in entry["bids"]}) == 3
    text = run("deal", "--separating", "r3-unbalanced-only,1nt-15-17", "--count", "2")
    assert [line.split(":")[0] for line in text.stdout.splitlines()] == [
        entry["hand"] for entry in data["hands"]]


@pytest.mark.parametrize("output_format", ["pbn", "lin", "dealer"])
def test_separating_hands_refuse_a_format_they_do_not_write(output_format):
    result = run("deal", "--separating", "no-2nt", "--format", output_format)
    assert result.exit_code == 2
    assert f"--separating writes text or json, not {output_format}" in result.output
