#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/host/test_bench_html.py - host tests of scripts/bench_html.py, the
page `make bench` writes (build/bench/index.html).

Makes a bench directory as scripts/bench.py leaves it from
tests/host/bench_canned.log (scripts/bench_report.py's tables as report.txt,
results.csv and, with gnuplot, the plots), writes the page, checks what it
holds, and renders it in headless Chromium to a PNG that must not be blank
(its pixels decoded here), and loads it in Chromium again with a checker
that reports whether every image decoded and every table has data. Without
chromium (Debian package chromium, which scripts/deps.sh installs) the
rendering cases fail, saying so. One
KTAP line per case ("ok N - bench_html.<case>"); tests/run.py collects them.
"""
import base64
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
import ktap_cases  # tests/host/ktap_cases.py: the cases run as KTAP

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CANNED = os.path.join(HERE, "bench_canned.log")
BROWSERS = ("chromium", "chromium-browser", "chromium-headless-shell", "google-chrome")


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def make_bench_dir(tmp, plots):
    """tmp/bench/x86_64 as scripts/bench.py leaves it; the page's path."""
    out = os.path.join(tmp, "bench", "x86_64")
    os.makedirs(out)
    shutil.copy(CANNED, os.path.join(out, "bench.log"))
    p = subprocess.run([sys.executable, "-m", "scripts.bench_report", "--log",
                        CANNED, "--out", out] + ([] if plots else ["--no-plots"]),
                       capture_output=True, text=True, cwd=ROOT)
    expect(p.returncode == 0, "bench_report failed: " + p.stderr[-400:])
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write(p.stdout)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench_html.py"), "--dir",
                        os.path.join(tmp, "bench"), "--arches", "x86_64 arm64"],
                       capture_output=True, text=True)
    expect(p.returncode == 0, "bench_html failed: " + p.stderr[-400:])
    page = os.path.join(tmp, "bench", "index.html")
    expect(os.path.abspath(page) in p.stdout, f"path not printed: {p.stdout!r}")
    return page


def page_contents():
    with tempfile.TemporaryDirectory() as tmp:
        plots = shutil.which("gnuplot") is not None
        with open(make_bench_dir(tmp, plots)) as f:
            page = f.read()
    expect(page.startswith("<!DOCTYPE html>") and "<style>" in page, "self-contained page")
    expect("<h3>x86_64, user: round trip timed in user space</h3>" in page, "table heading")
    expect("<td>+3.00% (R)</td>" in page, "a cell of the seeds' table (counter getpid mean)")
    expect('href="x86_64/results.csv"' in page, "CSV link")
    expect('id="arm64"' not in page, "an arch without results has no section")
    expect("<link" not in page and "<script" not in page, "nothing fetched from elsewhere")
    if plots:
        expect('src="data:image/png;base64,iVBORw0KGgo' in page, "plots embedded")
        return None
    return "SKIP gnuplot is not installed: the page has no plots to check"


