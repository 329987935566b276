#!/usr/bin/env python3
"""Checks the rules of the code's layout (tests/integration/architecture.rs runs it):

1. No import cycle among the files of src/ (src/main.rs, the binary's root, only declares
   modules): a file's imports are the `crate::`, `super::`, `self::` paths and the
   paths through the child modules it declares (`mod x;` then `x::...`), each resolved to the
   deepest file that defines a module of the path. A `mod.rs` that re-exports its children
   and a child that imports from that `mod.rs` form a cycle.
2. The layer order that src/lib.rs states (its line `Layers, ...` and the arrow list in
   backticks after it) holds: every top-level module of src/ is in the list, and a file
   imports only from its own top-level module and from those before it in the list.
3. No function in src/ is longer than 200 lines.
4. No file in src/ has more than 700 lines before its `#[cfg(test)] mod tests` block.

Usage: scripts/architecture.py [SRC_DIR]; exit status 1 with the findings when a rule is broken.
"""
import os
import re
import sys

MAX_FUNCTION_LINES = 200
MAX_FILE_LINES = 700


def rust_files(root):
    for d, _, names in os.walk(root):
        for n in names:
            if n.endswith(".rs"):
                yield os.path.join(d, n)


def module_path(root, path):
    parts = os.path.relpath(path, root)[:-3].split(os.sep)
    return tuple(parts[:-1]) if parts[-1] in ("mod", "lib", "main") else tuple(parts)


def strip(src):
    """The code without comments and without its `#[cfg(test)] mod tests` block."""
    src = re.sub(r"//[^\n]*", "", src)
    i = src.find("#[cfg(test)]\nmod tests")
    return src if i < 0 else src[:i]


def split_group(inner):
    """The top-level items of a `{a, b::{c, d}}` use group."""
    parts, depth, cur = [], 0, ""
    for ch in inner:
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def closing_brace(src, open_at):
    depth = 0
    for k in range(open_at, len(src)):
        depth += src[k] == "{"
        depth -= src[k] == "}"
        if depth == 0:
            return k
    return len(src)


def import_edges(root):
    files = {p: open(p, encoding="utf-8").read() for p in rust_files(root)}
    by_module = {}
    for p in files:
        by_module.setdefault(module_path(root, p), p)
    by_module[()] = os.path.join(root, "lib.rs")

    def resolve(segments):
        best = None
        for i in range(len(segments) + 1):
            if tuple(segments[:i]) not in by_module:
                break
            best = by_module[tuple(segments[:i])]
        return best

    def idents(path_text):
        return [s for s in path_text.split("::") if re.fullmatch(r"[A-Za-z_]\w*", s.strip())]

    edges = {}
    for p, raw in files.items():
        rel = os.path.relpath(p, root)
        if rel == "main.rs":
            continue
        src = strip(raw)
        me = module_path(root, p)
        out = set()

        def add(base, text):
            t = resolve(list(base) + idents(text))
            if t and t != p:
                out.add(t)

        # Paths through the child modules this file declares.
        for child in re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", src, re.M):
            for m in re.finditer(r"(?<![\w:])" + child + r"::((?:\w+::)*\w+|\{)", src):
                add(me + (child,), m.group(1) if m.group(1) != "{" else "")
        # crate::, super:: and self:: paths, grouped or not.
        for m in re.finditer(r"\b(crate|super|self)::((?:super::)*)", src):
            kind, ups = m.group(1), m.group(2).count("super::")
            base = [] if kind == "crate" else list(me[:-1]) if kind == "super" else list(me)
            if ups:
                base = base[: len(base) - ups]
            rest_at = m.end()
            tail = re.match(r"((?:\w+::)*)(\{|\w+)", src[rest_at:])
            if not tail:
                continue
            prefix = idents(tail.group(1))
            if tail.group(2) == "{":
                open_at = rest_at + tail.start(2)
                inner = src[open_at + 1 : closing_brace(src, open_at)]
                for item in split_group(inner):
                    add(base + prefix, item.split("{")[0])
            else:
                add(base + prefix, tail.group(2))
        edges[p] = out
    return edges


