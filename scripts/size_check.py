#!/usr/bin/env python3
"""Checks the size limits of the production C++ code: no file over 350 lines, no function over 60.

Usage: scripts/size_check.py [ROOT]     check the modules below ROOT (default: the repo root)
       scripts/size_check.py --self-test
Exit 0 when everything fits; 1 with one line per offender (`file:line: function Name is 79 lines
(limit 60)`); 2 on bad usage. Registered as the ctest `size_limits`.

Scope: the *.h and *.cc files of the modules (sim, algorithms, models, analysis, scenarios, app,
python).
Left out: tests (*_test.cc), fuzz drivers (*_fuzz.cc), test utility headers (*_test_util.h),
bench/, and files whose first line says `// Generated`.

A function is found by brace matching over the text with comments, strings and preprocessor lines
blanked out: a `{` at namespace or class scope whose header (the text since the previous `;`, `{`
or `}`) holds a `(` and does not start with a type or control keyword opens a function body, and
the function runs from the first line of its header to its closing brace. Member initialisers
written with braces (`a_{x}`) belong to the constructor around them.
"""

import os
import re
import sys

FILE_LIMIT_LINES = 350
FUNCTION_LIMIT_LINES = 60
MODULES = ("base", "compression", "sim", "records", "algorithms", "models", "analysis", "scenarios", "app",
           "python")
SCOPE_KEYWORDS = ("namespace", "class", "struct", "union", "enum", "extern")
CONTROL_KEYWORDS = ("if", "for", "while", "switch", "catch", "do", "else", "try", "return")
ACCESS_LABEL = re.compile(r"\s*(public|private|protected)\s*:(?!:)")
TEMPLATE_PREFIX = re.compile(r"^\s*template\s*<")


def Blank(text):
    """Returns text with comments, string/char literals and preprocessor lines replaced by spaces
    (newlines kept, so offsets and line numbers stay valid)."""
    out = list(text)
    i, n = 0, len(text)
    at_line_start = True

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if at_line_start and c == "#":
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            blank(i, j)
            i = j
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            open_paren = text.find("(", i + 2)
            delim = ")" + text[i + 2:open_paren] + '"'
            j = text.find(delim, open_paren)
            j = n if j < 0 else j + len(delim)
            blank(i, j)
            i = j
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):  # 1'000 separators
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def MatchingBrace(text, open_pos):
    depth = 0
    for k in range(open_pos, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(text) - 1


def HeaderKind(header):
    """'function', 'scope' (namespace/class body: look inside) or 'other' (an initialiser)."""
    label = ACCESS_LABEL.match(header)
    head = (header[label.end():] if label else header).strip()
    while TEMPLATE_PREFIX.match(head):
        depth, k = 0, head.index("<")
        for k in range(head.index("<"), len(head)):
            depth += {"<": 1, ">": -1}.get(head[k], 0)
            if depth == 0:
                break
        head = head[k + 1:].strip()
    first = re.match(r"[A-Za-z_]\w*", head)
    word = first.group(0) if first else ""
    if word in SCOPE_KEYWORDS:
        return "scope"
    if word in CONTROL_KEYWORDS or "(" not in head:
        return "other"
    return "function"


def FunctionName(header):
    head = header[:header.index("(")]
    name = re.search(r"(operator\s*\S+|~?[A-Za-z_][\w:~<>]*)\s*$", head)
    return name.group(1) if name else "?"


def Functions(text):
    """Yields (name, first_line, line_count) for every function body at namespace or class scope."""
    blank = Blank(text)
    yield from _Scan(text, blank, 0, len(blank))


def _Scan(text, blank, begin, end):
    header_start = begin
    i = begin
    while i < end:
        c = blank[i]
        if c in ";}":
            header_start = i + 1
        elif c == "{":
            header = blank[header_start:i]
            close = MatchingBrace(blank, i)
            kind = HeaderKind(header)
            if kind == "scope":
                yield from _Scan(text, blank, i + 1, close)
            elif kind == "function":
                # Braced member initialisers (`: a_{x}, b_{y} {`): the body is the last block.
                nxt = re.compile(r"\s*([,{])").match(blank, close + 1)
                while nxt:
                    close = MatchingBrace(blank, blank.index(nxt.group(1), close + 1)) \
                        if nxt.group(1) == "{" else _NextBraceClose(blank, close + 1)
                    nxt = re.compile(r"\s*([,{])").match(blank, close + 1)
                offset = header_start + (len(header) - len(header.lstrip()))
                label = ACCESS_LABEL.match(blank, offset)
                if label:
                    offset = label.end()
                    offset += len(blank[offset:i]) - len(blank[offset:i].lstrip())
                first = text.count("\n", 0, offset) + 1
                last = text.count("\n", 0, close) + 1
                yield FunctionName(header), first, last - first + 1
            i = close
            header_start = close + 1
        i += 1


def _NextBraceClose(blank, pos):
    return MatchingBrace(blank, blank.index("{", pos))


def Excluded(rel):
    base = os.path.basename(rel)
    return base.endswith(("_test.cc", "_fuzz.cc", "_test_util.h"))


def Check(root):
    problems = []
    for module in MODULES:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, module)):
            dirnames.sort()
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                if not name.endswith((".h", ".cc")) or Excluded(rel):
                    continue
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                if text.startswith("// Generated"):
                    continue
                problems += CheckText(rel, text)
    return problems


