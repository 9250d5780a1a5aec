#!/usr/bin/env python3
"""The layering check: every #include goes down the floors ARCHITECTURE.md lists.

ARCHITECTURE.md's table between `<!-- floors -->` and `<!-- /floors -->` gives each
folder a floor. A file belongs to the longest listed folder that holds it; it may
include files of its own folder and of folders on lower floors, nothing else: no
include to the same floor or above, hence no circles. The exceptions allowed are
the lines of the `<!-- layering-exceptions -->` list, each "`file` includes
`header`: reason". Exit 1 lists every violation (file:line, both floors); exit 0
prints the counts. Usage: check_layering.py SOURCE_DIR [--self-test]
(--self-test first proves on a small made-up tree that the check catches what it is for).
"""
import collections
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ROW = re.compile(r'^\|\s*(\d+)\s*\|\s*`([^`]+)/`')
EXCEPTION = re.compile(r'^- `([^`]+)` includes `([^`]+)`: \S')
ONLY = re.compile(r'^- `([^`]+)/` includes only (.*)$')
SCANNED = ("core", "sim", "real", "api", "cli", "python")


def read_table(arch):
    text = open(arch, encoding="utf-8").read()
    def section(name):
        start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
        if start not in text or end not in text:
            sys.exit(f"{arch}: no {start} ... {end} section")
        return text.split(start, 1)[1].split(end, 1)[0].splitlines()
    floors = {}
    for line in section("floors"):
        m = ROW.match(line)
        if m:
            floors[m.group(2)] = int(m.group(1))
    if not floors:
        sys.exit(f"{arch}: the floors table has no rows like '| 0 | `core/base/` | ...'")
    exceptions = set()
    for line in section("layering-exceptions"):
        m = EXCEPTION.match(line)
        if m:
            exceptions.add((m.group(1), m.group(2)))
    only = {}
    for line in section("includes-only"):
        m = ONLY.match(line)
        if m:
            only[m.group(1)] = re.findall(r"`([^`]+)/`", m.group(2))
    return floors, exceptions, only


def folder_of(path, floors):
    best = None
    for f in floors:
        if path.startswith(f + "/") and (best is None or len(f) > len(best)):
            best = f
    return best


def self_test():
    """The check must catch what it exists for: an upward include, a sideways one, a stale exception."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            open(os.path.join(root, path), "w", encoding="utf-8").write(text)
        write("ARCHITECTURE.md", "<!-- floors -->\n| 0 | `core/a/` | x |\n| 1 | `core/b/` | y |\n"
              "| 1 | `core/c/` | z |\n| 2 | `core/d/` | w |\n<!-- /floors -->\n<!-- layering-exceptions -->\n"
              "- `core/a/gone.cc` includes `core/b/b.h`: none\n<!-- /layering-exceptions -->\n"
              "<!-- includes-only -->\n- `core/d/` includes only `core/c/`\n<!-- /includes-only -->\n")
        write("core/a/a.h", '#include "core/b/b.h"\n')
        write("core/b/b.h", '#include "core/a/a.h"\n#include "core/c/c.h"\n')
        write("core/c/c.h", "\n")
        write("core/d/d.h", '#include "core/c/c.h"\n#include "core/a/a.h"\n#include "core/x.h"\n')
        out = subprocess.run([sys.executable, __file__, root], capture_output=True, text=True)
        expected = ["core/a/a.h:1: includes core/b/b.h", "core/b/b.h:2: includes core/c/c.h", "is not needed any more",
                    "a circle of includes", "core/d/d.h:2: includes core/a/a.h: core/d/ includes only core/c/",
                    "core/d/d.h:3: includes core/x.h, in no folder"]
        missing = [e for e in expected if e not in out.stdout]
        if out.returncode != 1 or missing:
            sys.exit(f"self-test: the check missed {missing} (exit {out.returncode}):\n{out.stdout}")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    if len(sys.argv) > 2 and sys.argv[2] == "--self-test":
        self_test()
    floors, exceptions, only = read_table(os.path.join(root, "ARCHITECTURE.md"))
    errors, edges, files, used = [], collections.defaultdict(set), 0, set()
    for top in SCANNED:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith((".h", ".cc")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), root)
                files += 1
                here = folder_of(path, floors)
                if here is None:
                    errors.append(f"{path}: in no folder of ARCHITECTURE.md's floors table")
                    continue
                for number, line in enumerate(open(os.path.join(root, path), encoding="utf-8"), 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = folder_of(m.group(1), floors)
                    if target is None:
                        if m.group(1).split("/", 1)[0] in SCANNED:
                            errors.append(f"{path}:{number}: includes {m.group(1)}, in no folder of the floors table")
                        continue
                    if target == here:
                        continue
                    if here in only and target not in only[here]:
                        errors.append(f"{path}:{number}: includes {m.group(1)}: {here}/ includes only "
                                      + ", ".join(f + "/" for f in only[here]))
                        continue
                    edges[here].add(target)
                    if floors[target] < floors[here]:
                        continue
                    if (path, m.group(1)) in exceptions:
                        used.add((path, m.group(1)))
                        continue
                    errors.append(f"{path}:{number}: includes {m.group(1)}: {here}/ is on floor {floors[here]}, "
                                  f"{target}/ on floor {floors[target]} (only lower floors may be included)")
    for stale in sorted(exceptions - used):
        errors.append(f"ARCHITECTURE.md: the exception '{stale[0]} includes {stale[1]}' is not needed any more")
    # Circles among folders (the floors rule forbids them; listed exceptions could make one).
    index, low, stack, on, circles, counter = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                circles.append(sorted(group))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    for c in circles:
        errors.append("a circle of includes among " + ", ".join(f + "/" for f in c))
    if errors:
        print("\n".join(errors))
        print(f"\n{len(errors)} layering violation(s); the floors are ARCHITECTURE.md's table")
        return 1
    print(f"{files} files in {len(floors)} folders on {len(set(floors.values()))} floors: no include goes up or "
          f"sideways, no circle; {len(used)} listed exception(s); the folders restricted to some floors keep to them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
