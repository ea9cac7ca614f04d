#!/usr/bin/env python3
"""Per-process paired timing of two `sudokit` builds on one puzzle file.

Each puzzle is rated by one `sudokit rate` process per build, the builds taking turns and
the order flipped every puzzle, so the machine's drift from hour to hour falls on both alike.

    scripts/pair_timing.py OLD/sudokit NEW/sudokit "$SUDOKIT_DATA/puzzles6_forum_hardest_1106"
"""
import subprocess, sys, time, statistics, os, tempfile
a, b, path = sys.argv[1], sys.argv[2], sys.argv[3]
lines = [l for l in open(path) if l.strip()]
ta, tb = [], []
tmp = tempfile.mkdtemp()
for i, line in enumerate(lines):
    f = os.path.join(tmp, 'p.txt'); open(f, 'w').write(line)
    order = [(a, ta), (b, tb)] if i % 2 == 0 else [(b, tb), (a, ta)]
    for exe, acc in order:
        t = time.perf_counter()
        subprocess.run([exe, 'rate', f], stdout=subprocess.DEVNULL, check=True)
        acc.append(time.perf_counter() - t)
def stats(t):
    s = sorted(t)
    return dict(mean=statistics.mean(t), median=statistics.median(t), p90=s[int(0.9 * len(s))], slowest=s[-1], over1=sum(x > 1 for x in t))
for name, t in (('A', ta), ('B', tb)):
    print(name, ' '.join(f'{k}={v:.3f}' if isinstance(v, float) else f'{k}={v}' for k, v in stats(t).items()))
faster = sum(y < x for x, y in zip(ta, tb))
idx = sorted(range(len(ta)), key=lambda i: -ta[i])[:33]
print(f'B faster on {faster}/{len(ta)}; 33 slowest (by A): {statistics.mean(ta[i] for i in idx):.3f} -> {statistics.mean(tb[i] for i in idx):.3f}, B faster on {sum(tb[i] < ta[i] for i in idx)}')
slow = sorted(range(len(tb)), key=lambda i: -tb[i])[:10]
print('B slowest lines:', ', '.join(f'{i+1}:{tb[i]:.2f}' for i in slow))
