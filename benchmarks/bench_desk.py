"""Benchmark: players submitting their lists to the registration desk at once, over loopback.

    python benchmarks/bench_desk.py [--players 200,1000] [--dbs sqlite,postgresql] [--workers 1,all]
                                    [--rounds 1] [--postgres URL] [--out DIR]

For each database, worker count and number of players: starts `forcecheck serve --workers N`
in a child process on a fresh database (a SQLite file in a temporary folder, or a new
PostgreSQL database next to the one --postgres or FORCECHECK_TEST_POSTGRES_URL names, dropped
after), creates an event, then every player submits at once from one asyncio load generator
(plain HTTP/1.1, one connection each; three lists in four legal, one illegal). Each player is a client of its own, as
on a phone: the client names its address in X-Forwarded-For, which the desk trusts from
127.0.0.1 (as behind a reverse proxy), so the per-client allowance applies as in real life.

Prints submissions/s (players / wall time of the burst), p50/p95/p99 latency, errors (any answer
but 201, or none within 120 s) and whether every acknowledged submission is stored exactly once
(the API lists each player once; the database holds one registration, one version and one audit
row per acknowledgement). Writes the figures as JSON into --out (default: a new temporary
folder), never into the checkout. Traffic goes to 127.0.0.1 only; every loop is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ADMIN = "benchmark-organiser-token-" + "x" * 16
DECK = (ROOT / "sample_decks" / "bifrost" / "legal-faria-stranger.txt").read_text(encoding="utf-8")
ILLEGAL = (ROOT / "sample_decks" / "bifrost" / "illegal-unknown-card-name.txt").read_text(encoding="utf-8")


async def post(port: int, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    """One HTTP/1.1 POST on a new loopback connection, read to the end: a load generator far
    lighter than a full client library (which would take more of the shared cores than the
    desk it measures)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        writer.write(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(body)}\r\nConnection: close\r\n{head}\r\n".encode() + body)
        await writer.drain()
        answer = await reader.read()
    finally:
        writer.close()
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    return status, answer.partition(b"\r\n\r\n")[2]


async def burst(port: int, event_id: str, count: int) -> tuple[float, list[float], list[dict], int]:
    bodies = [json.dumps({"player": f"Player {i:04d}", "decklist": DECK if i % 4 else ILLEGAL}).encode() for i in range(count)]
    start = asyncio.Event()

    async def one(i: int) -> tuple[float, dict | None]:
        await start.wait()
        t = time.perf_counter()
        try:
            status, body = await asyncio.wait_for(post(port, f"/api/events/{event_id}/registrations", bodies[i],
                                                       {"X-Forwarded-For": f"10.{i // 65536}.{i // 256 % 256}.{i % 256}"}), 120)
        except (TimeoutError, OSError, ValueError, IndexError):
            return time.perf_counter() - t, None
        return time.perf_counter() - t, json.loads(body) if status == 201 else None

    tasks = [asyncio.create_task(one(i)) for i in range(count)]
    await asyncio.sleep(0.05)
    wall = time.perf_counter()
    start.set()
    results = await asyncio.gather(*tasks)
    wall = time.perf_counter() - wall
    acknowledged = [body for _, body in results if body is not None]
    return wall, [elapsed for elapsed, _ in results], acknowledged, count - len(acknowledged)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def stored(db_url: str, event_id: str) -> tuple[int, int, int]:
    import sqlalchemy as sa

    from forcecheck.web.storage import engine_url

    engine = sa.create_engine(engine_url(db_url))
    with engine.connect() as conn:
        regs = conn.execute(sa.text("SELECT count(*) FROM registrations WHERE event_id = :e"), {"e": event_id}).scalar_one()
        versions = conn.execute(sa.text(
            "SELECT count(*) FROM registration_versions v JOIN registrations r ON r.id = v.registration_id WHERE r.event_id = :e"),
            {"e": event_id}).scalar_one()
        audit = conn.execute(sa.text("SELECT count(*) FROM audit_log WHERE event_id = :e AND action = 'registration.create'"),
                             {"e": event_id}).scalar_one()
    engine.dispose()
    return regs, versions, audit


