"""Type stub of the C extension ``_csolver.c`` (see native.py for the arguments)."""

from collections.abc import Callable

def solve(
    spec: tuple[int, ...],
    can_build: bytes,
    can_run: bytes,
    empty_ok: bytes,
    piles: tuple[tuple[int, int, int, int, int, int, bytes], ...],
    weights: tuple[int, ...],
    cols: tuple[bytes, ...],
    cells: bytes,
    found: tuple[bytes, ...],
    max_states: int,
    max_bytes: int,
    timeout: float,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[int], object] | None = None,
) -> tuple[str, list[tuple[int, int, int, int]] | None, int, int, int, int]: ...
def golf(
    columns: tuple[bytes, ...],
    deck: bytes,
    top: int,
    over: tuple[bytes, ...],
    wrap: bool,
    closed_king: bool,
    max_states: int,
    timeout: float,
    cancel: Callable[[], bool] | None = None,
) -> tuple[str, bytes, int, str, int]: ...
def discards(
    columns: tuple[bytes, ...],
    deck: bytes,
    row: bytes,
    to_discard: int,
    discarded: int,
    single: bool,
    greedy: bool,
    max_states: int,
    timeout: float,
    cancel: Callable[[], bool] | None = None,
) -> tuple[str, list[tuple[int, int, int, int]], int, str, int]: ...
def stock_search(
    columns: tuple[bytes, ...],
    hidden: bytes,
    stock: bytes,
    waste: bytes,
    foundations: tuple[bytes, ...],
    rounds: int,
    draw: int,
    redeals: int,
    build: bytes,
    run: bytes,
    empty_ok: bytes,
    wanting: tuple[bytes, ...],
    face_up_runs: bool,
    foundation_runs: bool,
    foundation_return: bool,
    policy: int,
    max_states: int,
    timeout: float,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[int], object] | None = None,
    narrow: bool = False,
    reserve: bytes = b"",
    base: int = 1,
    one_or_all: bool = False,
    fill_empty: bool = False,
) -> tuple[
    str, list[tuple[int, int, int, int, int]], int, str, list[tuple[int, int, int, int, int]], int
]: ...
