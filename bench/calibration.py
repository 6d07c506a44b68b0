#!/usr/bin/env python3
# ===- bench/calibration.py - The timing model against published figures --===#
"""Runs the calibration set (../shared/calibration, README.md there) through
the timing model and sets each case's modeled speed beside the figure its
author published on a named card.

  bench/calibration.py BUILD_DIR CALIBRATION_DIR [--case ID ...]
                       [--set-cards] [--markdown] [--json FILE]

For every case of CALIBRATION_DIR/cases.json: `tp-sim CUBIN --kernel K
--grid .. --block .. --shared DYN --param .. --timing=CARD --timing-sample
--timing-json=F` (run in CALIBRATION_DIR, so that `bytes=@FILE` parameters
resolve there), modeled GFLOP/s = flops / kernel_seconds.  Printed: case,
card, modeled, published, ratio (modeled / published), error (ratio - 1),
the stall reason that dominates, and the summary: cases within 15%, median
|error|, and per family (`group`) the Spearman rank correlation of modeled
against published (ties ranked by their mean).  A case tp-sim cannot run is
listed with its exit code and first error line and counts as outside 15%.

Cards: a case names a card file of the set or a project card.  The set's
a6000.json is the project's bench/cards/rtxa6000.json (the same numbers,
maintained here); --set-cards uses the set's own files instead.

Not a test (the model is judged against these figures, it is not fitted to
them: other public cases exist that are not in the set).  Python 3 standard
library only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# The set's card files that the project maintains as its own card.
PROJECT_CARDS = {'a6000.json': 'rtxa6000'}


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(xs, ys):
    """Pearson correlation of the ranks; None below 3 points."""
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if not sxx or not syy:
        return None
    return sxy / (sxx * syy) ** 0.5


def run_case(tp_sim, cal_dir, case, set_cards, tmp):
    card = case['card']
    if card.endswith('.json'):
        card = (PROJECT_CARDS.get(card) if not set_cards else None) or \
            os.path.join(cal_dir, card)
    out = os.path.join(tmp, case['id'] + '.json')
    cmd = [tp_sim, os.path.join(cal_dir, case['cubin']),
           '--kernel', case['kernel'],
           '--grid', ','.join(map(str, case['grid'])),
           '--block', ','.join(map(str, case['block']))]
    if case.get('dynamic_shared_bytes'):
        cmd += ['--shared', str(case['dynamic_shared_bytes'])]
    for p in case['params']:
        if p.startswith('bytes=@'):
            # A parameter block in hex in a file of the set.
            with open(os.path.join(cal_dir, p[len('bytes=@'):])) as f:
                p = 'bytes=' + ''.join(f.read().split())
        cmd += ['--param', p]
    cmd += ['--timing=' + card, '--timing-sample', '--timing-json=' + out]
    p = subprocess.run(cmd, cwd=cal_dir, capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(out):
        lines = [l for l in (p.stderr + p.stdout).splitlines()
                 if 'error' in l or 'hazard' in l] or \
            (p.stderr + p.stdout).splitlines() or ['']
        msg = lines[0].strip()
        if "' at " in msg:  # the kernel's (long) name left out
            msg = msg[msg.index("' at ") + 2:]
        return {'error': 'exit %d: %s' % (p.returncode, msg[:160])}
    with open(out) as f:
        r = json.load(f)
    gflops = case['flops'] / r['kernel_seconds'] / 1e9
    stalls = r.get('stall_reasons', {})
    top = max(((v, k) for k, v in stalls.items() if k != 'selected'),
              default=(0, '-'))
    return {'modeled': gflops, 'card': r['card'], 'stall': top[1],
            'stall_share': top[0], 'hazards': r.get('hazards', 0),
            'issue_utilization': r.get('issue_utilization', 0)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('build')
    ap.add_argument('calibration')
    ap.add_argument('--case', action='append', default=[])
    ap.add_argument('--set-cards', action='store_true')
    ap.add_argument('--markdown', action='store_true')
    ap.add_argument('--json')
    a = ap.parse_args()
    tp_sim = os.path.join(os.path.abspath(a.build), 'bin', 'tp-sim')
    cal = os.path.abspath(a.calibration)
    with open(os.path.join(cal, 'cases.json')) as f:
        cases = json.load(f)['cases']
    if a.case:
        cases = [c for c in cases if c['id'] in a.case]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for c in cases:
            r = run_case(tp_sim, cal, c, a.set_cards, tmp)
            r['id'], r['group'] = c['id'], c.get('group', '-')
            r['published'] = c['published']['value']
            r['unit'] = c['published']['unit']
            r['published_card'] = c['published']['card']
            if 'modeled' in r:
                r['ratio'] = r['modeled'] / r['published']
                r['error'] = r['ratio'] - 1
            rows.append(r)
            print(('| %s | %s | %.1f | %.1f | %.3f | %+.1f%% | %s %.2f |'
                   % (r['id'], r['card'], r['modeled'], r['published'],
                      r['ratio'], 100 * r['error'], r['stall'],
                      r['stall_share'])) if 'modeled' in r else
                  '| %s | - | - | %.1f | - | - | %s |'
                  % (r['id'], r['published'], r['error']),
                  file=sys.stderr, flush=True)

    sep = '|' if a.markdown else ' '
    head = ['case', 'card', 'modeled GFLOP/s', 'published', 'ratio', 'error',
            'top stall']
    if a.markdown:
        print('| ' + ' | '.join(head) + ' |')
        print('|' + '---|' * len(head))
    else:
        print('%-40s %-10s %12s %12s %7s %8s  %s' % tuple(head))
    for r in rows:
        if 'modeled' in r:
            cells = [r['id'], r['card'], '%.1f' % r['modeled'],
                     '%.1f' % r['published'], '%.3f' % r['ratio'],
                     '%+.1f%%' % (100 * r['error']),
                     '%s %.2f' % (r['stall'], r['stall_share'])]
        else:
            cells = [r['id'], '-', '-', '%.1f' % r['published'], '-', '-',
                     r['error']]
        if a.markdown:
            print('| ' + ' | '.join(cells) + ' |')
        else:
            print('%-40s %-10s %12s %12s %7s %8s  %s' % tuple(cells))
    errs = [abs(r['error']) for r in rows if 'error' in r and
            isinstance(r['error'], float)]
    within = sum(1 for e in errs if e <= 0.15)
    errs_sorted = sorted(errs)
    n = len(errs_sorted)
    median = (errs_sorted[n // 2] if n % 2 else
              (errs_sorted[n // 2 - 1] + errs_sorted[n // 2]) / 2) if n else None
    print()
    print('within 15%%: %d of %d' % (within, len(rows)))
    print('median |error|: %s (over the %d cases modeled)'
          % ('%.1f%%' % (100 * median) if median is not None else '-', n))
    groups = {}
    for r in rows:
        groups.setdefault(r['group'], []).append(r)
    summary = {'within_15': within, 'cases': len(rows),
               'median_abs_error': median, 'spearman': {}}
    for g, rs in sorted(groups.items()):
        ok = [r for r in rs if 'modeled' in r]
        rho = spearman([r['modeled'] for r in ok],
                       [r['published'] for r in ok])
        summary['spearman'][g] = rho
        print('Spearman %s: %s (%d cases)'
              % (g, '%.3f' % rho if rho is not None else '-', len(ok)))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump({'rows': rows, 'summary': summary}, f, indent=1,
                      sort_keys=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
