#!/usr/bin/env python3
"""Reads the damask-demo's link map: its input sections, and the symbols in each.

    scripts/link_map.py dragging MAP LIST...

scripts/build-demo-release has lld write the map (`-Map=.build/static/damask-demo.map
--no-demangle`). After its header, each line starts with an address, load address, size and
alignment in hexadecimal, then names an output section; or, indented by 8, an input section
of the output section above ("file:(name)") or a linker-script command; or, indented by 16, a
symbol in the input section above. input_sections() reads the map, and MAX_LISTED_SIZE says
which input sections an order list should not name: scripts/demo-typing-order and
scripts/demo-startup-order import both (with scripts/ on PYTHONPATH).

With `dragging`, prints how many names in the LISTs (symbol ordering files, one name a line)
sit in input sections larger than MAX_LISTED_SIZE: lld would move each of those sections
whole into the ordered block. scripts/build-demo-release warns when there are some.

Exit status: 0, or 2 for a wrong command line or a file that cannot be read (for a map that
is not lld's, the message names the file and line).
"""
import re
import sys
import typing

# Bytes: the largest input section an order list names. A larger one holds the code or data
# of many functions (the parts of the Swift runtime and Foundation built as one section per
# file: the standard library's Swift.o is one .text of 1.6 MB), and lld moves a section whole
# to where the list first names a symbol in it.
MAX_LISTED_SIZE = 64 * 1024

HEADER = ['VMA', 'LMA', 'Size', 'Align', 'Out', 'In', 'Symbol']
# Address, load address, size and alignment, one space, then the indentation that says what
# the line names (0: an output section, 8: an input section or command, 16: a symbol).
LINE = re.compile(r' *([0-9a-f]+) +[0-9a-f]+ +([0-9a-f]+) +[0-9a-f]+ ( *)(.*)')
# An input section: "file:(name)"; the file may be an archive member, "lib.a(member.o)".
INPUT_SECTION = re.compile(r'(.*?):\(([^)]*)\)')


class MapError(Exception):
    pass


class Section(typing.NamedTuple):
    """An input section, as the link map places it."""
    output: str    # the output section it is in (".text")
    name: str      # its own name, in parentheses after its file (".text._ZN…", ".rodata")
    address: int
    size: int      # bytes
    symbols: list  # the names the map lists in it, in the map's order


def input_sections(path):
    """Returns the input sections of the link map at path, in the map's order."""
    try:
        handle = open(path)
    except OSError as error:
        raise MapError(f'{path}: {error.strerror}')
    sections, output, current, number = [], None, None, 0
    with handle:
        try:
            for number, line in enumerate(handle, 1):
                line = line.rstrip('\n')
                if number == 1:
                    if line.split() != HEADER:
                        raise MapError(f'{path}:1: not an lld link map (no "{" ".join(HEADER)}" header): '
                                       f'{line[:80]}')
                    continue
                match = LINE.fullmatch(line)
                if not match:
                    raise MapError(f'{path}:{number}: not a line of an lld link map: {line.strip()[:80]}')
                indent, text = len(match.group(3)), match.group(4)
                if indent == 0:  # an output section
                    output, current = text, None
                elif indent == 8:  # an input section, or a linker-script command (an assignment, BYTE(…))
                    parts = INPUT_SECTION.fullmatch(text)
                    current = None
                    if parts:
                        current = Section(output, parts.group(2), int(match.group(1), 16), int(match.group(2), 16), [])
                        sections.append(current)
                elif indent == 16 and current is not None:  # a symbol in the input section above
                    current.symbols.append(text)
                else:
                    raise MapError(f'{path}:{number}: neither a section nor a symbol in an input section: '
                                   f'{line.strip()[:80]}')
        except UnicodeDecodeError as error:
            raise MapError(f'{path}: not a text file ({error})')
    if number == 0:
        raise MapError(f'{path}: empty, not an lld link map')
    return sections


def section_sizes(sections):
    """{symbol: size of the input section it is in}. A name in several sections (a local
    symbol of several files) takes the first."""
    sizes = {}
    for section in sections:
        for name in section.symbols:
            sizes.setdefault(name, section.size)
    return sizes


def main(arguments):
    if len(arguments) < 3 or arguments[0] != 'dragging':
        print('usage: link_map.py dragging MAP LIST...', file=sys.stderr)
        return 2
    try:
        sizes = section_sizes(input_sections(arguments[1]))
    except MapError as error:
        print(f'link_map.py: {error}', file=sys.stderr)
        return 2
    dragging = 0
    for path in arguments[2:]:
        try:
            with open(path) as handle:
                dragging += sum(1 for name in handle if sizes.get(name.strip(), 0) > MAX_LISTED_SIZE)
        except OSError as error:
            print(f'link_map.py: {path}: {error.strerror}', file=sys.stderr)
            return 2
    print(dragging)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
