#!/usr/bin/env python3
"""A test solver for puzzlebench that is slow to start or hard to stop, on request.

It cannot solve anything: it answers $ANSWER (the known solution the test gives it).

  STARTUP    seconds to sleep before starting (default 0)
  READY      if `1`, print the line `ready` after the start-up; if `garbage`, print
             something else instead; if `never`, print nothing and wait
  JOB0_SLEEP seconds to sleep before answering job 0 (default 0)
  JOB_SLEEP  seconds to sleep before answering the other jobs (default 0)
  ESCAPE     how to be hard to stop when a request comes (default: none, just answer):
             setpgid       join puzzlebench's own process group, then hang
             setsid-fork   fork a child that calls setsid and hangs holding stdout, then hang
             ignore-term   ignore SIGTERM, then hang
             helper        (per-puzzle) fork a helper that keeps stdout open and hangs, then
                           answer and exit 0
             close-stdout  close stdout, then hang (ignoring nothing)
  PIDDIR     directory where every process it starts writes a file named by its pid
  HANG_IF    a path: while it exists, jobs other than job 0 hang
"""
import os
import resource
import signal
import sys
import time


def note_pid():
    d = os.environ.get("PIDDIR")
    if d:
        with open(os.path.join(d, str(os.getpid())), "w") as f:
            f.write("hostile\n")


def hang():
    while True:
        time.sleep(1000)


def answer(job):
    nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    sys.stdout.write("%s\tsolved\t%s\tnodes=1;nofile=%d\n" % (job, os.environ["ANSWER"], nofile))
    sys.stdout.flush()


def main():
    note_pid()
    time.sleep(float(os.environ.get("STARTUP", "0")))
    ready = os.environ.get("READY", "")
    if ready == "1":
        print("ready", flush=True)
    elif ready == "garbage":
        print("starting up...", flush=True)
    elif ready == "never":
        hang()
    escape = os.environ.get("ESCAPE", "")
    for line in sys.stdin:
        job = line.split("\t", 1)[0]
        if escape == "setpgid":
            os.setpgid(0, os.getpgid(os.getppid()))
            hang()
        elif escape == "setsid-fork":
            if os.fork() == 0:
                os.setsid()
                note_pid()
                hang()
            hang()
        elif escape == "ignore-term":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            hang()
        elif escape == "helper":
            if os.fork() == 0:
                note_pid()
                hang()
            answer(job)
            os._exit(0)
        elif escape == "close-stdout":
            os.close(1)
            hang()
        hang_if = os.environ.get("HANG_IF")
        if job != "0" and hang_if and os.path.exists(hang_if):
            hang()
        sleep = os.environ.get("JOB0_SLEEP" if job == "0" else "JOB_SLEEP", "0")
        time.sleep(float(sleep))
        answer(job)


main()
