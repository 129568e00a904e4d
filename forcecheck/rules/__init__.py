"""Rule kinds: small pure functions over a resolved deck, one module per family.

Each kind compiles its spec parameters once (``compile(rule, ctx) -> check``) and the
check yields ``Finding`` records; the engine, not the rule, adds code, rule id, severity
and deck. ``registry.KINDS`` is the table of every kind with its code and documentation.
"""
