#!/usr/bin/env python3
"""Reads scripts/mutants.txt and plants one mutant (used by scripts/mutation_check.sh).

  mutant_tool.py MUTANTS list             one line per mutant: id, file, area, equivalent reason
  mutant_tool.py MUTANTS apply ID TREE    edits TREE/<file>; exit 1 (with the reason) when the
                                          `find` text is missing or ambiguous
  mutant_tool.py MUTANTS check TREE       checks every mutant applies to TREE (exit 1 if not)
"""
import sys

FIELDS = ("file", "area", "find", "replace", "nth", "equivalent")


def parse(path):
    mutants, current = [], None
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("== "):
                current = {"id": line[3:].strip(), "line": number}
                mutants.append(current)
                continue
            if not line.strip() or line.startswith("#"):
                continue
            key, sep, value = line.partition(":")
            if current is None or not sep or key not in FIELDS:
                sys.exit(f"{path}:{number}: expected '== id' or one of {', '.join(FIELDS)}")
            current[key] = value[1:] if value.startswith(" ") else value
    ids = set()
    for m in mutants:
        for key in ("file", "area", "find", "replace"):
            if key not in m:
                sys.exit(f"{path}:{m['line']}: mutant {m['id']} has no '{key}:'")
        if m["id"] in ids:
            sys.exit(f"{path}:{m['line']}: mutant {m['id']} listed twice")
        ids.add(m["id"])
    return mutants


def mutate(m, tree):
    """Returns (path, new text) or raises ValueError with the reason."""
    path = f"{tree}/{m['file']}"
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ValueError(f"{m['file']}: {e.strerror}")
    find = m["find"]
    count = text.count(find)
    nth = int(m.get("nth", "0") or 0)
    if count == 0:
        raise ValueError(f"{m['file']}: text not found: {find!r}")
    if nth == 0 and count > 1:
        raise ValueError(f"{m['file']}: text found {count} times (add 'nth:'): {find!r}")
    if nth > count:
        raise ValueError(f"{m['file']}: text found {count} times, nth is {nth}")
    at = -1
    for _ in range(max(nth, 1)):
        at = text.index(find, at + 1)
    return path, text[:at] + m["replace"] + text[at + len(find):]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    mutants, command = parse(sys.argv[1]), sys.argv[2]
    if command == "list":
        for m in mutants:
            print("\t".join([m["id"], m["file"], m["area"], m.get("equivalent", "")]))
    elif command == "apply" and len(sys.argv) == 5:
        chosen = [m for m in mutants if m["id"] == sys.argv[3]]
        if not chosen:
            sys.exit(f"no mutant {sys.argv[3]}")
        try:
            path, text = mutate(chosen[0], sys.argv[4])
        except ValueError as e:
            sys.exit(f"mutant {chosen[0]['id']}: {e}")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    elif command == "check" and len(sys.argv) == 4:
        bad = 0
        for m in mutants:
            try:
                mutate(m, sys.argv[3])
            except ValueError as e:
                print(f"mutant {m['id']}: {e}")
                bad += 1
        print(f"{len(mutants)} mutants, {bad} do not apply")
        sys.exit(1 if bad else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
