"""A report's charts carry their words in the reader's language: a Spanish class packet's damage
chart names "Mesa 1" and its legend, the departures chart marks "aviso (hora 12)"."""

from django.utils import translation

from scenarios.evacuation import charts as evacuation
from scenarios.stormfury import charts as stormfury


def drawn(language):
    with translation.override(language):
        damage = stormfury.class_damage(
            [{"table": 1, "infrastructure": 3, "population": 2, "roads": 1, "bot_total": 4}]
        )
        departures = evacuation.departures(
            [{"label": "0-6", "from": 0, "to": 6, "count": 2}, {"label": "—", "from": None, "to": None, "count": 1}],
            None,
        )
    return damage + departures


def test_the_charts_speak_the_readers_language():
    spanish = drawn("es")
    assert all(
        words in spanish
        for words in ("Mesa 1", "bot de referencia, misma tormenta", "personas sin evacuar", "aviso (hora 12)")
    )
    assert "table 1" not in spanish and "warning" not in spanish
    dutch = drawn("nl")
    assert "Tafel 1" in dutch and "alarm (uur 12)" in dutch
    assert "Table 1" in drawn("en") and "warning (hour 12)" in drawn("en")


def test_where_the_class_went_is_named_in_the_readers_language():
    from scenarios.evacuation import analysis

    rows = [{"key": key, "label": label, "share": 30, "real": 40} for key, label in analysis.DESTINATION_LABELS.items()]
    with translation.override("es"):
        spanish = evacuation.destinations(rows, "Florida 2004 [1]")
        skipped = analysis.reason_text("leave", "skip")
    assert "Relative" not in spanish and "Public shelter" not in spanish and skipped != "skipped"
    with translation.override("en"):
        assert "Public shelter" in evacuation.destinations(rows, None)
