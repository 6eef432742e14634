#!/usr/bin/env python3
"""Median wall time and CPU time of whole commands, run interleaved (A B C A B C ...).

On a shared, busy machine wall times mostly measure the queue for a core; the CPU time a process
used (user + system, from wait4's rusage, which includes the children it waited for) moves much
less. Processes inside bwrap's PID namespace are not counted (`bwrap ... python3 -c pass` shows
~4 ms), so for `run` only the wall times include the tool's process. NODE_EXTRA_CA_CERTS is removed from the environment (it costs ~90 ms per Node process here).

    python3 bench/cputime.py N 'label:::command args' ['label:::@/run/in/dir command args' ...]

The first variant is the floor the ratios are against. Commands are split like a shell would
(shlex), not run by one. Example (from the repository root, after `npm run build`):

    python3 bench/cputime.py 15 'node -e 0:::node -e 0' \
        'select:::node bin/toolbox.js select "weather forecast for a city" --json'

Through a running daemon (`toolbox daemon start` first): run this file with the interpreter itself
(`python3 -c 'import sys; print(sys.executable)'`), not a pyenv shim. The shim adds PYENV_VERSION to
the environment the commands get, the daemon refuses a caller whose environment differs from its own
in that way, and every "via daemon" variant quietly runs directly (`toolbox daemon status` counts
the requests it served).
"""
import os
import shlex
import statistics
import sys
import time


def main():
    n = int(sys.argv[1])
    variants = []
    for spec in sys.argv[2:]:
        label, _, command = spec.partition(":::")
        argv = shlex.split(command)
        cwd = os.getcwd()
        if argv and argv[0].startswith("@"):
            cwd, argv = argv[0][1:], argv[1:]
        variants.append((label.strip(), cwd, argv))
    env = dict(os.environ)
    env.pop("NODE_EXTRA_CA_CERTS", None)
    wall = [[] for _ in variants]
    cpu = [[] for _ in variants]
    devnull = os.open(os.devnull, os.O_RDWR)
    for i in range(n + 1):  # round 0 warms caches and is not counted
        for k, (label, cwd, argv) in enumerate(variants):
            t = time.perf_counter()
            pid = os.fork()
            if pid == 0:
                os.chdir(cwd)
                os.dup2(devnull, 0)
                os.dup2(devnull, 1)
                os.execvpe(argv[0], argv, env)
            _, status, ru = os.wait4(pid, 0)
            ms = (time.perf_counter() - t) * 1000
            if os.waitstatus_to_exitcode(status) != 0:
                sys.exit("%s exited with %s" % (label, os.waitstatus_to_exitcode(status)))
            if i > 0:
                wall[k].append(ms)
                cpu[k].append((ru.ru_utime + ru.ru_stime) * 1000)
    bw, bc = statistics.median(wall[0]), statistics.median(cpu[0])
    print("| what | wall ms (median) | ratio | CPU ms (median) | ratio |")
    print("|---|---|---|---|---|")
    for k, (label, _, _) in enumerate(variants):
        w, c = statistics.median(wall[k]), statistics.median(cpu[k])
        print("| %s | %.1f | %.2f | %.1f | %.2f |" % (label, w, w / bw, c, c / bc))


if __name__ == "__main__":
    main()