def cycles(edges):
    """Strongly connected components with more than one file (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def long_functions(directory, limit):
    """(lines, file, name) of every function longer than `limit` lines."""
    found = []
    for p in sorted(rust_files(directory)):
        lines = open(p, encoding="utf-8").read().split("\n")
        for i, line in enumerate(lines):
            m = re.match(r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:unsafe\s+)?fn\s+(\w+)", line)
            if not m:
                continue
            indent = len(m.group(1))
            k = i
            while k < len(lines) and not lines[k].rstrip().endswith(("{", ";")):
                k += 1
            if k >= len(lines) or lines[k].rstrip().endswith(";"):
                continue
            k += 1
            while k < len(lines) and not (
                lines[k].startswith(" " * indent + "}") and len(lines[k]) - len(lines[k].lstrip()) == indent
            ):
                k += 1
            if k - i + 1 > limit:
                found.append((k - i + 1, p, m.group(2)))
    return found


def top_module(root, path):
    """The top-level module of a file of src/: `engine` for src/engine/brain/mod.rs."""
    first = os.path.relpath(path, root).split(os.sep)[0]
    return first[:-3] if first.endswith(".rs") else first


def stated_layers(root):
    """The layer order of src/lib.rs's docs: the backticked `a -> b -> ...` list that
    follows the line starting `//! Layers`."""
    text = open(os.path.join(root, "lib.rs"), encoding="utf-8").read()
    m = re.search(r"^//! Layers[^\n]*\n((?://![^\n]*\n)+)", text, re.M)
    if not m:
        return None
    arrows = re.search(r"`([^`]*->[^`]*)`", m.group(1).replace("//!", " "))
    return [s.strip() for s in arrows.group(1).split("->")] if arrows else None


def layer_violations(root, edges):
    """Findings against the stated layer order (rule 2)."""
    layers = stated_layers(root)
    if not layers:
        return ["src/lib.rs states no layer order (a `//! Layers` line, then `a -> b -> ...`)"]
    found = []
    rank = {name: i for i, name in enumerate(layers)}
    modules = {top_module(root, p) for p in rust_files(root)} - {"lib", "main"}
    for name in sorted(modules - set(rank)):
        found.append(f"src/{name}: a top-level module missing from the layer order of src/lib.rs")
    for name in sorted(set(rank) - modules):
        found.append(f"the layer order of src/lib.rs names `{name}`, which is not a module of src/")
    for p, outs in sorted(edges.items()):
        mine = top_module(root, p)
        for q in sorted(outs):
            theirs = top_module(root, q)
            if mine in ("lib", "main") or theirs == mine or mine not in rank or theirs not in rank:
                continue
            if rank[theirs] > rank[mine]:
                found.append(f"{p} imports {q}: `{mine}` may only use layers before it, not `{theirs}`")
    return found


def long_files(root, limit):
    """(lines, file) of every file with more than `limit` lines before its tests."""
    found = []
    for p in sorted(rust_files(root)):
        text = open(p, encoding="utf-8").read()
        i = text.find("#[cfg(test)]\nmod tests")
        n = len((text if i < 0 else text[:i]).split("\n"))
        if n > limit:
            found.append((n, p))
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "src"
    edges = import_edges(root)
    findings = ["import cycle: " + " -> ".join(comp) for comp in cycles(edges)]
    findings += layer_violations(root, edges)
    findings += [
        f"{p}: fn {name} has {n} lines (at most {MAX_FUNCTION_LINES})"
        for n, p, name in long_functions(root, MAX_FUNCTION_LINES)
    ]
    findings += [
        f"{p}: {n} lines before its tests (at most {MAX_FILE_LINES})"
        for n, p in long_files(root, MAX_FILE_LINES)
    ]
    for line in findings:
        print(line)
    if not findings:
        print(
            f"no import cycle; the layer order of lib.rs holds; no function over "
            f"{MAX_FUNCTION_LINES} lines; no file over {MAX_FILE_LINES} lines before its tests"
        )
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
