#!/usr/bin/env python3
"""doclinks.py SRCDIR - the README and doc/*.md: every relative link reaches
a file that exists (and a heading, when it names an anchor), the README stays
short and starts with the two set-up commands, and every doc/ page is linked
from the README and named in the man page's SEE ALSO. Prints one line per
problem; exit status 1 when there is any."""
import glob
import os
import re
import sys

top = sys.argv[1]
bad = []
LINK = re.compile(r'!?\[[^\]]*\]\(([^)\s]+)\)')


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped,
    spaces to hyphens."""
    s = re.sub(r'[`*_]', '', heading.strip().lower())
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def anchors(path):
    out, fence = set(), False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence
        elif not fence and re.match(r'#{1,6} ', line):
            out.add(slug(line.lstrip('#')))
    return out


def prose(path):
    """The text outside code blocks, with inline code taken out."""
    keep, fence = [], False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence
        elif not fence:
            keep.append(re.sub(r'`[^`]*`', '', line))
    return ''.join(keep)


pages = [os.path.join(top, 'README.md')] + sorted(glob.glob(os.path.join(top, 'doc', '*.md')))
links = 0
for page in pages:
    for target in LINK.findall(prose(page)):
        if re.match(r'[a-z]+:', target):
            continue            # http:, mailto:: not followed offline
        links += 1
        path, _, frag = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        name = os.path.relpath(page, top)
        if not os.path.exists(dest):
            bad.append(f'{name}: link to {target}: no such file')
        elif frag and (not dest.endswith('.md') or frag not in anchors(dest)):
            bad.append(f'{name}: link to {target}: no heading #{frag}')

readme = open(os.path.join(top, 'README.md'), encoding='utf-8').read()
lines = readme.count('\n')
if lines > 200:
    bad.append(f'README.md: {lines} lines, more than 200')
first = re.search(r'```sh\n(.*?)```', readme, re.S)
cmds = [l for l in (first.group(1).splitlines() if first else []) if l and not l.startswith('#')]
if cmds != ['./bootstrap.sh && build/diskbench', './tests/check.sh']:
    bad.append(f'README.md: the first block is not the two set-up commands: {cmds}')

man = open(os.path.join(top, 'doc', 'diskbench.1'), encoding='utf-8').read()
seealso = man.split('.SH SEE ALSO', 1)[-1].replace('\\-', '-')
for page in pages[1:]:
    rel = os.path.relpath(page, top)
    if '](' + rel + ')' not in readme and '](' + rel + '#' not in readme:
        bad.append(f'README.md: does not link {rel}')
    if rel not in seealso:
        bad.append(f'doc/diskbench.1: SEE ALSO does not name {rel}')
for named in set(re.findall(r'doc/[a-z-]+\.md', seealso)):
    if not os.path.exists(os.path.join(top, named)):
        bad.append(f'doc/diskbench.1: SEE ALSO names {named}, which does not exist')

for b in bad:
    print(b)
print(f'{len(pages)} pages, {links} relative links followed, {len(bad)} problems')
sys.exit(1 if bad else 0)
