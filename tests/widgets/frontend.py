"""What the browser does to a panel's live chart, done from Python: a click or a brush sets
the JupyterChart's synced ``_vl_selections`` state exactly as its JavaScript does
(``model.set("_vl_selections", {name: {value: <Vega signal>, store: [...]}})``)."""


def click(slot, name: str, **fields) -> None:
    """Click the mark whose selected ``fields`` have these values (a point selection)."""
    signal = {**{field: [value] for field, value in fields.items()},
              "vlPoint": {"or": [fields]}}
    _set(slot, name, signal)


def brush(slot, name: str, **ranges) -> None:
    """Brush an interval selection: ``ranges`` maps each field to [low, high]; no ranges
    is the empty brush (a click beside it)."""
    _set(slot, name, {field: list(bounds) for field, bounds in ranges.items()})


def _set(slot, name: str, signal) -> None:
    widget = slot.widget
    assert widget is not None and slot.chart is not None, "no live chart is shown"
    assert widget.selections.has_trait(name), f"the chart has no selection {name!r}"
    widget._vl_selections = {**widget._vl_selections, name: {"value": signal, "store": []}}
