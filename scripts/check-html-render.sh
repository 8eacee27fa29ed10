#!/usr/bin/env bash
# Proves that a `layoutbench report html` page renders in a real browser.
#
#   scripts/check-html-render.sh REPORT.html [SCREENSHOT.png]
#
# Takes a headless Chromium screenshot of the page (1200×2000 by default; CHECK_HTML_WINDOW=W,H
# changes it) and checks, with python3 and a small PNG decoder (no Pillow needed):
#   1. the page is not blank: enough pixels are not white;
#   2. the plots hold their data: the HTML has <circle data-backend=…> points, and every series
#      colour of the first plot (which must be on the first screen) shows up in the screenshot.
# Pages without plots (fuzz reports) get check 1 only.
#
# Installs Chromium from Debian's packages (apt-get install chromium) when it is missing.
# Exit status: 0 when the checks pass, 1 when one fails, 2 for bad usage or no browser.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -f "$1" ]; then
  echo "usage: $0 REPORT.html [SCREENSHOT.png]" >&2
  exit 2
fi
html=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
screenshot=${2:-${html%.html}.png}
window=${CHECK_HTML_WINDOW:-1200,2000}

find_browser() {
  for name in chromium chromium-browser google-chrome; do
    if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
  done
  return 1
}

if ! browser=$(find_browser); then
  echo "check-html-render: Chromium is missing; installing it with apt-get" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  # A fresh container has no package lists; fetch them only when the install needs them.
  if ! "${sudo_cmd[@]}" apt-get install -y -qq chromium >/dev/null 2>&1; then
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq chromium >/dev/null
  fi
  browser=$(find_browser) || { echo "check-html-render: Chromium could not be installed" >&2; exit 2; }
fi

# A private profile, so that concurrent checks (and a user's browser) do not share a lock.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
rm -f "$screenshot"
timeout 180 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
  --no-first-run --user-data-dir="$profile" --window-size="$window" \
  --screenshot="$screenshot" "file://$html" >"$profile/browser.log" 2>&1 || {
  echo "check-html-render: $browser failed:" >&2
  tail -20 "$profile/browser.log" >&2
  exit 1
}
if [ ! -s "$screenshot" ]; then
  echo "check-html-render: no screenshot was written" >&2
  tail -20 "$profile/browser.log" >&2
  exit 1
fi

python3 - "$html" "$screenshot" <<'PY'
import collections
import re
import struct
import sys
import zlib

html_path, png_path = sys.argv[1], sys.argv[2]


def decode_png(path):
    """Width, height and rows of (r, g, b) tuples of an 8-bit RGB/RGBA/grey PNG (no interlace)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows, pos = [], 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        elif kind in (1, 3, 4):
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                up = previous[i]
                if kind == 1:
                    line[i] = (line[i] + left) & 0xFF
                elif kind == 3:
                    line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
                else:
                    corner = previous[i - channels] if i >= channels else 0
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                    line[i] = (line[i] + predictor) & 0xFF
        elif kind != 0:
            raise ValueError(f"bad PNG filter type {kind}")
        previous = line
        if channels >= 3:
            rows.append(list(zip(line[0::channels], line[1::channels], line[2::channels])))
        else:
            rows.append([(v, v, v) for v in line[0::channels]])
    return width, height, rows


html = open(html_path, encoding="utf-8").read()
width, height, rows = decode_png(png_path)
# Colours are counted once; the checks then look at a few thousand distinct colours, not millions of pixels.
histogram = collections.Counter(p for row in rows for p in row)
total = width * height
inked = sum(n for (r, g, b), n in histogram.items() if min(r, g, b) < 235)
share = inked / total
print(f"screenshot {width}x{height}: {inked} non-white pixels ({share:.1%})")
failures = []
if inked < 2000 or share < 0.005:
    failures.append("the page looks blank")

plots = re.findall(r'<svg [^>]*class="plot".*?</svg>', html, flags=re.S)
if plots:
    points = re.findall(r'<circle [^>]*data-backend="([^"]*)"[^>]*data-p50="[^"]*"[^>]*data-color="(#[0-9A-Fa-f]{6})"', html)
    print(f"{len(plots)} plots, {len(points)} data points in the HTML")
    if not points:
        failures.append("the plots have no data points")
    first = sorted(set(re.findall(r'data-color="(#[0-9A-Fa-f]{6})"', plots[0])))
    counts = {}
    for colour in first:
        target = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        counts[colour] = sum(n for p, n in histogram.items() if max(abs(p[0] - target[0]), abs(p[1] - target[1]), abs(p[2] - target[2])) <= 12)
    print("series colours of the first plot in the screenshot: " + ", ".join(f"{c} {n} px" for c, n in counts.items()))
    missing = [c for c, n in counts.items() if n < 40]
    if not first:
        failures.append("the first plot has no coloured series")
    elif missing:
        failures.append("series colours not visible (is the first plot on the first screen?): " + ", ".join(missing))
    else:
        print("plot colours visible")
else:
    print("no plots in this page (a fuzz report): only the blank-page check applies")

if failures:
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    sys.exit(1)
print(f"ok: {png_path}")
PY
