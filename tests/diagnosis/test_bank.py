"""The bank: shipped data held to the engine and to the exact counts of
bidder/misreadings.json, its fingerprint, and how it is built and written."""

import random

import pytest

from bidder import packed
from bidder.diagnosis import bank as bank_module
from bidder.diagnosis import building
from bidder.diagnosis.bank import (FIELDS, Bank, BankError, Row, agreeing, load, row, row_of,
                                   save, shipped)
from bidder.diagnosis.enumeration import witnesses
from bidder.diagnosis.hypotheses import answers, fingerprint, reading_id, readings
from bidder.misreadings import counts, distinguishable, variant_by_id

SAMPLE = 60


def test_the_shipped_bank_reads_the_space_of_misreadings_json():
    bank = shipped()
    assert bank.ids == ("rules", *(variant.id for variant in distinguishable()))
    assert set(bank.ids[1:]) <= set(counts())
    # worked out afresh: collecting filled the caches
    assert readings.__wrapped__() == readings() == (None, *distinguishable())
    assert bank.fingerprint == fingerprint.__wrapped__() == fingerprint()


def test_a_sample_of_the_bank_is_what_the_engine_answers():
    bank = shipped()
    rows = random.Random(31).sample(bank.rows, SAMPLE) + [
        rung for ladder in random.Random(32).sample(bank.ladders, 5) for rung in ladder]
    for found in rows:
        assert [found.answer(place) for place in range(len(bank.ids))] == [
            answers(reading, found.code) for reading in readings()], packed.text(found.code)


def test_every_reading_that_changes_a_bid_is_told_from_the_rules_by_some_hand():
    bank = shipped()
    for place, reading in enumerate(readings()[1:], start=1):
        if not reading.changes_output:
            assert any(found.answer(place)[0] != found.answer(0)[0]
                       for found in bank.rows), reading.id


@pytest.mark.parametrize("ids_changed", [False, True], ids=["another fingerprint",
                                                            "other readings"])
def test_a_bank_built_for_another_space_is_refused_saying_how_to_rebuild(
        tmp_path, monkeypatch, ids_changed):
    bank = shipped()
    other = Bank(bank.ids[:-1] if ids_changed else bank.ids, bank.rows[:3], (),
                 bank.fingerprint if ids_changed else "0" * 16)
    save(other, tmp_path / "bank.json.gz")
    monkeypatch.setattr(bank_module, "BANK_FILE", tmp_path / "bank.json.gz")
    monkeypatch.setattr(bank_module, "load", lambda path=None: load(tmp_path / "bank.json.gz"))
    shipped.cache_clear()
    try:
        with pytest.raises(BankError, match="rebuild it with `make bank`"):
            shipped()
    finally:
        monkeypatch.undo()
        shipped.cache_clear()
    assert shipped().fingerprint == fingerprint()


def test_a_bank_written_reads_back_the_same_and_the_same_bytes(tmp_path):
    bank = shipped()
    small = Bank(bank.ids, bank.rows[:20], bank.ladders[:2], bank.fingerprint)
    save(small, tmp_path / "one.json.gz")
    save(load(tmp_path / "one.json.gz"), tmp_path / "two.json.gz")
    assert load(tmp_path / "one.json.gz") == small
    assert (tmp_path / "one.json.gz").read_bytes() == (tmp_path / "two.json.gz").read_bytes()


def test_a_hand_the_bank_lacks_is_answered_by_the_engine():
    code = packed.encode("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S")
    found = row(code)
    assert found == row_of(code)
    assert found.answer(0) == answers(None, code)


@pytest.mark.parametrize("fields, firsts", [
    (FIELDS, [0, 1, 2, 3]),
    (("bid",), [0, 0, 0, 3]),
    (("bid", "distribution"), [0, 0, 2, 3]),
], ids=["everything", "the bid", "the bid and the distribution"])
def test_answers_agree_on_the_fields_asked(fields, firsts):
    values = (("1NT", 16, 0), ("1NT", 15, 0), ("1NT", 16, 1), (None, 16, 0))
    assert agreeing(Row(0, values, (0, 1, 2, 3)), fields) == firsts


