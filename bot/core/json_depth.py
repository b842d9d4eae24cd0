r"""How deeply a JSON document nests, told from its bytes before any parser sees them.

A parser's memory can grow with the depth of what it reads (ijson's with the square of it: a
40 KB file nested 20,000 deep took 1 GB), and no real export nests deeper than a handful of
levels. `too_deep` counts the `[` and `{` outside strings in one pass over the bytes, a chunk
at a time, so it needs no more memory for a 1 GB file than for a small one. Each chunk is
worked on by `bytes` methods (no Python loop per byte or per string):

1. escapes go: `\\` pairs, then `\"`, so every quote left opens or closes a string (a
   backslash ending the chunk is carried to the next);
2. all but quotes and brackets go, and so do adjacent quote pairs, which leaves every
   bracket's count of quotes before it odd (inside a string) or even (outside);
3. the brackets outside strings become +1 and -1, and their running sum is the depth.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from itertools import accumulate
from pathlib import Path

from bot.core.ingest import ImportFileError

# Deeper than any real export (DCE messages nest 4 levels, Slack's blocks about 8).
MAX_DEPTH = 64
CHUNK_BYTES = 1024 * 1024

_NOT_KEPT = bytes(b for b in range(256) if b not in b'"[]{}')
_SIGNS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1, +1, -1, -1 as signed bytes


def too_deep(chunks: Iterable[bytes], limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON text in `chunks` (consecutive pieces of it) nests deeper than `limit`
    arrays and objects. Brackets inside strings do not count; text that is not JSON is
    counted all the same, and left for the parser to refuse."""
    depth = 0
    in_string = carried = False
    for chunk in chunks:
        if carried:
            chunk = b"\\" + chunk
        if b"\\" in chunk:
            chunk = chunk.replace(b"\\\\", b"").replace(b'\\"', b"")
        carried = chunk.endswith(b"\\")
        kept = chunk.translate(None, _NOT_KEPT).replace(b'""', b"")
        parts = kept.split(b'"')
        outside = b"".join(parts[1::2] if in_string else parts[0::2])
        in_string ^= len(parts) % 2 == 0
        signs = array("b", outside.translate(_SIGNS))
        if signs:
            if max(accumulate(signs, initial=depth)) > limit:
                return True
            depth += sum(signs)
    return False


def file_chunks(path: Path) -> Iterator[bytes]:
    """The file at `path`, a chunk at a time."""
    with path.open("rb") as stream:
        while chunk := stream.read(CHUNK_BYTES):
            yield chunk


def in_chunks(data: bytes) -> Iterator[bytes]:
    """`data` a chunk at a time, without copying more than a chunk."""
    view = memoryview(data)
    for start in range(0, len(data), CHUNK_BYTES):
        yield bytes(view[start : start + CHUNK_BYTES])


def refuse_too_deep(source: str, chunks: Iterable[bytes]) -> None:
    """`ImportFileError` naming `source` when its JSON nests deeper than `MAX_DEPTH`."""
    if too_deep(chunks):
        raise ImportFileError(
            source,
            f"nested more than {MAX_DEPTH} levels deep, which no export is; not imported",
        )
