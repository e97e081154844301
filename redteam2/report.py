#!/usr/bin/env python3
"""Builds the table of REPORT.md from the answers and results/ (the latest run of each)."""
import glob, os, re

latest = {}
for line in open('results/summary.tsv'):
    parts = line.rstrip('\n').split('\t')
    if len(parts) >= 4:
        latest[(parts[0], parts[1])] = parts[3]

rows = []
for f in sorted(glob.glob('[0-9][0-9]/*.go')):
    nn, name = f.split('/')[0], os.path.basename(f)[:-3]
    first = open(f).readline()[2:].strip()
    kind, _, prop = first.partition(':')
    out = f'results/{nn}-{name}.txt'
    if not os.path.exists(out):
        rows.append((nn, name, kind, prop.strip(), 'not run', '', ''))
        continue
    text = open(out).read()
    failed = 'Error 1' in text or '--- FAIL' in text or 'FAIL\t' in text
    m = re.search(r'--- FAIL: (\S+)', text)
    test = m.group(1) if m else ''
    msg = ''
    if m:
        after = text[m.end():].splitlines()
        for line in after[1:]:
            if line.strip() and not line.startswith('--- FAIL'):
                msg = line.strip()
                break
    res = latest.get((nn, name), 'fail' if failed else 'pass')
    rows.append((nn, name, kind, prop.strip(), res, test, msg))

def cell(s, n=150):
    s = s.replace('|', '\\|')
    return s if len(s) <= n else s[:n] + '…'

print('| step | answer | kind | property it breaks / why it is right | check | first failing test | its message (start) |')
print('|---|---|---|---|---|---|---|')
for r in rows:
    print('| ' + ' | '.join([r[0], f'`{r[1]}`', r[2], cell(r[3], 200), r[4], f'`{r[5]}`' if r[5] else '', cell(r[6])]) + ' |')