def test_the_classes_group_the_readings_the_bank_cannot_tell_apart():
    bank = shipped()
    classes = bank.classes(FIELDS)
    assert classes[0][0] == 0 and sorted(sum(classes, ())) == list(range(len(bank.ids)))
    assert len(classes) == len(set(map(tuple, classes))) > 100
    spelling = bank.ids.index("none-as-string")
    assert spelling in classes[0]


def test_a_small_build_answers_as_the_engine_and_keeps_only_rows_that_split():
    some = list(witnesses((3, 3, 3, 4)))[::7] + list(witnesses((0, 0, 6, 7)))[::11]
    some += some[:3]  # a hand answered as one before adds nothing
    bank = building.build(dealt=40, witnesses=some)
    assert bank.fingerprint == fingerprint() and bank.rows
    for found in bank.rows[:30]:
        assert len(found.values) > 1
        assert found.answer(0) == answers(None, found.code)
    assert building.reduced(bank).rows == bank.rows


def test_the_command_writes_the_bank_it_builds(tmp_path, monkeypatch, capsys):
    bank = shipped()
    small = Bank(bank.ids, bank.rows[:5], bank.ladders[:1], bank.fingerprint)
    monkeypatch.setattr(building, "build", lambda: small)
    building.main([str(tmp_path / "bank.json.gz")])
    assert load(tmp_path / "bank.json.gz") == small
    assert "5 hands and 1 ladders for" in capsys.readouterr().out


def test_the_command_reduces_a_bank_already_written(tmp_path, capsys):
    bank = shipped()
    save(Bank(bank.ids, bank.rows[:5] * 2, (), bank.fingerprint), tmp_path / "in.json.gz")
    building.main([str(tmp_path / "out.json.gz"), str(tmp_path / "in.json.gz")])
    assert load(tmp_path / "out.json.gz").rows == bank.rows[:5]


def test_the_command_reads_its_arguments_from_the_command_line(tmp_path, monkeypatch):
    bank = shipped()
    save(Bank(bank.ids, bank.rows[:2], (), bank.fingerprint), tmp_path / "in.json.gz")
    monkeypatch.setattr("sys.argv", ["bank", str(tmp_path / "out.json.gz"),
                                     str(tmp_path / "in.json.gz")])
    building.main()
    assert load(tmp_path / "out.json.gz").rows == bank.rows[:2]


@pytest.mark.parametrize("reading, place", [
    (None, 0), ("hcp.A=3", 1), ("hcp.J=0", 2), ("hcp.T=1", 3), ("R1.hcp=15-18", 0),
], ids=["the rules", "aces as 3", "jacks as 0", "tens as 1", "a range"])
def test_each_reading_counts_on_a_scale_the_enumeration_weighs(reading, place):
    assert building.scale_place(None if reading is None else variant_by_id(reading)) == place


def test_a_scale_the_enumeration_does_not_weigh_is_refused_saying_where_to_add_it():
    with pytest.raises(building.ScaleError, match="hcp.K=2 counts honours as .* add it"):
        building.scale_place(variant_by_id("hcp.K=2"))


def test_a_dealt_hand_s_witness_is_its_honours_and_lengths():
    code = packed.encode("AS KS 10S 2S AH 3H 2H KD 3D 2D 4C 3C 2C")
    witness = building.witness_of(code)
    assert witness.lengths == (3, 3, 3, 4)
    assert packed.encode_deal(witness.indexes()) == code


def test_the_reading_ids_name_the_rules():
    assert reading_id(None) == "rules"


def test_each_reading_brings_hands_it_answers_otherwise_and_the_build_weighs_them(
        monkeypatch):
    told = list(building.telling_witnesses(count=1))
    assert len(told) == len(readings()) - 1  # every reading in the space changes some hand
    for reading, witness in zip(readings()[1:], told):
        code = packed.encode_deal(witness.indexes())
        if not reading.changes_output:  # those that only write a bid otherwise
            assert answers(reading, code) != answers(None, code), reading.id
    monkeypatch.setattr(building, "every_witness", lambda: iter(told[:3]))
    monkeypatch.setattr(building, "telling_witnesses", lambda: iter(told[3:6]))
    assert building.build(dealt=0).rows


def test_a_reading_with_no_hand_kept_brings_none(monkeypatch):
    monkeypatch.setattr(building, "telling_hand", lambda reading, rng: None)
    assert list(building.telling_witnesses()) == []
