#!/usr/bin/env python3
"""Every section of docs/ that the code or the docs cite by name exists.

A citation is a doc file name followed by a quoted section name, as in
docs/checker.md "Search" or prover.md, "Complexity" (line breaks and comment
markers inside the quotes allowed). It is found when a heading of that file
contains the name. Usage: cited_sections.py SOURCE_DIR; exit 1 naming each
citation whose section is missing.
"""
import os
import re
import sys

SKIP_DIRS = {".git", "build", "corpus", "examples"}
SUFFIXES = (".h", ".cpp", ".md", ".py", ".sh", ".cmake")
CITATION = re.compile(r'(?:docs/)?([a-z_]+\.md),?\s+"([^"]+)"')


def sources(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith((".", "build"))]
        for f in files:
            if f.endswith(SUFFIXES) or f == "CMakeLists.txt":
                yield os.path.join(d, f)


def headings(root):
    out = {}
    docs = os.path.join(root, "docs")
    for f in os.listdir(docs):
        if f.endswith(".md"):
            with open(os.path.join(docs, f), encoding="utf-8") as fh:
                out[f] = [" ".join(m.group(1).split()) for m in re.finditer(r"^#+\s+(.*)$", fh.read(), re.M)]
    return out


def main():
    root = sys.argv[1]
    heads = headings(root)
    cited, missing = 0, []
    for path in sources(root):
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for m in CITATION.finditer(text):
            doc, section = m.group(1), m.group(2)
            if doc not in heads:
                continue  # not one of ours (a file of another project)
            section = " ".join(re.sub(r"\s*(//|#)\s*", " ", section).split())
            cited += 1
            if not any(section in h for h in heads[doc]):
                line = text.count("\n", 0, m.start()) + 1
                missing.append(f"{os.path.relpath(path, root)}:{line}: docs/{doc} has no section \"{section}\"")
    print(f"{cited} citations of docs/ sections")
    for m in missing:
        print(m)
    if cited < 100:
        print("too few citations found: the pattern no longer matches how the code cites docs/")
        return 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
