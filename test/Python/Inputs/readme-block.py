"""Prints the README's Python example: the ```python block whose first
line is FIRST (argv[2]), its indentation removed; exit 1 if there is none.

usage: readme-block.py README.md FIRST"""
import sys
import textwrap

readme, first = sys.argv[1], sys.argv[2]
lines = open(readme).read().split("\n")
for i, line in enumerate(lines):
    if line.strip() == "```python" and i + 1 < len(lines) and \
            lines[i + 1].strip() == first:
        end = next(j for j in range(i + 1, len(lines))
                   if lines[j].strip() == "```")
        print(textwrap.dedent("\n".join(lines[i + 1:end])))
        sys.exit(0)
sys.exit("readme-block: no ```python block starting with %r in %s"
         % (first, readme))
