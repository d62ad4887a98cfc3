#!/usr/bin/env bash
# Render an HTML report to PNG with headless Chromium, to check it in a real browser.
#   scripts/screenshot.sh results/nightly/html/index.html [out.png] [WIDTHxHEIGHT]
# Installs Debian's chromium with apt-get when it is missing (needs root). The default size
# shows the top of the page as a reader first sees it on a laptop; pass a taller size (e.g.
# 1400x9000) for the whole page.
set -euo pipefail
html=${1:?usage: scripts/screenshot.sh INDEX.html [OUT.png] [WIDTHxHEIGHT]}
out=${2:-${html%.html}.png}
size=${3:-1400x1000}
[ -f "$html" ] || { echo "screenshot: $html: no such file" >&2; exit 2; }
case $size in
  [0-9]*x[0-9]*) ;;
  *) echo "screenshot: size must be WIDTHxHEIGHT, got $size" >&2; exit 2 ;;
esac
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "screenshot: installing Debian's chromium" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "screenshot: chromium is missing and installing it needs root (apt-get install chromium)" >&2
    exit 2
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >/dev/null
  browser=$(command -v chromium)
fi
abs=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
out_abs=$(cd "$(dirname "$out")" 2>/dev/null && pwd)/$(basename "$out") || {
  echo "screenshot: $(dirname "$out"): no such directory" >&2; exit 2; }
# A file URL is percent-encoded: a `#` would start a fragment, `%` an escape, a space end it.
url_path() {
  local LC_ALL=C s=$1 out= c i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in
      [A-Za-z0-9/._~-]) out+=$c ;;
      *) printf -v c '%%%02X' "'$c"; out+=$c ;;
    esac
  done
  printf '%s' "$out"
}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start.
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --user-data-dir="$profile" --window-size="${size/x/,}" \
  --screenshot="$out_abs" "file://$(url_path "$abs")" >/dev/null 2>&1
[ -s "$out_abs" ] || { echo "screenshot: chromium wrote no $out_abs" >&2; exit 1; }
echo "$out_abs"
