"""What a page's websocket carries, decoded: Jupyter's kernel messages in plain text.

Jupyter Server talks to a page in the ``v1.kernel.websocket.jupyter.org`` protocol: every
message is a **binary** frame, laid out as

- 8 bytes: ``n``, the number of offsets (little-endian);
- ``n`` × 8 bytes: the offsets of the parts in the frame;
- the parts: the channel name, then the JSON header, parent header, metadata and content
  of the kernel message, then its binary buffers (ipycanvas's drawing commands, widget
  arrays).

An older server sends text frames holding the whole message as JSON. :func:`frame_text`
turns either into text that a test can search: the JSON parts re-encoded without escapes
(``→`` and ``é`` as themselves, HTML entities undone), the buffers as UTF-8 where they are.

Examples
--------
>>> frame = encode_v1("iopub", {"msg_type": "comm_msg"}, {"data": {"state": {"value": "A → B"}}})
>>> "A → B" in frame_text(frame)
True
>>> frame_text('{"content": {"text": "Bo\\\\u00eete"}}')
'{"content": {"text": "Boîte"}}'
"""

from __future__ import annotations

import html
import json
from typing import Any


def encode_v1(channel: str, header: dict[str, Any], content: dict[str, Any]) -> bytes:
    """A v1 frame as the server sends it (for this module's own tests)."""
    parts = [
        channel.encode(),
        json.dumps(header).encode(),
        b"{}",
        b"{}",
        json.dumps(content).encode(),
    ]
    n = len(parts)
    offsets, at = [], 8 * (n + 1)
    for part in parts:
        offsets.append(at)
        at += len(part)
    head = n.to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + b"".join(parts)


def _plain(text: str) -> str:
    try:
        data = json.loads(text)
    except ValueError:
        return html.unescape(text)
    return html.unescape(json.dumps(data, ensure_ascii=False))


def frame_text(frame: bytes | str) -> str:
    """Everything a websocket frame carries, as searchable text (see the module)."""
    if isinstance(frame, str):
        return _plain(frame)
    n = int.from_bytes(frame[:8], "little")
    if not 0 < n < 10_000 or len(frame) < 8 * (n + 1):
        return frame.decode("utf-8", "replace")
    offsets = [int.from_bytes(frame[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(n)]
    offsets.append(len(frame))
    parts = [frame[offsets[i] : offsets[i + 1]] for i in range(n)]
    texts = [parts[0].decode("utf-8", "replace")]  # the channel
    texts += [_plain(p.decode("utf-8", "replace")) for p in parts[1:5]]
    texts += [p.decode("utf-8", "replace") for p in parts[5:]]  # binary buffers
    return "\n".join(texts)


def decoded(frames: list[bytes | str]) -> str:
    """All of ``frames`` as one searchable text."""
    return "\n".join(frame_text(f) for f in frames)
