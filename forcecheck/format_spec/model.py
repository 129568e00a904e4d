"""Pydantic models of a format spec. Unknown keys are errors everywhere (``extra="forbid"``).

A rule is a *kind* (a generic check, see ``forcecheck.rules``) plus its parameters: a
*selector* over card facts, a *scope* of sections and a *bound* whose values are literal or
taken from the ruler (``{ruler: stranger}`` = the ruler's Stranger number).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from forcecheck.format_spec.slugs import slugify

SLUG = r"^[a-z0-9][a-z0-9-]*$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class RulerValue(Strict):
    """A number taken from the ruler's keyword, e.g. ``{ruler: stranger}`` -> 10 for Faria.

    When the ruler lacks the keyword the value is undefined and the rule does not apply;
    a ``requires-ruler-keyword`` rule is what reports the missing keyword.
    """

    ruler: str

    @field_validator("ruler")
    @classmethod
    def _slug(cls, value: str) -> str:
        return slugify(value)


Quantity = Union[Annotated[int, Field(ge=0)], RulerValue]


class CostRange(Strict):
    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=0)


Names = Union[str, list[str]]


class Selector(Strict):
    """Which cards a rule talks about. Every field given must hold (AND); lists mean any-of.

    ``attribute: none`` matches cards with no attribute. ``cost`` is the total cost under the
    format's ``card_policy``. ``alternative: true`` matches Alternative cards (CR 1307), ``false``
    every other card. ``all`` / ``any`` / ``not`` combine selectors.
    """

    type: Names | None = None
    subtype: Names | None = None
    attribute: Names | None = None
    keyword: Names | None = None
    name: Names | None = None
    cost: int | CostRange | None = None
    alternative: bool | None = None
    all: list[Selector] | None = None
    any: list[Selector] | None = None
    not_: Selector | None = Field(default=None, alias="not")

    @model_validator(mode="after")
    def _not_empty(self) -> Selector:
        if not any(getattr(self, f) is not None for f in type(self).model_fields):
            raise ValueError("a selector needs at least one condition")
        return self


class Condition(Strict):
    """When a rule applies, judged on the ruler (e.g. only for rulers with Grimoire)."""

    ruler_has: str | None = None
    ruler_lacks: str | None = None


class RuleBase(Strict):
    id: str = Field(pattern=SLUG)
    description: str
    """The rule in plain words; shown by ``formats show`` and in messages."""
    source: str | None = None
    """Where the rule comes from (seed section, CR number), for people checking the spec."""
    severity: Literal["error", "warning"] | None = None
    sections: list[str] = Field(min_length=1)
    when: Condition | None = None


class Bounded(Strict):
    min: Quantity | None = None
    max: Quantity | None = None
    exactly: Quantity | None = None
    one_of: list[Quantity] | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _some_bound(self):
        given = [b for b in ("min", "max", "exactly", "one_of") if getattr(self, b) is not None]
        if not given:
            raise ValueError("give a bound: min, max, exactly or one_of")
        if ("exactly" in given or "one_of" in given) and len(given) > 1:
            raise ValueError("exactly / one_of cannot be combined with other bounds")
        return self


class SectionSizeRule(RuleBase, Bounded):
    """Number of cards in the sections (optionally only those matching ``where``)."""

    kind: Literal["section-size"]
    where: Selector | None = None


class CardCountRule(RuleBase, Bounded):
    """Number of cards (or distinct names) matching ``where`` in the sections: curves, quotas."""

    kind: Literal["card-count"]
    where: Selector
    measure: Literal["cards", "distinct"] = "cards"


class CopyLimitRule(RuleBase):
    """Copies of one name summed over the sections, at most ``max``.

    ``card_limits``: honour a card's own text ("any number of copies", "up to twelve copies").
    ``ruler_restriction``: a ruler keyword whose number caps every card (singleton rulers); per
    CR 404.7a a restriction wins over a card's own expansion.
    """

    kind: Literal["copy-limit"]
    max: Quantity
    where: Selector | None = None
    exempt: Selector | None = None
    card_limits: bool = True
    ruler_restriction: str | None = None
    ruler_limits: bool = False
    """Honour the copy limits the cards in the ruler area set for other cards ("You may have up
    to ten copies of cards named ...", "not more than one copy of any (Stranger) resonator"), and
    a card's own limit while a ruler its text names is used (CR 404.7a: that wins over the
    ruler's restriction, which it explicitly refers to)."""


class AllowedCardsRule(RuleBase):
    """Every card in the sections (that matches ``where``, when given) must match ``allow``."""

    kind: Literal["allowed-cards"]
    allow: Selector
    where: Selector | None = None


class ForbiddenCardsRule(RuleBase):
    """No card in the sections (that matches ``where``, when given) may match ``forbid``."""

    kind: Literal["forbidden-cards"]
    forbid: Selector
    where: Selector | None = None


class CardPoolRule(RuleBase):
    """Every card in the sections was released in ``region`` (Yu-Gi-Oh ``ocg`` or ``tcg``, as
    the card data says: a YGOPro database's ``ot``); a card listed by a printing (a .ydk
    passcode) is judged by that printing, as YGOPro judges a passcode."""

    kind: Literal["card-pool"]
    region: Literal["ocg", "tcg"]


class RequiresRulerKeywordRule(RuleBase):
    """The sections must be empty unless the ruler has ``keyword`` (Grimoire, Stranger, ...)."""

    kind: Literal["requires-ruler-keyword"]
    keyword: str


class RulerAreaRule(RuleBase):
    """The ruler area holds one starting ruler and only the rulers and sub-rulers its [Partner],
    [Tag] and [Aid] text allows (CR 402.2, 1145, 1155, 1164). ``starting``: which cards may be
    the starting ruler (CR 402.2: no Arcana or Basic Ruler); any ruler when not given."""

    kind: Literal["ruler-area"]
    starting: Selector | None = None


class RulerConditionsRule(RuleBase):
    """The deck meets every condition of the cards in the ruler area (their deckbuilding text
    as data, ``Card.conditions``). ``sections`` is what a card's text calls "your deck" for
    cards it allows or forbids (CR 404.1b: the deck and the auxiliary decks, not the
    sideboard); ``main_deck`` what it counts ("exactly sixty cards in your deck", CR 402.3);
    ``stone_deck`` is added for text that names the magic stone deck, ``sideboard`` for text
    that names the side deck."""

    kind: Literal["ruler-conditions"]
    main_deck: list[str] = Field(min_length=1)
    stone_deck: list[str] = []
    sideboard: list[str] = []

    def named_sections(self) -> list[str]:
        return [*self.sections, *self.main_deck, *self.stone_deck, *self.sideboard]


class UncheckedRulerConditionRule(RuleBase):
    """A warning for each piece of deckbuilding text of a card in the sections that forcecheck
    does not model (so a deck is never passed silently)."""

    kind: Literal["unchecked-condition"]


class NoSharedNamesRule(RuleBase):
    """No card in the sections shares a name with a card in ``others`` (a <Crew> EX Deck and
    the deck and sideboard, CR 319.5a)."""

    kind: Literal["no-shared-names"]
    others: list[str] = Field(min_length=1)

    def named_sections(self) -> list[str]:
        return [*self.sections, *self.others]


class RulerAttributesRule(RuleBase):
    """Cards' attributes (or a stone's will) measured against the ruler's attributes.

    ``mode: share`` - at least one attribute in common; ``mode: within`` - none outside.
    ``allow_no_attribute``: whether a card with no attribute passes.
    ``against: attributes`` compares with the ruler's own attributes (all faces);
    ``against: deck-restriction`` with the attributes the ruler's text restricts the deck to
    ("You may have only light and/or fire cards"), and does not apply to rulers without one.
    """

    kind: Literal["ruler-attributes"]
    mode: Literal["share", "within"]
    of: Literal["attributes", "will"] = "attributes"
    against: Literal["attributes", "deck-restriction"] = "attributes"
    where: Selector | None = None
    allow_no_attribute: bool = False


class BanlistVersion(Strict):
    """One dated version of a banlist written in the spec: in force from ``effective`` on."""

    name: str
    effective: date
    source: str
    """Where the list was published (cite it: a spec ships only lists it can cite)."""
    cards: dict[str, Annotated[int, Field(ge=0)]] = {}
    combinations: list[list[str]] = []
    """Cards that may not be used together: each list names two or more cards."""
    whitelist: bool = False
    record: Literal["complete", "partial"] = "complete"
    """How much of the version's public announcement is known: ``partial`` when part of it
    could not be read; every report that applies it then says so (FC603) with ``missing``."""
    missing: str = ""
    """What of a partial version's announcement is missing (said in the FC603 warning)."""

    @field_validator("combinations")
    @classmethod
    def _pairs(cls, value: list[list[str]]) -> list[list[str]]:
        for combo in value:
            if len(combo) < 2:
                raise ValueError("a combination names at least two cards")
        return value

    @model_validator(mode="after")
    def _said(self) -> BanlistVersion:
        if self.record == "partial" and not self.missing.strip():
            raise ValueError("a partial version says what is missing (missing: ...)")
        return self


class BanlistRule(RuleBase):
    """Per-card copy caps from a banned or Forbidden/Limited list: 0 = banned.

    The list is either written here (``cards``: name, printing code or passcode -> copies,
    with ``list_name``), or chosen when checking (``--banlist NAME``, ``--banlist-file``);
    ``default`` names an imported list to use when none is chosen. ``whitelist``: cards not
    listed are forbidden. A rule with no list to apply does not run (the report says so).
    """

    kind: Literal["banlist"]
    list_name: str | None = None
    cards: dict[str, Annotated[int, Field(ge=0)]] | None = None
    whitelist: bool = False
    default: str | None = None
    versions: list[BanlistVersion] = []
    """Dated versions; the one in force on the run's date (--as-of, default today) applies."""
    recorded: date | None = None
    """When the versions written here were recorded (last compared with their source): a check
    for a date more than ``stale_after_months`` later warns that the list may have changed
    since (FC604), never silently judges by an old list."""
    stale_after_months: Annotated[int, Field(ge=1, strict=True)] = 12
    """How long after ``recorded`` the shipped list is trusted without a warning (a child format
    sets its own)."""
    imported: str | None = None
    """A regular expression over list names saying which lists the format takes (its region:
    OCG lists for an OCG format, TCG lists for a TCG one): among the imported lists, and among a
    --banlist-file's, the latest one with a date on or before the run's date applies."""
    list_file: str | None = None
    """Where the format's own list is published (the file's URL): a report that finds it missing
    names the file and the command that imports it, never the ``imported`` pattern."""
    required: bool = False
    """The format cannot be judged without its list (a whitelist that is its card pool): with
    no list to apply, every deck gets a finding that says so. ``--banlist none`` still turns
    the rule off (the structure alone, asked for)."""
    pool_only: bool = False
    """Only the list's card pool applies: a card it does not list is outside the pool (a
    whitelist), one it lists at 0 is forbidden, and the other counts cap nothing (EDOPro's Speed
    Duel list gives some cards 1 or 2 in place of a system it does not model, as its own note
    says); the format's copy limit caps them."""
    points_cap: Annotated[int, Field(ge=0, strict=True)] | None = None  # strict: `true` is no cap of 1
    """The list is a points list (Genesys: EDOPro ``$genesys``): each card is worth its listed
    points (0 when not listed) and the cards of the sections together may carry at most this
    many (``--points-cap`` or the ``points_cap`` setting changes it for an event). Without it,
    the rule caps copies and refuses a points list."""

    @model_validator(mode="after")
    def _named(self) -> BanlistRule:
        if self.points_cap is not None and (self.whitelist or self.cards is not None or self.versions):
            raise ValueError("points_cap: the points come from an imported points list ($genesys), not from cards written here")
        if self.cards is not None and not self.list_name:
            raise ValueError("a banlist written in the spec needs a list_name (reports name the list used)")
        if self.imported is not None:
            try:
                re.compile(self.imported)
            except re.error as exc:
                raise ValueError(f"imported: not a regular expression ({exc})") from None
        return self


Rule = Annotated[
    Union[
        SectionSizeRule,
        CardCountRule,
        CopyLimitRule,
        AllowedCardsRule,
        ForbiddenCardsRule,
        CardPoolRule,
        RequiresRulerKeywordRule,
        RulerAttributesRule,
        BanlistRule,
        RulerAreaRule,
        RulerConditionsRule,
        UncheckedRulerConditionRule,
        NoSharedNamesRule,
    ],
    Field(discriminator="kind"),
]


class SectionSpec(Strict):
    id: str = Field(pattern=SLUG)
    title: str
    aliases: list[str] = []
    """Other header titles players use for this section (``Side Deck`` for ``Sideboard``)."""
    groups: list[str | dict[str, Selector]] = []
    """Headers that name a group of cards inside this section (``Monsters``, ``Spells`` in a
    Yu-Gi-Oh! main deck, ``Resonators``, ``Chants`` in Force of Will): their cards belong to
    this section (or to the sideboard, under a sideboard header), and their announced count
    is the group's. A group given as ``{Monsters: {type: monster}}`` also says which cards it
    holds, so a table of groups flattened into one column is read column by column."""

    @field_validator("groups")
    @classmethod
    def _one_title_each(cls, value):
        for item in value:
            if isinstance(item, dict) and len(item) != 1:
                raise ValueError("a group with a selector is one title and its selector: {Monsters: {type: monster}}")
        return value
    binds: Selector | None = None
    """Which card a name written under this section's header means when cards of several kinds
    carry it: the one this selector matches (a Speed Duel ``Skill Card:`` section, ``{type:
    skill}``, binds ``Destiny Draw`` to the Skill; under ``Main Deck:`` it is the Spell). A
    name only one card carries, and a card named by its code, are bound as written."""
    placement: Selector | Literal["rest"] | None = None
    """Where cards written under no header go: a selector (cards that can only go here:
    ``{type: magic-stone}`` for a magic stone deck), or ``rest`` for the one section that takes
    every card no selector claims (the main deck). A format without placements reports such
    cards as outside any section."""


class RulerSpec(Strict):
    """Where the ruler is: rules that take numbers or attributes from the ruler read these cards."""

    section: str
    where: Selector | None = None


class SideboardSpec(Strict):
    """Which section is the sideboard and which sections may not exchange cards with it
    between games (``forcecheck verify``): FoW locks the ruler and the rune deck (CR 403.2a)."""

    section: str
    locked: list[str] = []
    follows: list[str] = []
    """Sections the sideboard is written after: cards under no header that come after one of
    them (and after main deck cards) and cannot belong to it are read as the sideboard
    (the magic stone deck in Force of Will, the extra deck in Yu-Gi-Oh!)."""


class CardPolicy(Strict):
    """How card facts are read in this format.

    ``double_faced_cost``: the total cost of a card with several faces - ``front`` (the face
    it starts on), ``max`` (the higher of its faces) or ``sum`` (all faces together).
    """

    double_faced_cost: Literal["front", "max", "sum"] = "front"


class FormatSpec(Strict):
    name: str = Field(pattern=SLUG)
    title: str
    game: str = Field(pattern=SLUG)
    description: str = ""
    source: str = ""
    extends: str | None = None
    sections: list[SectionSpec] = Field(min_length=1)
    ruler: RulerSpec | None = None
    card_policy: CardPolicy = CardPolicy()
    sideboard: SideboardSpec | None = None
    rules: list[Rule] = []
    notes: list[str] = []

    @model_validator(mode="after")
    def _consistent(self) -> FormatSpec:
        ids = [s.id for s in self.sections]
        dupes = {i for i in ids if ids.count(i) > 1}
        if dupes:
            raise ValueError(f"section ids repeated: {', '.join(sorted(dupes))}")
        rule_ids = [r.id for r in self.rules]
        dupes = {i for i in rule_ids if rule_ids.count(i) > 1}
        if dupes:
            raise ValueError(f"rule ids repeated: {', '.join(sorted(dupes))}")
        known = set(ids)
        rests = [s.id for s in self.sections if s.placement == "rest"]
        if len(rests) > 1:
            raise ValueError(f"only one section may have placement: rest ({', '.join(rests)} do)")
        if self.ruler and self.ruler.section not in known:
            raise ValueError(f"ruler.section {self.ruler.section!r} is not a section id ({', '.join(ids)})")
        if self.sideboard:
            for section in [self.sideboard.section, *self.sideboard.locked, *self.sideboard.follows]:
                if section not in known:
                    raise ValueError(f"sideboard names unknown section {section!r} (sections: {', '.join(ids)})")
        for index, rule in enumerate(self.rules):
            named = rule.named_sections() if hasattr(rule, "named_sections") else rule.sections
            unknown = list(dict.fromkeys(s for s in named if s not in known))
            if unknown:
                from pydantic_core import PydanticCustomError

                from forcecheck.wording import close_names, did_you_mean

                near = close_names(unknown[0], ids)
                hint = f"; {did_you_mean(near)}" if near else ""
                # a custom error carries the rule's index, so the loader names the rule's own line
                raise PydanticCustomError(
                    "unknown_section", "rule {rule} names unknown section(s) {unknown}{hint} (sections: {sections})",
                    {"rule": repr(rule.id), "unknown": ", ".join(unknown), "hint": hint, "sections": ", ".join(ids), "index": index},
                )
        return self

    def section(self, section_id: str) -> SectionSpec:
        return next(s for s in self.sections if s.id == section_id)
