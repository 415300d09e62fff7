"""A unified diff (from a file or stdin) into the same records as changes.py.

For callers who have only a patch: there is no repository, so neither side's
full content is known and the manifest says which analysis could not be done.
git's extended headers (index, modes, renames, copies) are read when present.
"""

from __future__ import annotations

import re

from gitreview.errors import Exit, UserError
from gitreview.model import MODE_GITLINK, MODE_SYMLINK, FileChange, Hunk, Line, Status
from gitreview.patterns import lazy_compile
from gitreview.secrets import redact

_INDEX = lazy_compile(r"^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: ([0-7]+))?$")
_MODE = lazy_compile(r"^(old mode|new mode|new file mode|deleted file mode) ([0-7]+)$")
_SIMILARITY = lazy_compile(r"^(?:similarity|dissimilarity) index (\d+)%$")
# A header with a CR LF line end: git's first line of a file, or the first `---` line
# of the text, which only a header can be (a removed line `-- x` of a CRLF file is one
# further on; so is a hunk's header, which may bring such a line's CR along).
_CR_HEADER = lazy_compile(r"^diff --git [^\r\n]*\r$|\A(?:(?!--- )[^\n]*\n)*--- [^\r\n]*\r$", re.M)
_COMBINED = lazy_compile(r"^(?:diff --cc |diff --combined |@@@ )", re.MULTILINE)
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


def read_patch(data: bytes, name: str) -> list[FileChange]:
    from unidiff.errors import UnidiffParseError
    from unidiff.patch import PatchSet

    text = data.decode("utf-8", "backslashreplace")  # as git's own diff is read
    where = "standard input" if name == "-" else name
    if _CR_HEADER.search(text):
        # Saved with CR LF line ends (an editor, a mail client): its paths would end
        # with a CR, and which of its lines had one in the files cannot be told.
        raise UserError(
            f"{where} has lines that end with CR LF, its headers too",
            status=Exit.PATCH,
            hint="give the patch as git wrote it, with LF line ends",
        )
    if _COMBINED.search(text):
        # Its hunks (`@@@`) are no unified diff's: read as one, they would be dropped.
        raise UserError(
            f"{where} holds a combined diff (a merge's `diff --cc`), which cannot be read",
            status=Exit.PATCH,
            hint="give the merge's diff against one parent: git diff MERGE^1 MERGE",
        )
    try:
        patch_set = PatchSet(text)
    except UnidiffParseError as error:
        # unidiff quotes the line it stopped at: redacted as content is, a key's body
        # line too (found by an adversarial review), which no name redaction hides.
        problem, colon, quoted = str(error).partition(": ")
        problem = problem[:1].lower() + problem[1:] + colon + redact(quoted)
        raise UserError(f"malformed patch in {where}: {problem}", status=Exit.PATCH) from None
    if not len(patch_set) and text.strip():
        raise UserError(
            f"no diff found in {where}",
            status=Exit.PATCH,
            hint="give the output of git diff, git format-patch or diff -u",
        )
    return _join_type_changes([_file_change(patched) for patched in patch_set])


def _join_type_changes(changes: list[FileChange]) -> list[FileChange]:
    """git prints a type change (file to symlink...) as a deletion followed by an
    addition of the same path; make it one change, as changes.py does."""
    joined: list[FileChange] = []
    for change in changes:
        previous = joined[-1] if joined else None
        if (
            previous is not None
            and previous.status == "deleted"
            and change.status == "added"
            and previous.path == change.path
        ):
            joined[-1] = change._replace(
                status="type-changed",
                old_path=previous.old_path,
                old_mode=previous.old_mode,
                old_oid=previous.old_oid,
                binary=previous.binary or change.binary,
                hunks=previous.hunks + change.hunks,
            )
        else:
            joined.append(change)
    return joined


def _file_change(patched: object) -> FileChange:
    headers = str(getattr(patched, "patch_info", "") or "").splitlines()
    old_path = _strip_prefix(_unquote(patched.source_file))  # type: ignore[attr-defined]
    new_path = _strip_prefix(_unquote(patched.target_file))  # type: ignore[attr-defined]
    modes: dict[str, int] = {}
    old_oid = new_oid = None
    similarity = None
    status: Status = "modified"
    for header in headers:
        if match := _INDEX.match(header):
            old_oid, new_oid = match[1], match[2]
            if match[3]:
                modes.setdefault("old mode", int(match[3], 8))
                modes.setdefault("new mode", int(match[3], 8))
        elif match := _MODE.match(header):
            modes[match[1]] = int(match[2], 8)
        elif match := _SIMILARITY.match(header):
            similarity = int(match[1])
        elif header.startswith(("rename from ", "copy from ")):
            old_path = _unquote(header.split(" ", 2)[2])
            status = "renamed" if header.startswith("rename") else "copied"
        elif header.startswith(("rename to ", "copy to ")):
            new_path = _unquote(header.split(" ", 2)[2])
    if "new file mode" in modes or old_path is None:
        status = "added"
        modes["new mode"] = modes.get("new file mode", modes.get("new mode", 0o100644))
    elif "deleted file mode" in modes or new_path is None:
        status = "deleted"
        modes["old mode"] = modes.get("deleted file mode", modes.get("old mode", 0o100644))
    old_mode = None if status == "added" else modes.get("old mode")
    new_mode = None if status == "deleted" else modes.get("new mode")
    if old_mode is not None and new_mode is not None and _type(old_mode) != _type(new_mode):
        status = "type-changed"
    path = new_path if status != "deleted" else old_path
    assert path is not None
    # A hunk of context lines only changes nothing (a line that lost its leading space
    # reads as one): no hunk of git's is one (found by an adversarial review: it was an
    # internal error).
    hunks = tuple(
        _hunk(hunk)
        for hunk in patched  # type: ignore[attr-defined]
        if hunk.added or hunk.removed
    )
    return FileChange(
        status=status,
        path=path,
        old_path=None if status == "added" else old_path,
        old_mode=old_mode,
        new_mode=new_mode,
        old_oid=None if status == "added" or _is_zero(old_oid) else old_oid,
        new_oid=None if status == "deleted" or _is_zero(new_oid) else new_oid,
        similarity=similarity if status in ("renamed", "copied") else None,
        binary=bool(patched.is_binary_file),  # type: ignore[attr-defined]
        hunks=hunks,
        content_known=False,
    )