def run_round(db_url: str, players: int, workers: int, log: str) -> dict:
    import httpx2

    from forcecheck.web.testing import DeskProcess

    desk = DeskProcess(db_url, ADMIN, log_path=log, args=["--workers", str(workers)], env={"PYTHONPATH": str(ROOT)})
    with desk:
        headers = {"Authorization": f"Bearer {ADMIN}"}
        event = httpx2.post(desk.url + "/api/events", headers=headers, timeout=30, json={
            "name": "Benchmark", "format": "bifrost", "date": "2026-12-05", "deadline": "2031-01-01T00:00:00+00:00"}).json()
        wall, latencies, bodies, errors = asyncio.run(burst(desk.port, event["id"], players))
        listed = httpx2.get(f"{desk.url}/api/events/{event['id']}/registrations", headers=headers, timeout=60).json()
    acknowledged = sorted(b["player"] for b in bodies)
    regs, versions, audit = stored(db_url, event["id"])
    once = sorted(r["player"] for r in listed) == acknowledged and regs == versions == audit == len(bodies)
    once = once and len({b["id"] for b in bodies}) == len(bodies)
    return {"players": players, "workers": workers, "wall_s": round(wall, 3), "per_s": round(players / wall, 1),
            "p50_ms": round(percentile(latencies, 0.5) * 1000), "p95_ms": round(percentile(latencies, 0.95) * 1000),
            "p99_ms": round(percentile(latencies, 0.99) * 1000), "errors": errors, "stored_once": once,
            "legal": sum(b["legal"] for b in bodies)}


def main() -> None:
    from forcecheck.web.server import default_workers

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="200,1000", help="comma-separated numbers of players submitting at once")
    parser.add_argument("--dbs", default="sqlite,postgresql", help="sqlite, postgresql or both")
    parser.add_argument("--workers", default="1,all", help="comma-separated worker counts; all: every core")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--postgres", default=os.environ.get("FORCECHECK_TEST_POSTGRES_URL"),
                        help="a postgresql:// URL whose role may create databases (default $FORCECHECK_TEST_POSTGRES_URL)")
    parser.add_argument("--out", default=None, help="folder for the JSON figures and the desks' logs (default: a new temporary one)")
    args = parser.parse_args()
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="forcecheck-bench-desk-"))
    out.mkdir(parents=True, exist_ok=True)
    cores = default_workers()
    workers = sorted({cores if w.strip() == "all" else int(w) for w in args.workers.split(",")})
    players = [int(p) for p in args.players.split(",")]
    dbs = [d.strip() for d in args.dbs.split(",")]
    if "postgresql" in dbs and not args.postgres:
        print("postgresql skipped: give --postgres URL (or FORCECHECK_TEST_POSTGRES_URL)", file=sys.stderr)
        dbs.remove("postgresql")
    print(f"{cores} cores; client and desk on this machine; {args.rounds} round(s) each, best rate kept", flush=True)
    print(f"{'db':<11} {'workers':>7} {'players':>7} {'subm/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'errors':>6}  stored once",
          flush=True)
    results = []
    for db in dbs:
        for n_workers in workers:
            for n_players in players:
                rounds = []
                for r in range(args.rounds):
                    drop = None
                    with tempfile.TemporaryDirectory() as tmp:
                        if db == "sqlite":
                            url = str(Path(tmp) / "desk.sqlite3")
                        else:
                            from forcecheck.web.testing import fresh_postgres

                            url, drop = fresh_postgres(args.postgres)
                        try:
                            rounds.append(run_round(url, n_players, n_workers, str(out / f"desk-{db}-{n_workers}w-{n_players}-{r}.log")))
                        finally:
                            if drop:
                                drop()
                best = max(rounds, key=lambda x: x["per_s"])
                best = {"db": db, **best, "rounds": rounds}
                results.append(best)
                print(f"{db:<11} {n_workers:>7} {n_players:>7} {best['per_s']:>7.0f} {best['p50_ms']:>7} {best['p95_ms']:>7} "
                      f"{best['p99_ms']:>7} {best['errors']:>6}  {'yes' if all(x['stored_once'] for x in rounds) else 'NO'}", flush=True)
    path = out / "desk-bench.json"
    path.write_text(json.dumps({"cores": cores, "results": results}, indent=2))
    print(f"results: {path}")
    if not all(x["stored_once"] for r in results for x in r["rounds"]):
        sys.exit(1)


if __name__ == "__main__":
    main()
