"""The benchmark scripts still run on a tiny size."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support import ROOT, script_module, stored_sessions


def _benchmark(name: str):
    return script_module(ROOT / "benchmarks" / f"{name}.py")


def test_settle_benchmark_runs_on_a_tiny_size():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "settle_deals.py"), "--deals", "40", "--rounds", "1"],
        capture_output=True, text=True, check=True,
    )
    last = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(last) == {"deals", "deals_per_second", "solver_p50_us", "solver_p99_us", "solver_vs_reference",
                         "previous_p50_us", "previous_p99_us", "solver_vs_previous"}
    assert last["deals"] == 40 and last["deals_per_second"] > 0
    assert 0 < last["solver_p50_us"] <= last["solver_p99_us"] and last["solver_vs_reference"] > 0


def test_solver_figures_give_the_two_keys_cli_latency_reports():
    bench = _benchmark("settle_deals")
    figures = bench.solver_figures(deals=10, rounds=1)
    assert set(figures) == {"solver_vs_reference", "solver_p99_us"}
    assert figures["solver_vs_reference"] > 0 and figures["solver_p99_us"] > 0


def test_cli_latency_benchmark_runs_on_a_tiny_size(tmp_path):
    """Two sizes, one round (no warm-up), a command of each kind (a reading table, a write, a list from the
    cache, the two timed cold, the merges); every command line of the benchmark is run by the next test."""
    only = ["status", "hand", "sessions", "stats", "ratings"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "cli_latency.py"), "--sizes", "4,40", "--rounds", "1",
         "--no-warm-up", "--no-solver", "--no-cache", "--keep", str(tmp_path), "--only", ",".join([*only, "merge"])],
        capture_output=True, text=True, check=True,
    )
    last = json.loads(done.stdout.strip().splitlines()[-1])
    expected = {f"{c}_vs_{floor}" for c in only for floor in ("floor", "typer")} | {f"{c}_40_vs_4" for c in only}
    assert set(last) == expected | {"floor_typer_vs_human", "peak_mib_40", "peak_floor_mib", "cold_stats_s",
                                    "cold_ratings_s", "cold_stats_peak_mib", "cold_ratings_peak_mib", "merge_4_s",
                                    "merge_40_s"}
    assert all(value > 0 for value in last.values())
    assert "4 hands" in done.stdout and "40 hands" in done.stdout
    assert (tmp_path / "db-4.json").exists() and (tmp_path / "db-40.json").exists()
    assert stored_sessions(tmp_path / "merged-40.json") == stored_sessions(tmp_path / "db-40.json")


def test_every_command_line_the_benchmark_times_runs(tmp_path):
    """What `--only` leaves out of the smoke run still has to be a command that works: each of the
    benchmark's command lines, on a database its own builder made, exits 0 (in-process)."""
    from tests.support import run_cli

    bench = _benchmark("cli_latency")
    path = tmp_path / "db.json"
    bench.build(path, 8, 5)
    for label, argv, _floor, writes in bench.COMMANDS:
        done = run_cli("--db", str(path), *argv)
        assert done.exit_code == 0, (label, done.stderr)
        if writes:
            assert run_cli("--db", str(path), "undo", "--yes").exit_code == 0
    unknown = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "cli_latency.py"), "--only", "stauts"],
                             capture_output=True, text=True)
    assert unknown.returncode == 2 and "no such command label: stauts" in unknown.stderr


def _wrapper(path, after: str = "") -> None:
    """A `ginscore` executable that runs this install, then ``after`` (shell)."""
    path.write_text(f'#!/bin/sh\n"{sys.executable}" -m ginscore "$@"\nstatus=$?\n{after}\nexit $status\n')
    path.chmod(0o755)


def test_the_differential_check_finds_one_install_the_same_as_itself_and_a_changed_one_not(tmp_path):
    """Random ids and the clock repeat from run to run, so an install is step for step itself; one
    that prints a line more differs at every step, and the check exits 1. The installs are given by
    paths relative to where it is run, as a maintainer types them."""
    _wrapper(tmp_path / "same")
    _wrapper(tmp_path / "changed", "echo one line more")

    def differential(old: str, new: str):
        return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "differential.py"), old, new, "--quick",
                               "--steps", "2", "--out", "report"], capture_output=True, text=True, cwd=tmp_path)

    done = differential("./same", "./same")
    assert (done.returncode, done.stdout) == (0, "2 steps, 0 differences\n"), done.stderr
    done = differential("./same", "./changed")
    assert done.returncode == 1 and done.stdout.startswith("2 steps, 2 differences"), done.stderr
    report = (tmp_path / "report" / "report.txt").read_text()
    assert report.startswith("=== new standard Ann Ben --dealer ann @80\n--- stdout\n") and "one line more" in report
