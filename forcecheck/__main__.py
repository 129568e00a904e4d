"""``python -m forcecheck`` runs the same CLI as the ``forcecheck`` console script."""

from forcecheck.cli import run

if __name__ == "__main__":  # pragma: no cover - exercised through subprocess tests
    run()
