#!/bin/sh
# A test solver for puzzlebench's external-solver protocol that misbehaves on request.
# It cannot solve anything: it answers $ANSWER (the known solution the test gives it).
#
#   FAULT      what to do (below); default `ok`
#   FAULT_JOB  if set, misbehave only on this job number and answer `ok` on the others
#   ANSWER     the answer field for `ok`
#   PIDFILE    where `hang` modes write their pid (so a test can check it was killed)
#   MULT       with `stats`: decodes = job * MULT + 3 (default 10), level = job % 2, tag = t<job>
#
# FAULT: ok | stats | env | wrong | unsolved | unknown | error | hang | hang-exec | hang-ignore-term | crash |
#        exit-early | exit-nonzero | garbage | other-job | long | stderr-exit |
#        extra-output
# Works in both modes: it answers every request line until end of input.
tab=$(printf '\t')
while IFS="$tab" read -r job seed puzzle; do
    fault=${FAULT:-ok}
    if [ -n "$FAULT_JOB" ] && [ "$FAULT_JOB" != "$job" ]; then
        fault=ok
    fi
    case $fault in
    ok) printf '%s\tsolved\t%s\tnodes=7;guesses=2;seed=%s;pid=%s\n' "$job" "$ANSWER" "$seed" "$$" ;;
    stats) printf '%s\tsolved\t%s\tdecodes=%s;level=%s;tag=t%s\n' "$job" "$ANSWER" \
        "$((job * ${MULT:-10} + 3))" "$((job % 2))" "$job" ;;
    env) printf '%s\tunknown\t\tkind=%s;mode=%s;timeout=%s;extra=%s\n' "$job" \
        "$PUZZLEBENCH_KIND" "$PUZZLEBENCH_MODE" "${PUZZLEBENCH_TIMEOUT:-none}" "$EXTRA" ;;
    wrong) printf '%s\tsolved\t%s\t\n' "$job" "$(echo "$ANSWER" | tr '2-9' '1')" ;;
    unsolved) printf '%s\tunsolved\t\tnodes=3\n' "$job" ;;
    unknown) printf '%s\tunknown\t\tnodes=4\n' "$job" ;;
    error) echo "out of patience" >&2; printf '%s\terror\t\treason=test\n' "$job" ;;
    hang) echo $$ > "$PIDFILE"; sleep 1000 ;;
    hang-exec) echo $$ > "$PIDFILE.tmp"; mv "$PIDFILE.tmp" "$PIDFILE"; exec sleep 1000 ;;
    hang-ignore-term) echo $$ > "$PIDFILE"; trap '' TERM; sleep 1000 ;;
    crash) echo "about to crash on job $job" >&2; kill -SEGV $$ ;;
    exit-early) exit 0 ;;
    exit-nonzero) printf '%s\tsolved\t%s\t\n' "$job" "$ANSWER"; exit 3 ;;
    garbage) echo "hello, I am not an answer line" ;;
    other-job) printf '%s\tsolved\t%s\t\n' "$((job + 1))" "$ANSWER" ;;
    long) head -c 1100000 /dev/zero | tr '\0' x; echo ;;
    stderr-exit) echo "custom diagnostic 42" >&2; echo "second line" >&2; exit 1 ;;
    extra-output) printf '%s\tsolved\t%s\t\n' "$job" "$ANSWER"; echo "trailing chatter" ;;
    *) echo "fault.sh: unknown FAULT=$fault" >&2; exit 2 ;;
    esac
done