def _hunk(hunk: object) -> Hunk:
    lines: list[Line] = []
    for line in hunk:  # type: ignore[attr-defined]
        if line.line_type == "\\":
            if lines:
                lines[-1] = lines[-1]._replace(newline=False)
            continue
        value = line.value[:-1] if line.value.endswith("\n") else line.value
        lines.append(Line(line.line_type, line.source_line_no, line.target_line_no, value))
    return Hunk(
        old_start=hunk.source_start,  # type: ignore[attr-defined]
        old_count=hunk.source_length,  # type: ignore[attr-defined]
        new_start=hunk.target_start,  # type: ignore[attr-defined]
        new_count=hunk.target_length,  # type: ignore[attr-defined]
        lines=tuple(lines),
    )


def _type(mode: int) -> int:
    return mode if mode in (MODE_SYMLINK, MODE_GITLINK) else 0o100000


def _is_zero(oid: str | None) -> bool:
    return oid is not None and set(oid) == {"0"}


def _strip_prefix(path: str | None) -> str | None:
    if path is None or path == "/dev/null":
        return None
    if path.startswith(("a/", "b/")):
        return path[2:]
    return path


def _unquote(path: str | None) -> str | None:
    """Undo git's C-style quoting of unusual paths ("caf\\303\\251.md")."""
    if path is None or not (path.startswith('"') and path.endswith('"') and len(path) >= 2):
        return path
    body, out, i = path[1:-1], bytearray(), 0
    while i < len(body):
        char = body[i]
        if char == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in "01234567" and i + 3 < len(body) + 1 and body[i + 1 : i + 4].isdigit():
                out.append(int(body[i + 1 : i + 4], 8))
                i += 4
                continue
            out.append(_ESCAPES.get(nxt, ord(nxt)))
            i += 2
            continue
        out += char.encode("utf-8")
        i += 1
    return out.decode("utf-8", "replace")


def takes(change: FileChange, old: bytes | None, new: bytes | None) -> bool:
    """Whether the change's hunks take blob content `old` to `new` (None for a side
    the change has no blob of), line for line as their texts are read. A patch's
    `index` line is a claim: a patch may name the blobs of another change, and a
    handle would then open other lines than the patch's (found by an adversarial
    review)."""
    if change.binary:
        return True  # git's "Binary files differ" says nothing a blob could contradict
    if change.status == "type-changed":
        # git diffs it as a deletion and an addition (a file made a symlink): each
        # side against its own blob (found by a review of the fix).
        gone = change._replace(status="deleted", hunks=_only(change.hunks, "-"))
        came = change._replace(status="added", hunks=_only(change.hunks, "+"))
        return takes(gone, old, None) and takes(came, None, new)
    lines = _lines_of(old)
    out: list[tuple[str, bool]] = []
    at = 0  # the next line of `old` not yet taken
    for hunk in change.hunks:
        start = hunk.old_start - 1 if hunk.old_count else hunk.old_start
        if start < at or start > len(lines):
            return False
        out += lines[at:start]
        at = start
        for line in hunk.lines:
            if line.origin in (" ", "-"):
                if at >= len(lines) or lines[at] != (line.text, line.newline):
                    return False
                at += 1
            if line.origin in (" ", "+"):
                out.append((line.text, line.newline))
    out += lines[at:]
    return out == _lines_of(new)


def _only(hunks: tuple[Hunk, ...], origin: str) -> tuple[Hunk, ...]:
    """The hunks whose changed lines all have this origin."""
    return tuple(hunk for hunk in hunks if all(line.origin in (origin, " ") for line in hunk.lines))


def _lines_of(data: bytes | None) -> list[tuple[str, bool]]:
    """Each line's text, as a patch's is read, and whether a line break ends it."""
    if not data:
        return []
    texts = data.decode("utf-8", "backslashreplace").split("\n")
    if texts[-1] == "":
        return [(text, True) for text in texts[:-1]]
    return [*((text, True) for text in texts[:-1]), (texts[-1], False)]
