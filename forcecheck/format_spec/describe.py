"""Plain-words rendering of a format spec for ``forcecheck formats show``."""

from __future__ import annotations

from forcecheck.format_spec.model import FormatSpec, RulerValue, Selector


def quantity(q) -> str:
    if isinstance(q, RulerValue):
        return f"the ruler's {q.ruler} number"
    return str(q)


def bound(rule) -> str:
    if getattr(rule, "one_of", None):
        return "exactly " + " or ".join(quantity(q) for q in rule.one_of)
    if getattr(rule, "exactly", None) is not None:
        return f"exactly {quantity(rule.exactly)}"
    low, high = getattr(rule, "min", None), getattr(rule, "max", None)
    if low is not None and high is not None:
        return f"{quantity(low)} to {quantity(high)}"
    if low is not None:
        return f"at least {quantity(low)}"
    return f"at most {quantity(high)}"


def selector(sel: Selector | None) -> str:
    if sel is None:
        return "any card"
    parts = []
    for field, label in (("type", "type"), ("subtype", "sub-type"), ("attribute", "attribute"), ("keyword", "keyword"), ("name", "name")):
        value = getattr(sel, field)
        if value is not None:
            values = [value] if isinstance(value, str) else value
            parts.append(f"{label} {' or '.join(values)}")
    if sel.cost is not None:
        if isinstance(sel.cost, int):
            parts.append(f"total cost {sel.cost}")
        elif sel.cost.max is None:
            parts.append(f"total cost {sel.cost.min} or more")
        elif not sel.cost.min:
            parts.append(f"total cost {sel.cost.max} or less")
        else:
            parts.append(f"total cost {sel.cost.min}-{sel.cost.max}")
    if getattr(sel, "alternative", None) is not None:
        parts.append("an Alternative card" if sel.alternative else "not an Alternative card")
    if sel.all:
        parts.append(" and ".join(f"({selector(s)})" for s in sel.all))
    if sel.any:
        parts.append(" or ".join(f"({selector(s)})" for s in sel.any))
    if sel.not_ is not None:
        parts.append(f"not ({selector(sel.not_)})")
    return ", ".join(parts)


def rule_summary(rule, spec: FormatSpec) -> str:
    """What the rule checks, in words, from its parameters (the description says why)."""
    where = ", ".join(spec.section(s).title for s in rule.sections)
    kind = rule.kind
    if kind == "section-size":
        what = "cards" if rule.where is None else f"cards with {selector(rule.where)}"
        text = f"{where}: {bound(rule)} {what}"
    elif kind == "card-count":
        noun = "distinct names" if rule.measure == "distinct" else "cards"
        text = f"{where}: {bound(rule)} {noun} with {selector(rule.where)}"
    elif kind == "copy-limit":
        text = f"{where} together: at most {quantity(rule.max)} copies of a name"
        if rule.exempt is not None:
            text += f" (except {selector(rule.exempt)})"
        if rule.card_limits:
            text += "; a card's own text may allow more"
        if rule.ruler_restriction:
            text += f"; a ruler with {rule.ruler_restriction} caps every card"
    elif kind == "allowed-cards":
        text = f"{where}: only {selector(rule.allow)}"
        if rule.where is not None:
            text += f" (judging cards with {selector(rule.where)})"
    elif kind == "forbidden-cards":
        text = f"{where}: no {selector(rule.forbid)}"
        if rule.where is not None:
            text += f" (judging cards with {selector(rule.where)})"
    elif kind == "card-pool":
        from forcecheck.rules.pool import region_name  # here: rules sit above the spec; the card-pool rule owns the region names

        text = (f"{where}: only cards released in the {region_name(rule.region)} (the card data's releases; a card "
                "listed by passcode, in that printing)")
    elif kind == "requires-ruler-keyword":
        text = f"{where}: empty unless the ruler has {rule.keyword}"
    elif kind == "ruler-attributes":
        what = "will symbols" if rule.of == "will" else "attributes"
        relation = "share one of" if rule.mode == "share" else "stay within"
        target = "the attributes the ruler's text allows" if rule.against == "deck-restriction" else f"the ruler's {what}"
        text = f"{where}: {selector(rule.where)} must {relation} {target}"
        if not rule.allow_no_attribute:
            text += f" (no {what[:-1]} is not allowed)"
    elif kind == "banlist":
        if rule.versions:
            shown = "; ".join(
                f"{v.name} from {v.effective}: {len(v.cards)} entries"
                + (f", {len(v.combinations)} combination bans" if v.combinations else "")
                + f" (source: {v.source})"
                for v in rule.versions
            )
            text = f"{where}: the version in force on the run's date (--as-of): {shown}"
        elif rule.cards is not None:
            text = f"{where}: {rule.list_name}, {len(rule.cards)} cards listed"
        else:
            text = f"{where}: the banlist chosen with --banlist / --banlist-file, else {_default_banlist(rule)}"
        if getattr(rule, "required", False):
            text += "; without a list to apply every deck is told so (its card pool cannot be checked): --banlist none checks the structure alone"
    elif kind == "ruler-area":
        text = f"{where}: one starting ruler{' (' + selector(rule.starting) + ')' if rule.starting is not None else ''}, and beside it only the rulers its [Partner], [Tag] and the sub-ruler an [Aid] allows (at most one [Tag] and one [Aid] apply)"
    elif kind == "ruler-conditions":
        main = ", ".join(spec.section(s).title for s in rule.main_deck)
        text = (
            f"the conditions of every card in the ruler area, on {where} (\"your deck\")"
            + (f", {', '.join(spec.section(s).title for s in rule.stone_deck)} when the text names the magic stone deck" if rule.stone_deck else "")
            + (f", {', '.join(spec.section(s).title for s in rule.sideboard)} when it names the side deck" if rule.sideboard else "")
            + f"; a condition that counts the deck counts {main} (the kinds of condition: below)"
        )
    elif kind == "unchecked-condition":
        text = f"{where}: a warning for each construction text of a card there that forcecheck does not model"
    elif kind == "no-shared-names":
        text = f"{where}: no card shares a name with a card in {', '.join(spec.section(s).title for s in rule.others)}"
    else:  # pragma: no cover - every kind is listed above
        text = where
    if rule.when is not None:
        if rule.when.ruler_has:
            text += f" (when the ruler has {rule.when.ruler_has})"
        if rule.when.ruler_lacks:
            text += f" (when the ruler lacks {rule.when.ruler_lacks})"
    return text


def condition_kinds(spec: FormatSpec) -> list[str]:
    """The kinds of card condition the format's rules check, one line each (``formats show``)."""
    from forcecheck.cards.conditions import KINDS

    kinds = {rule.kind for rule in spec.rules}
    checked_by = {
        "ruler-conditions": ("only", "forbid", "deck-size", "distinct-names", "with-ruler"),
        "ruler-area": ("partner", "tag", "aid"),
    }
    shown = [k for kind, names in checked_by.items() if kind in kinds for k in names]
    if any(rule.kind == "copy-limit" and getattr(rule, "ruler_limits", False) for rule in spec.rules):
        shown.append("copies")
    return [f"{name}: {KINDS[name]}" for name in KINDS if name in shown]


def _default_banlist(rule) -> str:
    """What a banlist rule applies when no list is chosen for the run, in words."""
    if rule.default:
        return f"the imported list {rule.default}"
    if rule.versions:
        return f"the version in force on --as-of (default today) of {', '.join(v.name for v in rule.versions)}"
    if rule.imported:
        return (f"the latest imported list whose name matches /{rule.imported.strip()}/ that took effect by --as-of "
                "(default today); none while no such list is imported")
    return "none"
