#!/usr/bin/env bash
# The cases of issue 26 ("the reports can disagree with each other on the same files"), each
# run through every report that reads those files, so a reader sees that they now agree.
#
#   scripts/report_cases.sh [OUT_DIR]     (default: a new temporary directory)
#
# Needs target/release/bench-run and bench-report (cargo build --release). Prints, per case,
# each command, its exit code and the lines of its output that carry the answer; the full
# outputs stay in OUT_DIR.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
run=$here/target/release/bench-run
rep=$here/target/release/bench-report
out=${1:-$(mktemp -d)}
mkdir -p "$out"
cd "$out" || exit 2

# `show NAME GREP -- CMD…`: run CMD, keep its output in NAME.out, print the exit code and the
# lines matching GREP (an extended regex).
show() {
    local name=$1 pat=$2
    shift 3
    "$@" >"$name.out" 2>&1
    local rc=$?
    printf '  $ %s\n    exit %d\n' "${*/#$rep/bench-report}" "$rc"
    grep -E -m 6 -- "$pat" "$name.out" | sed 's/^/    | /'
}

echo "== puzzlebench report cases, $(date -u +%FT%TZ), in $out"

echo
echo "## 1. A run copied twice into one directory"
mkdir -p twice
$run --quiet --dataset "$here/datasets/hitori5" --strategy mrv,row --output twice/a.csv >/dev/null
cp twice/a.csv twice/b.csv
cp twice/a.meta.json twice/b.meta.json
for r in summary plot html ab history; do
    case $r in
    summary) show "1-$r" 'job|runs' -- "$rep" summary twice ;;
    plot) show "1-$r" 'job|wrote' -- "$rep" plot twice --out plots1 ;;
    html) show "1-$r" 'job|wrote' -- "$rep" html twice --out html1 ;;
    ab) show "1-$r" 'job|Verdict' -- "$rep" ab twice --a strategy=mrv --b strategy=row ;;
    history) show "1-$r" 'job|runs|group' -- "$rep" history twice ;;
    esac
done
show 1-summary-allow 'repeat|mrv' -- "$rep" summary twice --allow-duplicates

echo
echo "## 2. Different puzzles under one dataset name"
mkdir -p two/x two/y
cp -r "$here/datasets/hitori5" two/x/hitori5
cp -r "$here/datasets/hitori10" two/y/hitori5
$run --quiet --dataset two/x/hitori5 --strategy mrv --output two/base.csv >/dev/null
$run --quiet --dataset two/y/hitori5 --strategy mrv --output two/new.csv >/dev/null
show 2-compare 'dataset|regression' -- "$rep" compare two/base.csv two/new.csv
show 2-html 'dataset|regression' -- "$rep" html two/new.csv --baseline two/base.csv --out html2
show 2-summary 'dataset_hash|runs' -- "$rep" summary two/base.csv two/new.csv

echo
echo "## 3. One file without its .meta.json (PAR-2 needs a time limit)"
mkdir -p nometa
$run --quiet --dataset "$here/datasets/hitori5" --strategy mrv --timeout 1 --output nometa/a.csv >/dev/null
$run --quiet --dataset "$here/datasets/hitori5" --strategy row --timeout 1 --output nometa/b.csv >/dev/null
rm nometa/b.meta.json
show 3-summary 'PAR-2' -- "$rep" summary nometa
show 3-ab 'PAR' -- "$rep" ab nometa --a strategy=mrv --b strategy=row
"$rep" html nometa --out html3 >/dev/null 2>&1
printf '  $ bench-report html nometa --out html3\n'
grep -o 'PAR-2 omitted[^<]*' html3/index.html | head -1 | sed 's/^/    | /'
show 3-summary-flag 'PAR-2' -- "$rep" summary nometa --time-limit 1

echo
echo "## 4. A --trace file saved in the results directory"
mkdir -p traced
$run --quiet --dataset "$here/datasets/sudoku-demo" --strategy abc --seeds 3 --trace traced/trace.csv --output traced/abc.csv >/dev/null
show 4-summary 'trace|abc ' -- "$rep" summary traced
show 4-html 'trace|wrote' -- "$rep" html traced --out html4
show 4-plot 'trace|wrote' -- "$rep" plot traced --out plots4

echo
echo "## 5. ab on abc vs abc-hybrid (the hybrid needs 0 cycles), and the A12 of a Hitori pair"
$run --quiet --dataset "$here/datasets/sudoku-demo" --strategy abc,abc-hybrid --seeds 20 --output s5.csv >/dev/null
show 5-ab-abc 'Verdict|no cycles' -- "$rep" ab s5.csv --a strategy=abc --b strategy=abc-hybrid
$run --quiet --dataset "$here/datasets/hitori10" --strategy mrv,row --output h5.csv >/dev/null
show 5-ab-hitori 'Verdict|^nodes|^wall_s' -- "$rep" ab h5.csv --a strategy=mrv --b strategy=row

echo
echo "## 6. The A/B scatter of a side that solved in 0 cycles"
"$rep" html s5.csv --out html6 --ab strategy=abc:strategy=abc-hybrid >/dev/null 2>&1
printf '  $ bench-report html s5.csv --out html6 --ab strategy=abc:strategy=abc-hybrid\n'
printf '    | scatter files: %s\n' "$(grep -o 'id="fig-ab0[^"]*"' html6/index.html | tr '\n' ' ')"

echo
echo "## 8. Dataset names that escape: a<b, a>b, 'a b', 'x#1', 'p|q'"
mkdir -p names src8
i=0
for n in 'a<b' 'a>b' 'a b' 'x#1' 'p|q'; do
    i=$((i + 1))
    mkdir -p "src8/$n"
    cp "$here/datasets/hitori5/"* "src8/$n/"
    $run --quiet --dataset "src8/$n" --strategy mrv --output "names/run$i.csv" >/dev/null
done
show 8-plot 'wrote|error' -- "$rep" plot names --out plots8
printf '    | files: %s\n' "$(ls plots8 | tr '\n' ' ')"
show 8-md '^\| (a|x|p)' -- "$rep" summary names --format markdown
"$rep" html names --out html8 >/dev/null 2>&1
printf '  $ bench-report html names --out html8\n    | element ids: %s distinct of %s\n' \
    "$(grep -o 'id="[^"]*"' html8/index.html | sort -u | wc -l)" "$(grep -o 'id="[^"]*"' html8/index.html | wc -l)"
