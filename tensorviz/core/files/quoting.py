"""Text a file supplies (entry names, dtypes, library messages) quoted for a message: control
characters and NUL escaped, and cut short, so a hostile file can neither inject terminal control
sequences nor make a 30 KB line. `one_line` is the last guard on anything printed as one line."""

from __future__ import annotations


def escaped(text: str) -> str:
    """Printable characters as they are; control, format and separator characters as escapes."""
    out = []
    for char in str(text):
        if char.isprintable():
            out.append(char)
        elif char in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[char])
        elif ord(char) < 0x100:
            out.append(f"\\x{ord(char):02x}")
        else:
            out.append(f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}")
    return "".join(out)


def quoted(text, limit: int = 80, quote: bool = True) -> str:
    """'name' escaped and at most `limit` characters (an ellipsis says it was cut)."""
    body = escaped(text)
    if len(body) > limit:
        body = body[: limit - 1] + "…"
    return f"'{body}'" if quote else body


def one_line(message: str, limit: int = 400) -> str:
    """A message as one escaped line of at most `limit` characters."""
    text = escaped(" ".join(str(message).split("\n")))
    return text if len(text) <= limit else text[: limit - 1] + "…"
