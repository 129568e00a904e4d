"""The command that adds an extra (``[sheets]``, ``[web]``, ``[plots]``) to this forcecheck.

forcecheck is not on the package index, so ``pip install "forcecheck[sheets]"`` would fail or,
worse, fetch somebody else's package. The hint is built from where this forcecheck was installed
from (pip records it in ``direct_url.json``, PEP 610): a checkout (editable or not), a Git
address at a revision, or a wheel file; with the interpreter forcecheck runs in, so the command
installs into the right environment.
"""

from __future__ import annotations

import json
import shlex
import sys


def _direct_url() -> dict | None:
    """What pip recorded of where forcecheck came from, or None (not installed by pip, or a
    version of pip that did not record it)."""
    try:
        from importlib.metadata import PackageNotFoundError, distribution

        try:
            raw = distribution("forcecheck").read_text("direct_url.json")
        except PackageNotFoundError:
            return None
        data = json.loads(raw) if raw else None
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def install_extra(extra: str, source: dict | None = None) -> str:
    """``/path/python -m pip install -e '/checkout[sheets]'``: the extra, from forcecheck's own source."""
    info = _direct_url() if source is None else source
    pip = f"{shlex.quote(sys.executable)} -m pip install"
    url = str((info or {}).get("url", ""))
    sub = (info or {}).get("subdirectory")
    sub = sub.strip("/") if isinstance(sub, str) and sub.strip("/") else ""
    fragment = f"#subdirectory={sub}" if sub else ""  # PEP 610: the project is in this folder of the checkout or archive
    if url.startswith("file://"):
        from urllib.parse import unquote, urlparse

        path = unquote(urlparse(url).path)
        if isinstance(info.get("dir_info"), dict):
            if sub:
                path = f"{path.rstrip('/')}/{sub}"
            editable = "-e " if info["dir_info"].get("editable") else ""
            return f"{pip} {editable}{shlex.quote(f'{path}[{extra}]')}"
        return f"{pip} {shlex.quote(f'forcecheck[{extra}] @ {url}{fragment}')}"  # a wheel or sdist file
    vcs = (info or {}).get("vcs_info")
    if url and isinstance(vcs, dict):
        revision = vcs.get("requested_revision") or vcs.get("commit_id")
        at = f"@{revision}" if revision else ""
        kind = vcs.get("vcs", "git")
        return f"{pip} {shlex.quote(f'forcecheck[{extra}] @ {kind}+{url}{at}{fragment}')}"
    if url:
        return f"{pip} {shlex.quote(f'forcecheck[{extra}] @ {url}{fragment}')}"
    return (f"{pip} 'forcecheck[{extra}] @ <where this forcecheck came from>' (forcecheck is not on the package "
            f"index; in a checkout: pip install -e '.[{extra}]')")