def CheckText(rel, text):
    problems = []
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines > FILE_LIMIT_LINES:
        problems.append(f"{rel}: {lines} lines (limit {FILE_LIMIT_LINES}): split it by job")
    for name, first, count in Functions(text):
        if count > FUNCTION_LIMIT_LINES:
            problems.append(f"{rel}:{first}: function {name} is {count} lines "
                            f"(limit {FUNCTION_LIMIT_LINES})")
    return problems


def SelfTest():
    body = "\n".join(f"  x += {k};" for k in range(58))
    cases = [
        # (source, expected [(name, first line, line count)])
        ("int F() {\n  return 1;\n}\n", [("F", 1, 3)]),
        ("namespace a {\nclass C {\n public:\n  void G() const {\n  }\n};\n}\n", [("G", 4, 2)]),
        ("// }\nvoid H() {\n  auto s = \"{{\";\n  char c = '}';\n}\n", [("H", 2, 4)]),
        ("const auto kS = R\"(})\";\nvoid R() {\n}\n", [("R", 2, 2)]),
        ("C::C(int x)\n    : a_{x},\n      b_(x) {\n  if (x) {\n  }\n}\n", [("C::C", 1, 6)]),
        ("struct S {\n  int v{3};\n  int W() { return v; }\n};\n", [("W", 3, 1)]),
        ("template <typename T>\nT Id(T t) {\n  return t;\n}\n", [("Id", 1, 4)]),
        ("#define M(x) { x }\nint L() {\n" + body + "\n}\n", [("L", 2, 60)]),
        ("enum class E { kA, kB };\nconst int kT[] = {1, 2};\n", []),
    ]
    failures = 0
    for source, expected in cases:
        got = list(Functions(source))
        if got != expected:
            failures += 1
            print(f"self-test: {source!r}: expected {expected}, got {got}")
    long_function = "void Long() {\n" + body + "\n  x += 1;\n}\n"
    if CheckText("x.cc", long_function) != ["x.cc:1: function Long is 61 lines (limit 60)"]:
        failures += 1
        print(f"self-test: a 61-line function is not reported: {CheckText('x.cc', long_function)}")
    if not CheckText("big.h", "int a;\n" * 351) or CheckText("ok.h", "int a;\n" * 350):
        failures += 1
        print("self-test: the file limit is not 350 lines")
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return SelfTest()
    if len(argv) > 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(__file__), "..")
    problems = Check(root)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