def png_pixels(path):
    """(width, height, rows of pixel tuples) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    expect(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    pos, idat, head = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, color = head[:4]
    expect(depth == 8 and color in (2, 6), f"PNG depth {depth} color type {color}")
    bpp = 3 if color == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def blank(path):
    """True if nearly every pixel has the same colour (nothing drawn)."""
    w, h, rows = png_pixels(path)
    counts = {}
    for r in rows[::4]:
        for px in r[::4]:
            counts[px] = counts.get(px, 0) + 1
    common = max(counts.values())
    return len(counts) < 8 or common > 0.995 * sum(counts.values())


def write_png(path, w, h, pixel):
    raw = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))
    chunk = lambda k, d: struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def blank_check_can_fail():
    # The checker itself: a white image is blank, one with stripes is not.
    with tempfile.TemporaryDirectory() as tmp:
        white, lines = os.path.join(tmp, "white.png"), os.path.join(tmp, "lines.png")
        write_png(white, 64, 64, lambda x, y: (255, 255, 255))
        write_png(lines, 64, 64, lambda x, y: (x * 4 % 256, y * 4 % 256, (x ^ y) * 4 % 256))
        expect(blank(white), "a white PNG judged not blank")
        expect(not blank(lines), "a striped PNG judged blank")


def renders_in_chromium():
    browser = next((b for b in BROWSERS if shutil.which(b)), None)
    if not browser:
        expect(False, "chromium is not installed (Debian package chromium, which "
                      "scripts/deps.sh installs)")
    with tempfile.TemporaryDirectory() as tmp:
        page = make_bench_dir(tmp, shutil.which("gnuplot") is not None)
        shot = os.path.join(tmp, "shot.png")
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={os.path.join(tmp, 'profile')}", "--window-size=1280,1600",
               f"--screenshot={shot}", "file://" + os.path.abspath(page)]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp)
        expect(os.path.exists(shot), f"no screenshot (exit {p.returncode}): {p.stderr[-600:]}")
        expect(not blank(shot), "the rendered page is blank")
    return None


# Run by Chromium after the page has loaded: whether every image decoded (a
# natural size above zero) and every table has a data row with a filled
# cell; the verdict lands in the DOM that --dump-dom prints.
CHECKER = """<script>
window.addEventListener("load", () => {
  const bad = [];
  const imgs = [...document.images];
  imgs.forEach((im, i) => { if (!im.complete || im.naturalWidth === 0)
    bad.push("image " + i + " (" + im.alt + ") did not decode"); });
  const tables = [...document.querySelectorAll("table")];
  tables.forEach((t, i) => { const cells = [...t.querySelectorAll("td")];
    if (!cells.some(c => c.textContent.trim() && c.textContent.trim() !== "-"))
      bad.push("table " + i + " is empty"); });
  const v = document.createElement("pre"); v.id = "verdict";
  v.textContent = "VERDICT images=" + imgs.length + " tables=" + tables.length + " " +
    (bad.length ? "BAD " + bad.join("; ") : "GOOD");
  document.body.appendChild(v);
});
</script>"""


def chromium_verdict(browser, page, tmp):
    """The checker's line from Chromium's DOM of a copy of page."""
    with open(page) as f:
        text = f.read()
    probe = os.path.join(os.path.dirname(page), "checked.html")
    with open(probe, "w") as f:
        f.write(text.replace("</body>", CHECKER + "</body>"))
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu",
           f"--user-data-dir={os.path.join(tmp, 'profile-dom')}", "--virtual-time-budget=10000",
           "--dump-dom", "file://" + os.path.abspath(probe)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp)
    m = re.search(r"VERDICT images=\d+ tables=\d+ [^<]*", p.stdout)
    expect(m is not None, f"no verdict in Chromium's DOM (exit {p.returncode}): "
           f"{p.stderr[-600:]}")
    return m.group(0)


def png_complete(data):
    """(width, height) of a PNG whose every chunk is there with its CRC and
    whose image data inflates to exactly its rows; raises otherwise."""
    expect(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    pos, idat, head, ended = 8, b"", None, False
    while pos < len(data) and not ended:
        expect(pos + 12 <= len(data), "a chunk cut short")
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        expect(len(body) == n and data[pos + 8 + n:pos + 12 + n] ==
               struct.pack(">I", zlib.crc32(kind + body)), f"chunk {kind!r} cut or corrupt")
        head = struct.unpack(">IIBBBBB", body) if kind == b"IHDR" else head
        idat += body if kind == b"IDAT" else b""
        ended = kind == b"IEND"
        pos += 12 + n
    expect(head is not None and ended, "no IHDR or no IEND")
    w, h, depth, color = head[:4]
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    stride = (w * channels * depth + 7) // 8
    expect(len(zlib.decompress(idat)) == h * (stride + 1), "image data of the wrong size")
    return w, h


def embedded_pngs_complete(page):
    """Every data: PNG of the page decodes completely (Chromium shows a cut
    PNG's first rows and reports its size all the same)."""
    with open(page) as f:
        uris = re.findall(r'src="data:image/png;base64,([^"]*)"', f.read())
    for i, uri in enumerate(uris):
        try:
            png_complete(base64.b64decode(uri))
        except (AssertionError, ValueError, zlib.error, KeyError, struct.error) as e:
            raise AssertionError(f"embedded image {i} does not decode: {e}")
    return len(uris)


def images_decode_tables_filled():
    """The page in Chromium: it loads, every image decodes, no table is empty
    (and the check can fail: a broken image and an empty table are caught)."""
    browser = next((b for b in BROWSERS if shutil.which(b)), None)
    if not browser:
        expect(False, "chromium is not installed (Debian package chromium, which "
                      "scripts/deps.sh installs)")
    with tempfile.TemporaryDirectory() as tmp:
        plots = shutil.which("gnuplot") is not None
        page = make_bench_dir(tmp, plots)
        verdict = chromium_verdict(browser, page, tmp)
        expect("GOOD" in verdict and " tables=0 " not in verdict, verdict)
        expect(embedded_pngs_complete(page) == int(re.search(r"images=(\d+)", verdict).group(1)),
               "Chromium saw another number of images than the page embeds")
        expect(not plots or " images=0 " not in verdict, "no images: " + verdict)
        with open(page) as f:
            text = f.read()
        with open(page, "w") as f:
            f.write(text.replace("<body>", '<body><img alt="broken" src="data:image/png;base64,'
                                 'iVBORw0KGgoAAAA"><table><tr><th>x</th></tr><tr><td></td></tr>'
                                 "</table>", 1))
        verdict = chromium_verdict(browser, page, tmp)
        expect("did not decode" in verdict and "is empty" in verdict,
               "the check missed a broken image or an empty table: " + verdict)
        try:
            embedded_pngs_complete(page)
            missed = True
        except AssertionError:
            missed = False
        expect(not missed, "the PNG check missed a broken image")
    return None


CASES = [page_contents, blank_check_can_fail, renders_in_chromium, images_decode_tables_filled]


def main():
    return ktap_cases.run("bench_html", CASES)


if __name__ == "__main__":
    sys.exit(main())
