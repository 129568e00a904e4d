"""A card's facts in plain words, for ``forcecheck catalog show``."""

from __future__ import annotations

from forcecheck.cards.model import Card, Face


def _list(values) -> str:
    return ", ".join(sorted(values)) if values else "none"


def _face_lines(face: Card | Face, indent: str, costed: bool = True) -> list[str]:
    lines = [
        f"{indent}types:      {_list(face.types)}",
        f"{indent}subtypes:   {_list(face.subtypes)}",
        f"{indent}attributes: {_list(face.attributes)}",
    ]
    if costed:
        lines.append(f"{indent}cost:       {face.cost or 'none'} (total cost {face.total_cost})")
    return lines


def _condition(condition) -> str:
    """A construction condition in words, with the card text it was read from when known."""
    from forcecheck.cards.conditions import label, problem

    if problem(condition) is not None:
        return f"{condition!r} (not readable: {problem(condition)})"
    text = condition.get("text")
    return f"{label(condition)}" + (f'  ("{text}")' if text else "")


def describe_card(card: Card) -> str:
    lines = [f"{card.name}  [{card.game}{'' if card.lang == 'en' else ', ' + card.lang}]"]
    lines += _face_lines(card, "  ", costed=card.game == "fow")
    if card.split:
        lines.append(f"  Alternative card: total cost of both halves {sum(card.face_costs())} (CR 1307.5b)")
    if card.faces:
        lines.append(f"  deckbuilding attributes (all faces, CR 404.8): {_list(card.attributes)}")
        for face in card.faces:
            lines.append(f"  other face: {face.name}")
            lines += _face_lines(face, "    ")
    keywords = ", ".join(f"{k} {v}" for k, v in sorted(card.keywords.items())) or "none"
    lines.append(f"  keywords:   {keywords}")
    if card.unlimited_copies:
        lines.append("  copies:     any number (card text)")
    elif card.copy_limit is not None:
        lines.append(f"  copies:     up to {card.copy_limit} (card text)")
    if card.will:
        lines.append(f"  produces:   {_list(card.will)} will")
    for condition in card.conditions:
        lines.append(f"  condition:  {_condition(condition)}")
    for text in card.unchecked:
        lines.append(f"  not checked: {text}")
    if card.aliases:
        lines.append(f"  also named: {', '.join(card.aliases)}")
    for lang, names in card.names.items():
        lines.append(f"  name ({lang}):  {names[0]}" + (f" (also {', '.join(names[1:])})" if names[1:] else ""))
    shown = [f"{p} ({card.printing_names[p]})" if p in card.printing_names else p for p in card.printings]
    lines.append(f"  printings:  {', '.join(shown) or 'none'}")
    if card.regions is not None:
        where = "/".join(r.upper() for r in sorted(card.regions)) or "neither the OCG nor the TCG"
        own = "; ".join(f"{p} {'/'.join(r.upper() for r in sorted(found)) or 'neither'} only"
                        for p, found in card.printing_regions.items())
        lines.append(f"  released:   {where}" + (f" ({own})" if own else ""))
    return "\n".join(lines)
